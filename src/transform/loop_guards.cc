// Guards inside element-wise loops (LowerTTLoopsToTileOps, loop_tile_ops.cc): TileLang's
// `if 16 < row < 96: B[row, col] = A[row, col] * 2.0 else: B[row, col] = A[row, col] * 0.5` (testing/python/language/
// test_tilelang_language_if_range.py) stores one element either way; with a condition on the loop's variables it is
// the store `B[row, col] = T.if_then_else(16 < row < 96, A[...] * 2.0, A[...] * 0.5)`, an index mask that
// AddTTConstants folds where the block is on one side of the guard and masks by tiles elsewhere (index_masks.h).
#include "loop_blocks.h"

namespace tl::loops {

namespace {

// Whether every enclosing loop variable the condition names also indexes the store: only then is an else-less guard
// one element-wise select over the stored block.
bool indexes_every_condition_var(const Any& condition, const Any& indices, const std::vector<Any>& vars) {
  bool all = true;
  walk(condition, {ir::visit<ir::Var>([&](const ir::Var& v) {
         bool is_loop = false, indexed = false;
         for (const Any& x : vars) is_loop = is_loop || v.same_as(x);
         if (!is_loop) return;
         walk(indices, {ir::visit<ir::Var>([&](const ir::Var& w) { indexed = indexed || w.same_as(v.any()); })});
         all = all && indexed;
       })});
  return all;
}

// The loop body `if c: X[idx] = a else: X[idx] = b` as `X[idx] = T.if_then_else(c, a, b)` when c names one of the
// enclosing loops' variables; nullopt otherwise. Without an else (upstream gdn chunk_o's `if i_s1 < i_s2:
// A_fragment[i_s1, i_s2] = 0`) the element keeps its value: b is X[idx] itself.
std::optional<Any> as_select(const Any& body, const std::vector<Any>& vars) {
  auto guard = ir::IfThenElse::from(body);
  if (!guard) return std::nullopt;
  auto then_store = ir::BufferStore::from(guard->then_case().any());
  if (!then_store) return std::nullopt;
  std::optional<ir::BufferStore> else_store;
  if (is_none(guard->else_case()) && !buffer_info(then_store->buffer()).on_chip()) return std::nullopt;
  if (!is_none(guard->else_case())) {
    else_store = ir::BufferStore::from(guard->else_case());
    if (!else_store || !then_store->buffer().same_as(else_store->buffer().any()) ||
        !same(Any(then_store->indices()), Any(else_store->indices()))) {
      return std::nullopt;
    }
  }
  bool names_loop = false;
  walk(guard->condition().any(), {ir::visit<ir::Var>([&](const ir::Var& v) {
         for (const Any& x : vars) names_loop = names_loop || v.same_as(x);
       })});
  if (!names_loop) return std::nullopt;
  if (!else_store && !indexes_every_condition_var(guard->condition().any(), then_store->indices(), vars)) {
    return std::nullopt;  // `if tk == 0: sums[tn] = 0` (split-K gemv) sets one element per tn, not an element-wise mask
  }
  std::string dtype = buffer_info(then_store->buffer()).dtype;
  Any else_value = else_store ? else_store->value().any()
                              : call("tirx.BufferLoad", then_store->buffer().any(), then_store->indices(), Any(nullptr));
  Any value = call_intrin(dtype, "prim.if_then_else",
                          List{guard->condition().any(), then_store->value().any(), else_value});
  return call("tirx.BufferStore", then_store->buffer().any(), value, then_store->indices(), Any(nullptr));
}

Any rewrite(const Any& stmt, std::vector<Any>& vars) {
  if (auto loop = ir::For::from(stmt)) {
    vars.push_back(loop->loop_var().any());
    Any body = rewrite(loop->body(), vars);
    if (auto select = as_select(body, vars)) body = *select;
    vars.pop_back();
    if (body.same_as(loop->body())) return stmt;
    return for_loop(loop->loop_var().any(), loop->min().any(), loop->extent().any(), static_cast<int>(loop->kind()),
                    body, loop->annotations());
  }
  if (auto block = ir::SeqStmt::from(stmt)) {
    List out;
    bool changed = false;
    for (const Any& s : block->seq()) {
      out.push_back(rewrite(s, vars));
      changed = changed || !out.back().same_as(s);
    }
    return changed ? seq_stmt(out) : stmt;
  }
  return stmt;
}

}  // namespace

Any guards_to_selects(const Any& body) {
  std::vector<Any> vars;
  return map(body, {ir::rewrite<ir::For>([&](const ir::For& loop) -> Any {
               return rewrite(loop.any(), vars);
             })}, "pre");
}

}  // namespace tl::loops
