// T.copy recognition (tile_ops.h): a block between a tensor and an on-chip buffer (the reader's copy_in, the
// writer's copy_out), on chip, DRAM to DRAM, and 1-D vectors (transposed on chip between row and column tiles).
#include <algorithm>

#include "tile_ops_util.h"

namespace tl {
namespace {

using namespace tileops;  // NOLINT: the recognisers' shared helpers

// Where a block of a tensor starts in the tensor's tiled matrix: its leading dimensions fold into the rows
// (InferTTLayout), so row = (((i0 * d1) + i1) * ...) * rows_of_one_matrix + the block's first row.
struct TileRegion {
  Any row, col;
};

// A block must lie inside the tensor: at a constant offset it must end inside it; at a moving offset (block
// indices, loops) the blocks tile the dimension, so its extent must divide it (the last block of a ceildiv grid
// would otherwise run past the tensor, and on hardware read or write other tiles).
void require_inside(const Region& tensor, const BufferInfo& onchip, size_t d) {
  int64_t dim = tensor.info.shape[d], extent = tensor.extents[d];
  auto start = ir::IntImm::from(tensor.mins[d]);
  std::string block = "T.copy of a " + ints_str(onchip.shape) + " block " + (onchip.name.empty() ? "" : "('" +
                      onchip.name + "') ") + "of tensor '" + tensor.info.name + "' (shape " +
                      ints_str(tensor.info.shape) + "): dim " + std::to_string(d);
  if (start && start->value() + extent > dim) {
    fail(block + " runs from " + std::to_string(start->value()) + " to " + std::to_string(start->value() + extent) +
         ", past the tensor's " + std::to_string(dim));
  }
  if (!start && dim % extent != 0) {
    int64_t tile = d + 1 == tensor.info.shape.size() ? tile_shape().second : tile_shape().first;
    int64_t fits = 0;
    for (int64_t b = tile; b <= std::min(extent, dim); b += tile) {
      if (dim % b == 0) fits = b;
    }
    fail(block + " has " + std::to_string(dim) + " elements, not a multiple of the block's " + std::to_string(extent) +
         ", so the last block would run past the tensor (on hardware it would read or write other tiles); use a "
         "block that divides it" + (fits ? " (e.g. " + std::to_string(fits) + ")" : "") + " or pad the tensor");
  }
}

TileRegion tile_region(const Region& tensor, const BufferInfo& onchip) {
  const std::vector<int64_t>& shape = tensor.info.shape;
  size_t n = shape.size();
  if (n == 1) {
    fail("T.copy between 1-D tensor '" + tensor.info.name + "' and " + std::to_string(onchip.shape.size()) +
         "-D on-chip buffer '" + onchip.name + "': a 1-D tensor is copied to or from a 1-D on-chip buffer only");
  }
  std::vector<int64_t> spanned;  // dims the block spans (extent > 1)
  for (size_t d = 0; d < n; ++d) {
    if (tensor.extents[d] != 1) spanned.push_back(static_cast<int64_t>(d));
  }
  bool leading_spanned = !spanned.empty() && spanned.front() < static_cast<int64_t>(n) - 2;
  if (leading_spanned) {
    fail("T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(shape) + ") and '" + onchip.name +
         "' spans dims " + ints_str(spanned) + "; tiles are of the tensor's last two dims (" +
         std::to_string(n - 2) + ", " + std::to_string(n - 1) + "), so a block may only span those (a layout "
         "sliced across other dims, e.g. (batch, seq, heads, dim) per head, needs a row-major read and an on-chip "
         "tilize, which the tenstorrent backend does not support yet)");
  }
  std::vector<int64_t> moved;  // the region without its unit dimensions
  for (int64_t d : spanned) moved.push_back(tensor.extents[d]);
  if (moved != onchip.shape) {
    fail("T.copy between '" + tensor.info.name + "' and '" + onchip.name + "' has region extents " +
         ints_str(tensor.extents) + ", not the on-chip shape " + ints_str(onchip.shape));
  }
  for (int64_t d : spanned) require_inside(tensor, onchip, static_cast<size_t>(d));
  Any lead(int64_t(0));
  for (size_t d = 0; d + 2 < n; ++d) lead = fn::add(fn::mul(lead, Any(shape[d])), tensor.mins[d]);
  Any row = n > 2 ? fn::add(fn::mul(lead, Any(shape[n - 2])), tensor.mins[n - 2]) : tensor.mins[n - 2];
  return {row, tensor.mins[n - 1]};
}

}  // namespace

