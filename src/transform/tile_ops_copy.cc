// T.copy recognition (tile_ops.h): a block between a tensor and an on-chip buffer (the reader's copy_in, the
// writer's copy_out; of a row-major tensor, tile_ops_rows.cc), on chip, DRAM to DRAM, and 1-D vectors (transposed
// on chip between row and column tiles).
#include <algorithm>

#include "tile_ops_util.h"

namespace tl {
namespace {

using namespace tileops;  // NOLINT: the recognisers' shared helpers

// Where a block of a tensor starts in the tensor's tiled matrix: its leading dimensions fold into the rows
// (InferTTLayout), so row = (((i0 * d1) + i1) * ...) * padded_rows_of_one_matrix + the block's first row (in the
// padded layout: a block that is not whole tiles starts a run of tiles of its own).
struct TileRegion {
  Any row, col;
};

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
  // Consecutive rows of the folded matrix: the dims after the first spanned one (up to the rows) are whole, so
  // the block is rows [row, row + the product of the row extents) (a convolution's output pixels over (H, W)).
  bool folded_rows = leading_spanned && onchip.shape.size() == 2;
  int64_t folded = 1;
  for (size_t d = 0; folded_rows && d + 1 < n; ++d) {
    folded *= tensor.extents[d];
    if (static_cast<int64_t>(d) > spanned.front() && tensor.extents[d] != shape[d]) folded_rows = false;
  }
  folded_rows = folded_rows && folded == onchip.shape[0] && tensor.extents[n - 1] == onchip.shape[1];
  if (leading_spanned && !folded_rows) {
    fail("T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(shape) + ") and '" + onchip.name +
         "' spans dims " + ints_str(spanned) + "; tiles are of the tensor's last two dims (" +
         std::to_string(n - 2) + ", " + std::to_string(n - 1) + "), so a block of a tiled tensor may only span those; "
         "a tensor is laid out row-major instead (one page per row of its last dim, tilized on chip) when a block "
         "holds its dim " + std::to_string(n - 2) + " at one index and spans whole rows of its last dim (e.g. "
         "(batch, seq, heads, dim) sliced per head), which this block does not either");
  }
  std::vector<int64_t> moved, onchip_moved;  // the region and the on-chip shape without their unit dimensions
  for (int64_t d : spanned) moved.push_back(tensor.extents[d]);
  for (int64_t e : onchip.shape) {
    if (e != 1) onchip_moved.push_back(e);
  }
  if (folded_rows) moved = onchip_moved;
  bool whole_2d = !folded_rows && onchip.shape.size() == 2;
  if (moved != onchip_moved || (whole_2d && (tensor.extents[n - 2] != onchip.shape[0] ||
                                             tensor.extents[n - 1] != onchip.shape[1]))) {
    fail("T.copy between '" + tensor.info.name + "' and '" + onchip.name + "' has region extents " +
         ints_str(tensor.extents) + ", not the on-chip shape " + ints_str(onchip.shape));
  }
  for (int64_t d : spanned) require_inside(tensor, onchip, static_cast<size_t>(d));
  std::vector<int64_t> padded = padded_layout(tensor.info).padded;  // the rows and cols DRAM holds
  if (folded_rows && padded[n - 2] != shape[n - 2]) {
    fail("T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(shape) + ") and '" + onchip.name +
         "' folds rows across dim " + std::to_string(n - 3) + ", but dim " + std::to_string(n - 2) + " (" +
         std::to_string(shape[n - 2]) + " rows) is padded to " + std::to_string(padded[n - 2]) +
         " in DRAM, so those rows are not consecutive; use a block of whole dim-" + std::to_string(n - 2) +
         " rows at one index of the dims before it");
  }
  Any lead(int64_t(0));
  for (size_t d = 0; d + 2 < n; ++d) lead = fn::add(fn::mul(lead, Any(shape[d])), tensor.mins[d]);
  Any first = padded_offset(tensor, n - 2);
  Any row = n > 2 ? fn::add(fn::mul(lead, Any(padded[n - 2])), first) : first;
  return {row, padded_offset(tensor, n - 1)};
}

}  // namespace

