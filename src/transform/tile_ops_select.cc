// Selections between two blocks and element indices as values (tile_ops_util.h), for upstream top-k's
// `expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])`, and T.fill of
// int32 blocks (its `T.fill(expand_max_idx, -1)`).
#include <cmath>
#include <cstdint>

#include "engine_common.h"
#include "index_masks.h"
#include "tile_ops_util.h"

namespace tl::tileops {

TileOp index_op(const BufferInfo& out, int axis, const Any& stmt, const std::string& name) {
  auto [rows, cols] = tiles(out, "on-chip buffer");
  auto [table, pages] = masks::index_table_for(axis, axis == 0 ? rows : cols, out.dtype);
  BufferInfo block = out;
  block.var = Any();
  block.name = name;
  block.scope = "shared";
  BufferInfo tiles{Any(), table.name + "_tiles", table.shape, table.dtype, "shared"};
  TileOp copy{tile_op::kMask, stmt, block, {tiles}};
  copy.tensor = table;  // tile (R, C) of the block is the table's tile R (an i) or C (a j): mask_block's page
  copy.fields = {{names::kOrigin, Any(int64_t(0))}, {names::kRowStep, Any(int64_t(axis == 0 ? 1 : 0))},
                 {names::kColStep, Any(int64_t(axis == 1 ? 1 : 0))}, {names::kPages, Any(pages)},
                 {names::kRows, Any(rows)}, {names::kCols, Any(cols)}, {names::kTiles, Any(rows * cols)}};
  return copy;
}

TileOp select_op(const BufferInfo& out, const Any& stmt, const std::string& name, std::vector<BufferInfo> ins) {
  BufferInfo made = out;
  made.var = Any();
  made.name = name;
  made.scope = "local.fragment";
  auto [rows, cols] = tiles(out, "on-chip buffer");
  TileOp op{tile_op::kSelect, stmt, made, std::move(ins)};
  op.fields = {{names::kTiles, Any(rows * cols)}, {names::kInt32, Any(int64_t(out.dtype == "int32"))}};
  return op;
}

std::optional<double> fill_constant(const TileOp& op) {
  Any v = op.get(names::kValue);
  if (is_float(v) || ir::FloatImm::matches(v) || ir::IntImm::matches(v) || is_int(v)) return as_float(v);
  return std::nullopt;
}

void integer_fills(std::vector<TileOp>& ops) {
  for (TileOp& op : ops) {
    if (op.kind != tile_op::kFill) continue;
    bool int32 = op.out->dtype == "int32";
    std::optional<double> constant = fill_constant(op);
    if (!constant && int32) fail("a fill of int32 '" + op.out->name + "' with a value computed at run time");
    double value = constant.value_or(0.0);
    if (int32 && (value != std::floor(value) || value < INT32_MIN || value > INT32_MAX)) {
      fail("T.fill of int32 '" + op.out->name + "' with " + format_value(Any(value)) + ", which is not an int32");
    }
    uint32_t bits = int32 ? static_cast<uint32_t>(static_cast<int32_t>(value)) : 0u;
    op.fields.emplace_back(names::kInt32, Any(int64_t(int32)));
    op.fields.emplace_back(names::kBits, Any(int64_t(bits)));
  }
}

}  // namespace tl::tileops
