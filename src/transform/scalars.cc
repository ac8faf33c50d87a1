// Scalars bound to constants or to index arithmetic (tile_dataflow.h). TVMScript makes every assignment in a
// kernel body, e.g. TileLang's `loop_range = T.ceildiv(seq_kv, block_N)` or the causal `T.min(..., T.ceildiv((bx +
// 1) * block_M, block_N))`, a one-element local buffer written once and read as an element: the reads become the
// value itself, which every kernel computes from its block's indices. Inside a loop (the convolution's
// `m = by * block_M + i`, `access_h = m % (OH * OW) // OW * S + ...`) a scalar written once per iteration from loop
// variables and other such scalars folds the same way where every read of it is inside that loop.
#include <algorithm>
#include <functional>

#include "tile_dataflow.h"
#include "tile_ops_util.h"

namespace tl {
namespace {

struct Scalar {
  Any var;
  Any value;
  int stores = 0;
  Any scope;  // the innermost loop around its store (None at the kernel's top level)
  Any store;  // its (last) store
};

bool is_scalar(const BufferInfo& info) { return info.scope == "local" && info.shape == std::vector<int64_t>{1}; }

int64_t reads_of(const Any& root, const Any& var) {
  int64_t n = 0;
  walk(root, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { n += l.source().same_as(var); })});
  return n;
}

// An element-wise temporary (layernorm's `norm = (X_local[i, j] - mean_row[i]) * rstd_row[i]` in its T.Parallel
// body): a scalar stored once in a statement sequence and read only by the statements after it, none of which writes
// a buffer its value reads before the last read (that read's own store writes after reading), so the value may stand
// in for the scalar where it is read.
bool temporary(const Any& body, const Scalar& s) {
  std::optional<ir::SeqStmt> seq;
  walk(body, {ir::visit<ir::SeqStmt>([&](const ir::SeqStmt& q) {
         for (const Any& item : q.seq()) {
           if (item.same_as(s.store)) seq = q;
         }
       })});
  if (!seq) return false;
  List items = seq->seq();
  size_t at = 0, last = 0;
  for (size_t n = 0; n < items.size(); ++n) {
    if (items[n].same_as(s.store)) at = n;
    if (reads_of(items[n], s.var) > 0) last = n;
  }
  int64_t later = 0;
  for (size_t n = at + 1; n < items.size(); ++n) later += reads_of(items[n], s.var);
  if (later == 0 || later != reads_of(body, s.var)) return false;
  std::vector<Any> read;
  walk(s.value, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { read.push_back(l.source().any()); })});
  bool clobbered = false;
  for (size_t n = at + 1; n <= last; ++n) {
    if (n == last && ir::BufferStore::matches(items[n])) break;
    walk(items[n], {ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) {
           for (const Any& b : read) clobbered = clobbered || st.buffer().same_as(b);
         })});
  }
  return !clobbered;
}

}  // namespace

Any fold_constant_scalars(const Any& unfolded) {
  Any func = fold_condition_copies(unfolded);
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
              })});
  // Each scalar's stores, and the innermost loop around its store (the scope of the loop variables it may use).
  walk(body, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) {
                if (Scalar* sc = find(st.buffer().any())) {
                  ++sc->stores;
                  sc->value = st.value().any();
                  sc->store = st.any();
                }
              })});
  walk(body, {ir::visit<ir::For>([&](const ir::For& f) {
                walk(f.body(), {ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) {
                                  if (Scalar* sc = find(st.buffer().any())) sc->scope = f.any();  // pre-order: innermost last
                                })});
              })});
  // Folded: written once, with a value that reads no buffer other than scalars folded themselves (a constant, or
  // index arithmetic on block indices, loop variables and such scalars), or an element-wise temporary (below), and
  // read only inside the loop it is written in (where its loop variables have their values). Any other scalar stays
  // (and is refused where used).
  auto reads_in = [&](const Any& root, const Any& var) {
    int64_t n = 0;
    walk(root, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { n += l.source().same_as(var); })});
    return n;
  };
  std::vector<Scalar> folded;
  auto is_folded = [&](const Any& var) {
    return std::any_of(folded.begin(), folded.end(), [&](const Scalar& f) { return f.var.same_as(var); });
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (const Scalar& s : scalars) {
      if (s.stores != 1 || is_folded(s.var)) continue;
      bool pure = true;
      walk(s.value, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { pure = pure && is_folded(l.source()); })});
      if (!pure && (is_none(s.scope) || !temporary(body, s))) continue;
      if (!is_none(s.scope) && reads_in(ir::For(s.scope).body(), s.var) != reads_in(body, s.var)) continue;
      folded.push_back(s);
      grew = true;
    }
  }
  if (folded.empty()) return func;
  auto find_folded = [&](const Any& var) -> const Scalar* {
    for (const Scalar& s : folded) {
      if (s.var.same_as(var)) return &s;
    }
    return nullptr;
  };
  // A value may read scalars folded after it: substitute until no folded scalar is read.
  std::function<Any(const Any&)> substitute = [&](const Any& root) -> Any {
    return map(root, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                 const Scalar* s = find_folded(load.source().any());
                 return s ? substitute(s->value) : load.any();
               })},
               "post");
  };
  Any result = map(body, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                            const Scalar* s = find_folded(load.source().any());
                            return s ? substitute(s->value) : load.any();
                          }),
                          ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                            return find_folded(store.buffer().any()) ? evaluate(int_imm(0)) : store.any();
                          }),
                          ir::rewrite<ir::AllocBuffer>([&](const ir::AllocBuffer& a) -> Any {
                            return find_folded(a.buffer().any()) ? evaluate(int_imm(0)) : a.any();
                          })},
                  "post");
  return with_body(func, result);
}

}  // namespace tl
