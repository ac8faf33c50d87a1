// Scalars bound to constants or to block-index expressions (tile_dataflow.h). TVMScript makes every assignment in a
// kernel body, e.g. TileLang's `loop_range = T.ceildiv(seq_kv, block_N)` or the causal `T.min(..., T.ceildiv((bx +
// 1) * block_M, block_N))`, a one-element local buffer written once and read as an element: the reads become the
// value itself, which every kernel computes from its block's indices.
#include <algorithm>

#include "tile_dataflow.h"
#include "tile_ops_util.h"

namespace tl {
namespace {

struct Scalar {
  Any var;
  Any value;
  int stores = 0;
};

bool is_scalar(const BufferInfo& info) { return info.scope == "local" && info.shape == std::vector<int64_t>{1}; }

}  // namespace

Any fold_constant_scalars(const Any& func) {
  Any body = ir::PrimFunc(func).body();
  std::vector<Scalar> scalars;
  auto find = [&](const Any& var) -> Scalar* {
    for (Scalar& s : scalars) {
      if (s.var.same_as(var)) return &s;
    }
    return nullptr;
  };
  walk(body, {ir::visit<ir::AllocBuffer>([&](const ir::AllocBuffer& a) {
                if (is_scalar(buffer_info(a.buffer()))) scalars.push_back({a.buffer().any(), Any(), 0});
              }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
                if (Scalar* sc = find(s.buffer().any())) {
                  ++sc->stores;
                  sc->value = s.value().any();
                }
              })});
  // Folded: written once, with a value that reads no buffer (a constant, or computed from block indices and
  // constants). Any other scalar stays (and is refused where it is used).
  auto reads_buffer = [](const Any& value) {
    bool reads = false;
    walk(value, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad&) { reads = true; })});
    return reads;
  };
  scalars.erase(std::remove_if(scalars.begin(), scalars.end(), [&](const Scalar& s) {
                  return s.stores != 1 || reads_buffer(s.value);
                }),
                scalars.end());
  if (scalars.empty()) return func;
  Any folded = map(body, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                            Scalar* s = find(load.source().any());
                            return s ? s->value : load.any();
                          }),
                          ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                            return find(store.buffer().any()) ? evaluate(int_imm(0)) : store.any();
                          }),
                          ir::rewrite<ir::AllocBuffer>([&](const ir::AllocBuffer& a) -> Any {
                            return find(a.buffer().any()) ? evaluate(int_imm(0)) : a.any();
                          })},
                  "post");
  return with_body(func, folded);
}

}  // namespace tl
