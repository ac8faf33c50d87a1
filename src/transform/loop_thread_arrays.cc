// Per-thread arrays read as blocks (LowerTTLoopsToTileOps, around loop fission): SerializeThreads leaves TileLang's
// split-K gemv (examples/gemv naive_splitk_gemv) as element loops over the thread indices (tk, tn) with per-thread
// locals widened to [tk, tn] arrays. These rewrites, each exact, make them the nests the recognisers read as blocks
// (loop_array_shapes.cc and loop_merge.cc add the partial sums and the per-thread runs of splitk_gemv;
// normalize_thread_arrays runs before fission, settle_thread_arrays after):
// - a loop whose body runs only at one iteration, `for tk: for tn: if tk == 0: S` (the `if tk == 0: C_shared[tn] =
//   0` of every thread), is that iteration: `for tn: S[tk := 0]`;
// - a loop around one store that neither its indices nor its value name, storing a value that does not read the
//   stored buffer, stores the same element the same value each iteration: it runs once;
// - a dim of an on-chip local array that every store fills whole with a value independent of it (`A_local[tk, tn] =
//   A[bk * 8 + tk]`: every thread tn loads the same element) holds equal elements along it: the dim goes, from the
//   array and from every access (`A_local[tk]`, a 1-D block copy; the emptied loop then runs once, above);
// - a 2-D local array that a DRAM copy fills in the other dim order (`B_local[tk, tn] = B[bn * 4 + tn, bk * 8 + tk]`)
//   is transposed, it and the 2-D arrays stores combine with it at the same indices (the per-thread sums C_accum):
//   `B_local[tn, tk]`, a block copy, and `C_accum[tn, tk] += A_local[tk] * B_local[tn, tk]` a row broadcast;
// - a nest around one store at its loop variables in another order, every iteration on its own element, runs its
//   loops in the order of the dims they step (the element-wise recognition reads a block in loop order).
// Arrays that a tile operation other than T.fill / T.clear touches keep their shape.
#include "loop_blocks.h"

namespace tl::loops {
namespace {

Any substitute(const Any& node, const Any& from, const Any& to) {
  return map(node, {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any { return v.same_as(from) ? to : v.any(); })});
}

Any rebuild(const ir::For& f, const Any& body) {
  return for_loop(f.loop_var(), f.min(), f.extent(), static_cast<int>(f.kind()), body, f.annotations());
}

// `for v: <loops>: if v == c: S` -> `<loops>: S[v := c]` (c a constant in the loop's range).
Any pin_guarded(const Any& stmt) {
  ir::For loop(stmt);
  std::vector<ir::For> inner;
  Any body = loop.body();
  while (auto f = ir::For::from(body)) {
    inner.push_back(*f);
    body = f->body();
  }
  auto branch = ir::IfThenElse::from(body);
  if (!branch || !is_none(branch->else_case())) return stmt;
  auto eq = ir::EQ::from(branch->condition());
  auto extent = ir::IntImm::from(loop.extent());
  if (!eq || !extent || !tileops::is_zero(loop.min())) return stmt;
  Any c = eq->a().same_as(loop.loop_var()) ? eq->b().any() : eq->b().same_as(loop.loop_var()) ? eq->a().any() : Any();
  auto value = ir::IntImm::from(c);
  if (!value || value->value() < 0 || value->value() >= extent->value()) return stmt;
  for (const ir::For& f : inner) {
    if (names(f.extent(), loop.loop_var()) || names(f.min(), loop.loop_var())) return stmt;
  }
  Any out = substitute(branch->then_case(), loop.loop_var(), c);
  for (size_t l = inner.size(); l-- > 0;) out = rebuild(inner[l], out);
  return out;
}

// `for v: <loops>: X[...] = value` with v named nowhere in the store, value not reading X -> `<loops>: X[...] = ...`.
Any drop_idle(const Any& stmt) {
  ir::For loop(stmt);
  auto extent = ir::IntImm::from(loop.extent());
  std::vector<ir::For> inner;
  Any body = loop.body();
  while (auto f = ir::For::from(body)) {
    inner.push_back(*f);
    body = f->body();
  }
  auto store = ir::BufferStore::from(body);
  if (!store || !extent || extent->value() < 1 || names(body, loop.loop_var()) ||
      reads(store->value(), store->buffer())) {
    return stmt;
  }
  for (const ir::For& f : inner) {
    if (names(f.extent(), loop.loop_var()) || names(f.min(), loop.loop_var())) return stmt;
  }
  return loop.body();
}

// A nest around one store at its loop variables in another order, reading the stored buffer only at that element
// (every iteration its own element): the loops in the order of the dims they step.
Any order_loops(const Any& stmt) {
  std::vector<ir::For> loops;
  Any body = stmt;
  while (auto f = ir::For::from(body)) {
    loops.push_back(*f);
    body = f->body();
  }
  auto store = ir::BufferStore::from(body);
  if (!store || loops.size() < 2) return stmt;
  List idx = store->indices();
  if (idx.size() != loops.size()) return stmt;
  std::vector<ir::For> ordered;
  for (const Any& index : idx) {
    auto loop = std::find_if(loops.begin(), loops.end(), [&](const ir::For& f) { return f.loop_var().same_as(index); });
    if (loop == loops.end()) return stmt;
    ordered.push_back(*loop);
  }
  bool own = true, moved = false;
  walk(store->value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         own = own && (!l.source().same_as(store->buffer()) || same(l.indices(), idx));
       })});
  for (size_t l = 0; l < loops.size(); ++l) {
    moved |= !ordered[l].same_as(loops[l]);
    for (const ir::For& f : loops) {
      own = own && !names(f.extent(), loops[l].loop_var()) && !names(f.min(), loops[l].loop_var());
    }
  }
  if (!own || !moved) return stmt;
  Any out = body;
  for (size_t l = ordered.size(); l-- > 0;) out = rebuild(ordered[l], out);
  return out;
}

}  // namespace

Any normalize_thread_arrays(const Any& body) {
  Any out = map(body, {{ir::For::kTypeKey, pin_guarded}}, "post");
  return map(reshape_thread_arrays(out), {{ir::For::kTypeKey, drop_idle}}, "post");
}

Any settle_thread_arrays(const Any& body) {
  Any out = transpose_thread_arrays(merge_runs(body));
  out = map(out, {{ir::For::kTypeKey, drop_idle}}, "post");
  return map(out, {{ir::For::kTypeKey, order_loops}}, "pre");
}

}  // namespace tl::loops
