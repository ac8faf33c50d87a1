// Split-K per-thread runs read as one range (loop_thread_arrays.cc): TileLang's splitk_gemv has thread (tn, tk) sum
// TILE_K consecutive products, `A[bk * BLOCK_K + tk * TILE_K + k]` over (tk, k), into its own C_accum[tk, tn], then
// adds that into the row sums C_shared[tn]. Three exact rewrites make one contiguous range of it (the first two in
// loop_array_shapes.cc, on the arrays before loop fission; the loop merge here, after it):
// - partial sums summed whole: an array cleared to 0, updated only by `X[I] = X[I] + term`, and read only by
//   `Y[J] = Y[J] + X[I]` over a loop of I's dim-d variable (the per-thread sums into the row sums) loses dim d: the
//   terms go straight into X[I without d], which Y reads once (the same sum, its terms added in another order);
// - a local array indexed by (u, w) at dims a < b whose DRAM copy reads `u * extent_w + w` has the two dims fused
//   into one at a (`A_local[tk * TILE_K + k]`);
// - two loops u, w of a nest around one store that name them only as `u * extent_w + w` are one loop of
//   extent_u * extent_w (iterations run in another order: a copy moves each element once, a sum adds its terms in
//   another order).
#include "loop_blocks.h"

namespace tl::loops {
namespace {

std::optional<std::vector<ir::For>> nest_of(const Any& stmt, Any* leaf) {
  std::vector<ir::For> loops;
  Any body = stmt;
  while (auto f = ir::For::from(body)) {
    loops.push_back(*f);
    body = f->body();
  }
  *leaf = body;
  if (loops.empty()) return std::nullopt;
  return loops;
}

// `for u, w` (anywhere in the nest, u outer) naming u, w only as u * e_w + w -> one loop.
Any merge_pair(const Any& stmt) {
  Any leaf;
  auto loops = nest_of(stmt, &leaf);
  auto store = ir::BufferStore::from(leaf);
  if (!loops || !store) return stmt;
  for (size_t a = 0; a < loops->size(); ++a) {
    for (size_t b = 0; b < loops->size(); ++b) {
      const ir::For& u = (*loops)[a];
      const ir::For& w = (*loops)[b];
      auto eu = ir::IntImm::from(u.extent()), ew = ir::IntImm::from(w.extent());
      if (a == b || !eu || !ew || ew->value() < 2 || eu->value() < 2 || !tileops::is_zero(u.min()) ||
          !tileops::is_zero(w.min())) {
        continue;
      }
      Any m = var(ir::Var(w.loop_var()).name() + "_" + ir::Var(u.loop_var()).name(), cpu::dtype_of(w.loop_var()));
      Any e = int_imm(ew->value(), cpu::dtype_of(w.loop_var()).c_str());
      Any body = map(leaf, {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any {
                       if (v.same_as(u.loop_var())) return call("prim._OpFloorDiv", m, e, Any(nullptr));
                       if (v.same_as(w.loop_var())) return call("prim._OpFloorMod", m, e, Any(nullptr));
                       return v.any();
                     })});
      Any merged = for_loop(m, int_imm(0), int_imm(eu->value() * ew->value()), 0, body);
      cpu::Analyzer analyzer = cpu::range_analyzer(merged);
      ir::BufferStore s(body);
      List idx;
      for (const Any& i : s.indices()) idx.push_back(simplified(analyzer, i));
      Any value = simplified(analyzer, s.value());
      Any out = call("tirx.BufferStore", s.buffer().any(), value, idx, Any(nullptr));
      bool clean = true;
      for (const char* key : {"prim.FloorDiv", "prim.FloorMod"}) {
        walk(out, {{key, [&](const Any& node) { clean = clean && !names(node, m); }}});
      }
      if (!clean) continue;
      for (size_t l = loops->size(); l-- > 0;) {
        const ir::For& f = (*loops)[l];
        if (l == b) continue;
        out = l == a ? for_loop(m, int_imm(0), int_imm(eu->value() * ew->value()), static_cast<int>(f.kind()), out)
                     : for_loop(f.loop_var(), f.min(), f.extent(), static_cast<int>(f.kind()), out, f.annotations());
      }
      return merge_pair(out);
    }
  }
  return stmt;
}

}  // namespace

Any merge_runs(const Any& body) { return map(body, {{ir::For::kTypeKey, merge_pair}}, "pre"); }

}  // namespace tl::loops
