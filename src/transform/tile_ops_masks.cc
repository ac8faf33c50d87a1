// Index masks as tile ops (index_masks.h): the table tile of each block tile copied on chip (op mask), a buffer
// selected against +-inf or 0 combined with it, and the reads of the tables.
#include <algorithm>

#include "engine_common.h"
#include "index_masks.h"
#include "tile_ops_tree.h"

namespace tl::tileops {

// An index mask (index_masks.h) the analyzer did not fold: the compute kernel copies, per tile (R, C) of the block,
// the tile clamp((r - first) / step + R * p * TILE[0] / step + C * q * TILE[1] / step, 0, pages - 1) of its table (a
// block read once per kernel block, add_mask_tables) into the mask's block (op `mask`); a buffer selected against
// +-inf or 0 is then added to or multiplied by that block (an element-wise op).
std::vector<TileOp> mask_ops(const std::vector<ir::For>& loops, const BufferInfo& out, const masks::IndexMask& mask,
                             size_t first) {
  auto [tile_rows, tile_cols] = tile_shape();
  Any annotation = get(loops[0].annotations(), keys::kTtIndexMask);
  auto [table_info, table] = masks::table_for(mask, annotation);
  auto [rows, cols] = tiles(out, "on-chip buffer");
  BufferInfo block = out;
  if (mask.operand) {
    block.var = Any();
    block.name = out.name + "_mask" + std::to_string(first);
    block.scope = "shared";
  }
  BufferInfo tiles_of{Any(), table_info.name + "_tiles", table_info.shape, table_info.dtype, "shared"};
  TileOp copy{tile_op::kMask, loops[0], block, {tiles_of}};
  copy.tensor = table_info;
  copy.fields = {{names::kOrigin, fn::floordiv(fn::sub(mask.form.r, Any(table.first)), Any(table.step))},
                 {names::kRowStep, Any(mask.form.p * (tile_rows / mask.form.div) / table.step)},
                 {names::kColStep, Any(mask.form.q * (tile_cols / mask.form.div) / table.step)},
                 {names::kPages, Any(table.pages)},
                 {names::kRows, Any(rows)},
                 {names::kCols, Any(cols)},
                 {names::kTiles, Any(rows * cols)}};
  if (!mask.operand) return {copy};
  std::vector<Any> lvars;
  for (const ir::For& loop : loops) lvars.push_back(loop.loop_var());
  if (!ir::TensorLoad::matches(*mask.operand)) {
    // A value computed from blocks, element indices and block indices (retention's decay): the ops of its tree make
    // it in the store's dtype, then it is masked as a buffer value.
    BufferInfo value = out;
    value.var = Any();
    value.name = out.name + "_value" + std::to_string(first);
    value.scope = "local.fragment";
    tree::Tree tree(loops, value, first + 1);
    std::optional<std::vector<TileOp>> ops = tree.split(*mask.operand);
    if (!ops) {
      Any bad = tree.bad() ? tree.bad()->first : *mask.operand;
      std::string why = tree.bad() && !tree.bad()->second.empty() ? tree.bad()->second : refusal(bad, out, lvars);
      fail("element-wise store '" + mask.text + "': operand " + format_value(bad) + " " + why);
    }
    TileOp combine{tile_op::kEltwise, loops[0], out, {value, block}};
    combine.fields = eltwise_fields(out, {mask.combine, "none", "none", "none", "none"}, 0);
    ops->push_back(copy);
    ops->push_back(combine);
    return *ops;
  }
  auto load = ir::TensorLoad(*mask.operand);
  BufferInfo x = buffer_info(load.source());
  bool at_indices = x.on_chip() && x.shape == out.shape && load.indices().size() == loops.size();
  for (size_t i = 0; at_indices && i < loops.size(); ++i) at_indices = load.indices()[i].same_as(loops[i].loop_var());
  if (!at_indices) {
    fail("element-wise store '" + mask.text + "': operand " + format_value(*mask.operand) + " " +
         refusal(*mask.operand, out, lvars));
  }
  if (x.dtype == out.dtype) {
    TileOp combine{tile_op::kEltwise, loops[0], out, {x, block}};
    combine.fields = eltwise_fields(out, {mask.combine, "none", "none", "none", "none"}, 0);
    return {copy, combine};
  }
  // A select stored in another dtype (linear attention's `s_shared = T.Cast(fp16, T.if_then_else(row >= col, s, 0))`
  // of fp32 scores): masked in the value's dtype, then converted by an element-wise copy into the store.
  BufferInfo masked = x;
  masked.var = Any();
  masked.name = out.name + "_masked" + std::to_string(first);
  masked.scope = "local.fragment";
  copy.out->dtype = x.dtype;
  TileOp combine{tile_op::kEltwise, loops[0], masked, {x, *copy.out}};
  combine.fields = eltwise_fields(masked, {mask.combine, "none", "none", "none", "none"}, 0);
  TileOp convert{tile_op::kEltwise, loops[0], out, {masked}};
  convert.fields = eltwise_fields(out, {"none", "none", "none", "none", "none"}, 0);
  return {copy, combine, convert};
}


// Each index mask's table: read once per kernel block, before the outermost loop around its first mask (it then stays
// in its CB for every iteration, as the reduce scaler tile does). A mask inside an if/else (block-causal attention's
// `if needs_mask != 0:` around its mask, in the key loop) reads its table in its branch, just before it: every
// kernel takes the branch alike, so the branch not taken leaves no table behind (tile_ops_branches.cc). Cost: one
// table read per masked step instead of per block.
void add_mask_tables(std::vector<TileOp>& ops) {
  std::vector<std::string> done;
  for (size_t m = 0; m < ops.size(); ++m) {
    if (ops[m].kind != tile_op::kMask) continue;
    const BufferInfo table = ops[m].ins[0];
    bool in_branch = !ops[m].branches.empty();
    if (!in_branch && std::find(done.begin(), done.end(), table.name) != done.end()) continue;
    if (!in_branch) done.push_back(table.name);
    auto [rows, cols] = tiles(table, "index-mask table");
    TileOp read{tile_op::kCopyIn, ops[m].stmt, table};
    if (in_branch) {  // one of the ops replacing the mask's statement, before the mask op
      read.loops = ops[m].loops;
      read.branches = ops[m].branches;
    } else if (!ops[m].loops.empty()) {
      read.stmt = ops[m].loops.front();
      read.place = "before";
    }
    read.tensor = *ops[m].tensor;
    read.fields = {{names::kTensor, ops[m].tensor->var}, {names::kRow, Any(int64_t(0))},
                   {names::kCol, Any(int64_t(0))}, {names::kRows, Any(rows)}, {names::kCols, Any(cols)},
                   {names::kRowTiles, Any(cols)}};
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(m), read);
    ++m;
  }
}

}  // namespace tl::tileops
