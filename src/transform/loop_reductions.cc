// Sums written as accumulation loops (LowerTTLoopsToTileOps, loop_tile_ops.cc): TileLang's gemv examples keep a
// per-thread dot product, `C_reg[0] += A_shared[tk] * B_shared[tn, tk]` over tk, which SerializeThreads makes a nest
// over (tk, tn) accumulating into a [threads] array: `C_reg[tn] = C_reg[tn] + term` reads and writes the accumulator
// at one loop variable and sums over the other. The tenstorrent backend has no element loop; the terms are an
// element-wise store over the nest and the sum is a row reduction: `C_reg_terms[tn, tk] = term` (a new on-chip block
// in the accumulator's dtype, the kept loop outer) and `T.reduce_sum(C_reg_terms, C_reg, dim=1, clear=False)` (the
// same sum in another order of its terms: reduce_tile adds in fp32 DST).
#include "loop_blocks.h"

namespace tl::loops {
namespace {

// Whether `expr` is a load of `store`'s buffer at its indices.
bool is_accumulator(const Any& expr, const ir::BufferStore& store) {
  auto load = ir::TensorLoad::from(expr);
  return load && load->source().same_as(store.buffer()) && same(load->indices(), store.indices());
}

}  // namespace

std::optional<Any> as_row_sum(const std::vector<ir::For>& loops, const ir::BufferStore& store) {
  auto add = ir::Add::from(store.value());
  if (!add || loops.size() != 2) return std::nullopt;
  Any term = add->b();
  if (!is_accumulator(add->a(), store)) {
    if (!is_accumulator(add->b(), store)) return std::nullopt;
    term = add->a();
  }
  BufferInfo acc = buffer_info(store.buffer());
  List idx = store.indices();
  if (!acc.on_chip() || acc.shape.size() != 1 || reads(term, store.buffer())) return std::nullopt;
  for (const ir::For& l : loops) {
    if (!ir::IntImm::matches(l.extent()) || !tileops::is_zero(l.min())) return std::nullopt;
  }
  // The accumulator at one loop variable, over its whole extent; the other loop is summed.
  int kept = idx[0].same_as(loops[0].loop_var()) ? 0 : idx[0].same_as(loops[1].loop_var()) ? 1 : -1;
  if (kept < 0 || ir::IntImm(loops[static_cast<size_t>(kept)].extent()).value() != acc.shape[0]) return std::nullopt;
  const ir::For& i = loops[static_cast<size_t>(kept)];
  const ir::For& k = loops[static_cast<size_t>(1 - kept)];
  // The summed loop of one iteration outside the kept one (layernorm backward's `dgamma_acc[j] += dy * x_hat[i, j]`
  // over a [1, D] row block): the terms keep the loops' order, a [1, I] row block summed down its column (dim 0).
  bool row = kept == 1 && tileops::is_const_int(k.extent(), 1);
  const ir::For& outer = row ? k : i;
  const ir::For& inner = row ? i : k;
  Any terms = onchip_buffer(acc.name + "_terms", acc.dtype, List{outer.extent(), inner.extent()}, "local.fragment");
  Any body = call("tirx.BufferStore", terms, term, List{outer.loop_var(), inner.loop_var()}, Any(nullptr));
  body = for_loop(inner.loop_var(), inner.min(), inner.extent(), static_cast<int>(inner.kind()), body,
                  inner.annotations());
  body = for_loop(outer.loop_var(), outer.min(), outer.extent(), static_cast<int>(outer.kind()), body,
                  outer.annotations());
  Any sum = tile_call("tirx.tile.sum", List{full_region(store.buffer()), full_region(terms), List{int_imm(row ? 0 : 1)},
                                            make_const(Any(true), "bool")});
  return seq_stmt(List{call("tirx.AllocBuffer", terms, ffi::Map<String, Any>(), Any(nullptr)), body, sum});
}

}  // namespace tl::loops