// A block moved between a tensor and an on-chip buffer: the reader's copy_in or the writer's copy_out.
TileOp tileops::tensor_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& onchip, bool in) {
  auto [rows, cols] = tiles(onchip, "on-chip buffer");
  TileRegion at = tile_region(tensor, onchip);
  TileOp op{in ? tile_op::kCopyIn : tile_op::kCopyOut, stmt};
  if (in) op.out = onchip;
  if (!in) op.ins = {onchip};
  op.tensor = tensor.info;
  size_t n = tensor.info.shape.size();  // the block's rows and cols: the tensor's last two dims
  auto [th, tw] = tile_shape();
  auto edge = [&](size_t d) {  // a moving block that does not divide its dim: the last one hangs over the end
    return !ir::IntImm::from(tensor.mins[d]) && tensor.info.shape[d] % tensor.extents[d] != 0;
  };
  op.pad_rows = onchip.shape.size() != 2 || onchip.shape[0] % th != 0 || edge(n - 2);
  op.pad_cols = onchip.shape.back() % tw != 0 || edge(n - 1);
  auto start = [&](size_t d, size_t axis) {  // the tensor's end in block coordinates, or the block's sub-tile end
    if (onchip.shape.size() != 2 || tensor.extents[d] != onchip.shape[axis]) return Any();
    if (edge(d)) return onchip.shape[axis] % (axis == 0 ? th : tw) == 0 ? fn::sub(Any(tensor.info.shape[d]),
                                                                                  tensor.mins[d]) : Any();
    return Any(onchip.shape[axis]);
  };
  if (n >= 2) op.pad_row_start = start(n - 2, 0);
  op.pad_col_start = start(n - 1, onchip.shape.size() - 1);
  op.fields = {{names::kTensor, tensor.info.var},
               {names::kRow, at.row},
               {names::kCol, at.col},
               {names::kRows, Any(rows)},
               {names::kCols, Any(cols)},
               {names::kRowTiles, Any(padded_layout(tensor.info).padded.back() / tile_shape().second)}};
  return op;
}

namespace {

// A DRAM-to-DRAM copy goes through a CB of its own: the reader reads the block into it and the writer writes
// it out (raw pages). One that converts dtype (mha_bwd's postprocess: float32 dQ into float16 dQ_out) reads into a
// CB of the source's dtype and the compute kernel copies it into a CB of the target's dtype (the unpacker reads one
// data format, the packer writes the other).
std::vector<TileOp> dram_copy(const ir::TilePrimitiveCall& stmt, const Region& src, const Region& dst) {
  refuse_row_major_dram_copy(src, dst);
  BufferInfo staging{Any(), src.info.name + "_to_" + dst.info.name, {}, src.info.dtype, "shared"};
  for (int64_t e : src.extents) {
    if (e != 1) staging.shape.push_back(e);
  }
  if (src.info.dtype == dst.info.dtype) {
    return {tensor_copy(stmt, src, staging, true), tensor_copy(stmt, dst, staging, false)};
  }
  BufferInfo converted = staging;
  converted.dtype = dst.info.dtype;
  converted.name = staging.name + "_" + dst.info.dtype;
  TileOp convert{tile_op::kEltwise, stmt, converted, {staging}};  // packed, not an alias: nothing else reads it
  convert.fields = eltwise_fields(converted, {"none", "none", "none", "none", "none"}, 0);
  return {tensor_copy(stmt, src, staging, true), convert, tensor_copy(stmt, dst, converted, false)};
}

// The padded matrix row of a one-row slice of an N-D tensor: the leading dims fold into the rows as in tile_region,
// and dim n-2 must put every index on a tile row of its own (blocks of one row, or a dim of one), so the slice is
// row 0 of its tile row, as a 1-D tensor is.
Any vector_row(const Region& tensor, const BufferInfo& vec) {
  size_t n = tensor.info.shape.size();
  PaddedLayout layout = padded_layout(tensor.info);
  if (layout.blocks[n - 2] != 1 && layout.shape[n - 2] != 1) {
    fail("T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(tensor.info.shape) + ") and 1-D "
         "on-chip buffer '" + vec.name + "' moves one row of dim " + std::to_string(n - 2) + ", but other copies "
         "move that dim in blocks of several rows; a row slice is laid out on a tile row of its own, so every copy "
         "of this tensor must move one row of dim " + std::to_string(n - 2));
  }
  Any lead(int64_t(0));
  for (size_t d = 0; d + 2 < n; ++d) lead = fn::add(fn::mul(lead, Any(tensor.info.shape[d])), tensor.mins[d]);
  return fn::add(fn::mul(lead, Any(layout.padded[n - 2])), padded_offset(tensor, n - 2));
}