// A block moved between a tensor and an on-chip buffer: the reader's copy_in or the writer's copy_out.
TileOp tileops::tensor_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& onchip, bool in) {
  auto [rows, cols] = tiles(onchip, "on-chip buffer");
  TileRegion at = tile_region(tensor, onchip);
  TileOp op{in ? "copy_in" : "copy_out", stmt};
  if (in) op.out = onchip;
  if (!in) op.ins = {onchip};
  op.tensor = tensor.info;
  op.fields = {{names::kTensor, tensor.info.var},
               {names::kRow, at.row},
               {names::kCol, at.col},
               {names::kRows, Any(rows)},
               {names::kCols, Any(cols)},
               {names::kRowTiles, Any(tensor.info.shape.back() / tile_shape().second)}};
  return op;
}

namespace {

// A DRAM-to-DRAM copy goes through a CB of its own: the reader reads the block into it and the writer writes
// it out (raw pages, so both tensors must have one dtype).
std::vector<TileOp> dram_copy(const ir::TilePrimitiveCall& stmt, const Region& src, const Region& dst) {
  if (src.info.dtype != dst.info.dtype) {
    fail("T.copy from tensor '" + src.info.name + "' (" + src.info.dtype + ") to tensor '" + dst.info.name + "' (" +
         dst.info.dtype + ") converts dtype; a DRAM-to-DRAM copy moves raw tile pages, so copy through an on-chip "
         "buffer and an element-wise store to convert");
  }
  BufferInfo staging{Any(), src.info.name + "_to_" + dst.info.name, {}, src.info.dtype, "shared"};
  for (int64_t e : src.extents) {
    if (e != 1) staging.shape.push_back(e);
  }
  return {tensor_copy(stmt, src, staging, true), tensor_copy(stmt, dst, staging, false)};
}

// A 1-D on-chip buffer is a column vector and a 1-D tensor a row vector (row 0 of one tile row, InferTTLayout), so
// a vector moves transposed on chip (a column tile transposed is a row tile): the reader reads row tiles, which
// are transposed into the column vector; a column vector is transposed into row tiles the writer writes.
std::vector<TileOp> vector_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& vec, bool in) {
  if (tensor.info.shape.size() != 1 || tensor.extents[0] != vec.shape[0]) {
    fail("T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(tensor.info.shape) + ") and 1-D "
         "on-chip buffer '" + vec.name + "' is not supported; the tenstorrent backend moves a 1-D on-chip buffer "
         "(a column vector, e.g. a row reduction) from or to a block of a 1-D tensor of the same length");
  }
  require_inside(tensor, vec, 0);
  auto [rows, cols] = tiles(vec, "on-chip vector");
  BufferInfo row = vec;
  row.name = vec.name + (in ? "_row" : "_T");
  row.shape = {tile_shape().first, vec.shape[0]};
  if (in) {
    row.var = Any();
    row.scope = "shared";
    TileOp read{"copy_in", stmt, row};
    read.tensor = tensor.info;
    read.fields = {{names::kTensor, tensor.info.var}, {names::kRow, Any(int64_t(0))}, {names::kCol, tensor.mins[0]},
                   {names::kRows, Any(int64_t(1))}, {names::kCols, Any(rows)},
                   {names::kRowTiles, Any(tensor.info.shape[0] / tile_shape().second)}};
    TileOp transpose{"transpose", stmt, vec, {row}};
    transpose.fields = {{names::kRows, Any(int64_t(1))}, {names::kCols, Any(rows)}};
    return {read, transpose};
  }
  TileOp transpose{"transpose", stmt, row, {vec}};
  transpose.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  TileOp out{"copy_out", stmt};
  out.ins = {row};
  out.tensor = tensor.info;
  out.fields = {{names::kTensor, tensor.info.var}, {names::kRow, Any(int64_t(0))}, {names::kCol, tensor.mins[0]},
                {names::kRows, Any(int64_t(1))}, {names::kCols, Any(rows)},
                {names::kRowTiles, Any(tensor.info.shape[0] / tile_shape().second)}};
  return {transpose, out};
}

}  // namespace

std::vector<TileOp> tileops::classify_copy(const ir::TilePrimitiveCall& stmt) {
  Region dst = region_of(stmt.args()[0]);
  Region src = region_of(stmt.args()[1]);
  bool dst_chip = dst.info.on_chip(), src_chip = src.info.on_chip();
  if (!dst_chip && !src_chip) return dram_copy(stmt, src, dst);
  if (dst_chip && src_chip) {
    require_full(dst, "T.copy");
    require_full(src, "T.copy");
    return {TileOp{"copy_local", stmt, dst.info, {src.info}}};
  }
  const Region& onchip = dst_chip ? dst : src;
  require_full(onchip, "T.copy");
  if (onchip.info.shape.size() == 1) return vector_copy(stmt, dst_chip ? src : dst, onchip.info, dst_chip);
  return {tensor_copy(stmt, dst_chip ? src : dst, onchip.info, dst_chip)};
}

}  // namespace tl