// A 1-D on-chip buffer is a column vector and a 1-D tensor a row vector (row 0 of one tile row, InferTTLayout), so
// a vector moves transposed on chip (a column tile transposed is a row tile): the reader reads row tiles, which
// are transposed into the column vector; a column vector is transposed into row tiles the writer writes. A slice of
// one row of an N-D tensor (`lse[bz, by, rows]`) is such a row too: a block of one row in dim n-2 lays each row on
// a tile row of its own (tile_padding.cc), so the vector is row 0 of the tile row at `row` (vector_row).
std::vector<TileOp> vector_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& vec, bool in) {
  size_t n = tensor.info.shape.size();
  bool one_row = tensor.extents[n - 1] == vec.shape[0];
  for (size_t d = 0; d + 1 < n; ++d) one_row = one_row && tensor.extents[d] == 1;
  bool column = n == 2 && tensor.extents[0] == vec.shape[0] && tensor.extents[1] == 1;
  if (!one_row && column) {
    fail("T.copy between 1-D on-chip buffer '" + vec.name + "' and one column of tensor '" + tensor.info.name +
         "' (shape " + ints_str(tensor.info.shape) + ") is not supported yet: a column vector holds its values in column "
         "0 of its tiles, and moving them into another column takes 4-byte moves, which the NoC's 16-byte aligned "
         "transfers cannot make (nor the FPU's broadcast exactly, through 19-bit SrcA/SrcB); keep such a vector "
         "in a row of a (" +
         std::to_string(tensor.info.shape[1]) + ", " + std::to_string(tensor.info.shape[0]) + ") tensor instead "
         "(T.copy(" + vec.name + ", out[col, rows]))");
  }
  if (!one_row) {
    fail("T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(tensor.info.shape) + ", region " +
         ints_str(tensor.extents) + ") and 1-D on-chip buffer '" + vec.name + "' is not supported; the tenstorrent "
         "backend moves a 1-D on-chip buffer (a column vector, e.g. a row reduction) from or to a block of a 1-D "
         "tensor of the same length, or a slice of one row of an N-D tensor's last dim (lse[b, h, rows])");
  }
  require_inside(tensor, vec, n - 1);
  Any row_at = n == 1 ? Any(int64_t(0)) : vector_row(tensor, vec);
  auto [rows, cols] = tiles(vec, "on-chip vector");
  Any col = padded_offset(tensor, n - 1);
  int64_t row_tiles = padded_layout(tensor.info).padded.back() / tile_shape().second;
  BufferInfo row = vec;
  row.name = vec.name + (in ? "_row" : "_T");
  row.shape = {tile_shape().first, vec.shape[0]};
  if (in) {
    row.var = Any();
    row.scope = "shared";
    TileOp read{tile_op::kCopyIn, stmt, row};
    read.tensor = tensor.info;
    read.pad_rows = true;  // rows 1-31 of a 1-D tensor's tiles
    read.pad_cols = vec.shape[0] % tile_shape().second != 0 ||
                    (!ir::IntImm::from(tensor.mins[n - 1]) && tensor.info.shape[n - 1] % tensor.extents[n - 1] != 0);
    read.fields = {{names::kTensor, tensor.info.var}, {names::kRow, row_at}, {names::kCol, col},
                   {names::kRows, Any(int64_t(1))}, {names::kCols, Any(rows)}, {names::kRowTiles, Any(row_tiles)}};
    TileOp transpose{tile_op::kTranspose, stmt, vec, {row}};
    transpose.fields = {{names::kRows, Any(int64_t(1))}, {names::kCols, Any(rows)}};
    return {read, transpose};
  }
  TileOp transpose{tile_op::kTranspose, stmt, row, {vec}};
  transpose.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  TileOp out{tile_op::kCopyOut, stmt};
  out.ins = {row};
  out.tensor = tensor.info;
  out.fields = {{names::kTensor, tensor.info.var}, {names::kRow, row_at}, {names::kCol, col},
                {names::kRows, Any(int64_t(1))}, {names::kCols, Any(rows)}, {names::kRowTiles, Any(row_tiles)}};
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
    return {TileOp{tile_op::kCopyLocal, stmt, dst.info, {src.info}}};
  }
  const Region& onchip = dst_chip ? dst : src;
  require_full(onchip, "T.copy");
  Region tensor = dst_chip ? src : dst;
  bool vector = onchip.info.shape.size() == 1;
  if (padded_layout(tensor.info).transposed) {  // DRAM holds the last two dims transposed: the column is a row there
    size_t n = tensor.info.shape.size();
    std::swap(tensor.info.shape[n - 2], tensor.info.shape[n - 1]);
    std::swap(tensor.mins[n - 2], tensor.mins[n - 1]);
    std::swap(tensor.extents[n - 2], tensor.extents[n - 1]);
  }
  auto move = [&](const BufferInfo& chip) -> std::vector<TileOp> {
    if (vector) return vector_copy(stmt, tensor, chip, dst_chip);
    if (row_major(tensor.info)) return rows_copy(stmt, tensor, chip, dst_chip);
    return {tensor_copy(stmt, tensor, chip, dst_chip)};
  };
  if (!dst_chip || tensor.info.dtype == onchip.info.dtype || row_major(tensor.info)) return move(onchip.info);
  // A load that converts dtype (GDN's T.copy(G_f16[...], G_shared_f32)): the reader moves raw tile pages, so they
  // land in a staging CB of the tensor's dtype, and the compute kernel converts them into the on-chip buffer with
  // an on-chip copy (the unpacker reads one data format, the packer writes the other), as T.copy(acc_s, acc_s_cast)
  // does. A row-major tensor's rows go to the CB as they are (its conversion is refused by name: op_streams).
  move(onchip.info);  // its refusals (a region that does not fit) name the user's buffer, not the staging CB
  BufferInfo staging = onchip.info;
  staging.var = Any();
  staging.scope = "shared";
  staging.dtype = tensor.info.dtype;
  staging.name = onchip.info.name + "_" + tensor.info.dtype;
  std::vector<TileOp> ops = move(staging);
  ops.push_back(TileOp{tile_op::kCopyLocal, stmt, onchip.info, {staging}});
  return ops;
}

}  // namespace tl
