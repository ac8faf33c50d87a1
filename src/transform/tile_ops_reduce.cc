// Reductions (T.reduce_sum / T.reduce_max of a 2-D on-chip buffer into a 1-D one, held as a column vector: the
// values in column 0 of M/32 tiles, what reduce_tile with REDUCE_ROW packs), and the scaler tile every reduction
// of a block reads (tile_ops_util.h). A column reduction (dim=0) transposes the block on chip (transpose_tile
// of every tile, in transposed tile order) and reduces the rows of that: its result is then a column vector like
// every other 1-D on-chip value, and accumulation onto a previous value (clear=False) is the row reduction's own.
// (REDUCE_COL would leave a row vector, which would need the transpose afterwards and a row-vector previous value.)
#include <algorithm>

#include "engine_common.h"
#include "tile_ops_util.h"
#include "records.h"

namespace tl::tileops {

namespace {

std::string reduce_name(const std::string& kind, bool absolute) {
  return "T.reduce_" + std::string(absolute ? "abs" : "") + kind;
}

}  // namespace

namespace {

// A value times -1 (SFPU binop_with_scalar: exact, also for infinities), as a new on-chip value named `name`.
TileOp negated(const ir::TilePrimitiveCall& stmt, const BufferInfo& x, const BufferInfo& out) {
  TileOp negate{tile_op::kEltwise, stmt, out, {x}};
  negate.fields = eltwise_fields(out, {"none", "none", "none", "mul", "none"}, fp32_bits(-1.0));
  return negate;
}

BufferInfo made_from(const BufferInfo& like, const std::string& name) {
  BufferInfo made = like;
  made.var = Any();
  made.name = name;
  made.scope = "local.fragment";
  return made;
}

// T.reduce_min: the FPU reduce pools by sum or max only (tt-llk's llk_math_reduce.h static_asserts that PoolType::MIN
// has no FPU reduce: GMPOOL is a maximum), so min(x) = -max(-x), every step exact. The negated block's padding must
// hold -inf (the maximum's identity), so the tensor's padding holds +inf (the `min` padding identity of
// BuildTTTileDataflow offers it). Onto a previous value (clear=False): -max(-x, -prev).
std::vector<TileOp> reduce_min(const ir::TilePrimitiveCall& stmt, const BufferInfo& src, const BufferInfo& dst,
                               int64_t rows, int64_t cols, bool clear, std::vector<TileOp> ops) {
  BufferInfo neg = made_from(src, src.name + "_neg");
  ops.push_back(negated(stmt, src, neg));
  BufferInfo max_of = made_from(dst, dst.name + "_negmax");
  TileOp op{tile_op::kReduce, stmt, max_of, {neg}};
  op.fields = {{names::kPool, Any(String("max"))}, {names::kRows, Any(rows)}, {names::kCols, Any(cols)},
               {names::kClear, Any(clear)}, {names::kSfpuInt32, Any(int64_t(0))}};
  if (!clear) {
    BufferInfo prev = made_from(dst, dst.name + "_negprev");
    ops.push_back(negated(stmt, dst, prev));
    op.ins.push_back(prev);
  }
  ops.push_back(op);
  ops.push_back(negated(stmt, max_of, dst));
  return ops;
}

}  // namespace

std::vector<TileOp> classify_reduce(const ir::TilePrimitiveCall& stmt) {
  List args = stmt.args();
  std::string prim = stmt.op().name();
  std::string kind = prim.substr(prim.rfind('.') + 1);
  auto config = stmt.config();
  bool absolute = config.count(String("abs")) && truthy(to_plain(config.at(String("abs"))));
  Region dst = region_of(args[0]), src = region_of(args[1]);
  std::string what = reduce_name(kind, absolute) + "(" + src.info.name + ", " + dst.info.name + ")";
  if ((kind != "sum" && kind != "max" && kind != "min") || absolute) {
    fail(what + " is not supported by the tenstorrent backend; T.reduce_sum, T.reduce_max and T.reduce_min are "
         "(reduce_tile pools by sum or max; a minimum is the negated maximum of the negated block)");
  }
  if (!src.info.on_chip() || !dst.info.on_chip()) {
    fail(what + " reduces a DRAM tensor; copy it to an on-chip buffer first (T.reduce_sum/max reduce on-chip buffers)");
  }
  require_full(src, what);
  require_full(dst, what);
  List axes = as_list(args[2]);
  int64_t axis = axes.size() == 1 ? as_int(axes[0]) : -1000;
  if (axis < 0) axis += static_cast<int64_t>(src.info.shape.size());
  bool fits = src.info.shape.size() == 2 && dst.info.shape.size() == 1 && (axis == 0 || axis == 1) &&
              dst.info.shape[0] == src.info.shape[1 - axis];
  if (!fits) {
    fail(what + " reduces a " + ints_str(src.info.shape) + " buffer over dim " + format_value(args[2]) + " into " +
         ints_str(dst.info.shape) + "; the tenstorrent backend reduces a 2-D on-chip buffer [M, N] over its rows "
         "(dim=1 or -1) into a 1-D buffer [M], or over its columns (dim=0) into a 1-D buffer [N]");
  }
  tiles(src.info, "reduced buffer");
  tiles(dst.info, "reduction result");
  std::vector<TileOp> ops;
  BufferInfo rows_of = src.info;
  if (axis == 0) {
    rows_of.name = src.info.name + "_cols";  // not `_T`: a transposed gemm operand of the same buffer has that name
    rows_of.shape = {src.info.shape[1], src.info.shape[0]};
    auto [r, c] = tiles(src.info, "reduced buffer");
    TileOp transpose{tile_op::kTranspose, stmt, rows_of, {src.info}};
    transpose.fields = {{names::kRows, Any(r)}, {names::kCols, Any(c)}};
    ops.push_back(transpose);
  }
  auto [rows, cols] = tiles(rows_of, "reduced buffer");
  bool clear = !truthy(to_plain(args[3]));
  if (kind == "min" && is_integer_dtype(src.info.dtype)) {
    fail(what + " takes the minimum of a " + src.info.dtype + " block; the tenstorrent backend takes it of float "
         "blocks (the negated maximum of the negated block, negated on the SFPU in fp32)");
  }
  if (kind == "min") return reduce_min(stmt, rows_of, dst.info, rows, cols, clear, std::move(ops));
  TileOp op{tile_op::kReduce, stmt, dst.info, {rows_of}};
  op.fields = {{names::kPool, Any(String(kind))}, {names::kRows, Any(rows)}, {names::kCols, Any(cols)},
               {names::kClear, Any(clear)}, {names::kSfpuInt32, Any(int64_t(0))}};  // integer_reductions sets it
  if (!clear) op.ins.push_back(dst.info);  // accumulates onto dst's previous value
  ops.push_back(op);
  return ops;
}

// T.cumsum(src, dst, dim, reverse) of a 2-D on-chip block, tl.tile.cumsum(dst, src, dim, reverse): along dim 0
// (down the rows, every column) it is cumsum_block, tt-metal's SFPU cumsum_tile over every column of tiles top to
// bottom with the running row carried from one tile to the next (fp32 adds in row order, numpy's order). Along dim
// 1 the block is transposed on chip, summed down its rows and transposed back (as ttnn's cumsum scans a width).
// cumsum_tile adds as float: an integer block has no cumsum on the SFPU and is refused.
//
// reverse=True: cumsum_tile scans a tile top to bottom only, and no tile operation reverses the rows of a tile (a
// product with an anti-identity would pass fp32 through the FPU's 19-bit SrcA). So the reverse sum is computed as
// T - (x[0] + ... + x[i]) + x[i], T the column's total: `x_neg` = x * -1 (SFPU binop_with_scalar, exact), then
// cumsum_block's reverse form scans x without packing (the carried row ends as T) and continues over x_neg
// (T - inclusive sum, fp32 adds in row order), then an element-wise add of x. Exact in integer arithmetic; in
// floats each result differs from numpy's bottom-up sum by rounding of the order of eps32 * |T| (not bit-identical
// as the forward scan is: the tests compare within 1e-5 relative to the column's magnitude).
namespace {

std::vector<TileOp> reverse_scan(const ir::TilePrimitiveCall& stmt, const BufferInfo& x, const BufferInfo& out,
                                 int64_t rows, int64_t cols) {
  BufferInfo neg = x;
  neg.var = Any();
  neg.name = x.name + "_neg";
  TileOp negate{tile_op::kEltwise, stmt, neg, {x}};
  negate.fields = eltwise_fields(neg, {"none", "none", "none", "mul", "none"}, fp32_bits(-1.0));
  BufferInfo scan = neg;
  scan.name = x.name + "_rscan";
  TileOp sum{tile_op::kCumsum, stmt, scan, {x, neg}};
  sum.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}, {names::kReverse, Any(int64_t(1))}};
  TileOp add{tile_op::kEltwise, stmt, out, {scan, x}};
  // fp32 on the SFPU (add_binary_tile keeps every bit, the FPU's SrcA 19); 16-bit data is exact in SrcA, and the
  // SFPU would narrow the sum to bf16 by truncation where the FPU's packer rounds
  bool fp32 = x.dtype == "float32";
  add.fields = eltwise_fields(out, {fp32 ? "none" : "add", fp32 ? "add" : "none", "none", "none", "none"}, 0);
  return {negate, sum, add};
}

}  // namespace

std::vector<TileOp> classify_cumsum(const ir::TilePrimitiveCall& stmt) {
  List args = stmt.args();
  Region dst = region_of(args[0]), src = region_of(args[1]);
  int64_t axis = as_int(args[2]);
  bool reverse = as_int(args[3]) != 0;
  std::string what = "T.cumsum(" + src.info.name + (dst.info.name == src.info.name ? "" : ", " + dst.info.name) +
                     ", dim=" + std::to_string(axis) + (reverse ? ", reverse=True" : "") + ")";
  if (!src.info.on_chip() || !dst.info.on_chip()) {
    fail(what + " reads or writes a DRAM tensor; the tenstorrent backend sums an on-chip buffer (T.copy the block "
         "into an on-chip buffer first)");
  }
  require_full(src, what);
  require_full(dst, what);
  if (src.info.shape.size() != 2 || dst.info.shape != src.info.shape) {
    fail(what + " sums a " + ints_str(src.info.shape) + " buffer into " + ints_str(dst.info.shape) +
         "; the tenstorrent backend sums a 2-D on-chip buffer into one of its shape");
  }
  if (axis < 0) axis += 2;
  if (axis != 0 && axis != 1) fail(what + ": dim must be 0 or 1 (-2 or -1) for a 2-D buffer");
  std::string dtype = src.info.dtype;
  if (dtype != "float32" && dtype != "bfloat16" && dtype != "float16") {
    fail(what + " sums a " + dtype + " buffer; Metalium's cumsum_tile adds in fp32 on the SFPU (float32, bfloat16 "
         "and float16 blocks), it has no integer cumulative sum");
  }
  if (dst.info.dtype != dtype) {
    fail(what + " sums a " + dtype + " buffer into a " + dst.info.dtype + " one; the tenstorrent backend needs one "
         "dtype (T.copy converts)");
  }
  auto [rows, cols] = tiles(src.info, "summed buffer");
  tiles(dst.info, "cumulative sum");
  if (axis == 0) {
    if (reverse) return reverse_scan(stmt, src.info, dst.info, rows, cols);
    TileOp op{tile_op::kCumsum, stmt, dst.info, {src.info}};
    op.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}, {names::kReverse, Any(int64_t(0))}};
    return {op};
  }
  BufferInfo cols_of = src.info;  // the transposed block: its rows are the columns of the source
  cols_of.var = Any();
  cols_of.name = src.info.name + "_scan";
  cols_of.shape = {src.info.shape[1], src.info.shape[0]};
  TileOp there{tile_op::kTranspose, stmt, cols_of, {src.info}};
  there.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  BufferInfo summed = cols_of;
  std::vector<TileOp> ops{there};
  if (reverse) {
    summed.name = src.info.name + "_rsum";
    for (TileOp& op : reverse_scan(stmt, cols_of, summed, cols, rows)) ops.push_back(op);
  } else {
    TileOp sum{tile_op::kCumsum, stmt, cols_of, {cols_of}};
    sum.fields = {{names::kRows, Any(cols)}, {names::kCols, Any(rows)}, {names::kReverse, Any(int64_t(0))}};
    ops.push_back(sum);
  }
  TileOp back{tile_op::kTranspose, stmt, dst.info, {summed}};
  back.fields = {{names::kRows, Any(cols)}, {names::kCols, Any(rows)}};
  ops.push_back(back);
  return ops;
}

// The scaler tile: one read of the constant tensor (tt.constants) per block, before the block's first reduction
// (before the outermost loop around it: the tile then stays in its CB for all iterations); every reduction reads it
// as its second input.
void add_reduce_scaler(std::vector<TileOp>& ops, const Any& func) {
  auto first = std::find_if(ops.begin(), ops.end(), [](const TileOp& op) { return op.kind == tile_op::kReduce; });
  if (first == ops.end()) return;
  std::optional<BufferInfo> tensor;
  Dict constants = attr_dict(func, keys::kTtConstants);
  for (const BufferInfo& info : tensor_params(func)) {
    // the constant tensor that is not an index-mask table (AddTTConstants' index_masks) and holds a value in some
    // rows (not T.im2col's tile of zeros)
    namespace tc = records::tensor_constant;
    if (constants.count(String(info.name)) && get(as_dict(constants[String(info.name)]), tc::kMask) == nullptr &&
        !as_list(get(as_dict(constants[String(info.name)]), tc::kRows)).empty()) {
      tensor = info;
    }
  }
  if (!tensor) internal_error("a reduction but no constant scaler tensor (run AddTTConstants first)");
  BufferInfo tile{Any(), tensor->name + "_tile", tensor->shape, tensor->dtype, "shared"};
  auto [rows, cols] = tiles(tile, "scaler tile");
  TileOp read{tile_op::kCopyIn, first->stmt, tile};
  if (!first->loops.empty()) {
    read.stmt = first->loops.front();
    read.place = "before";
  }
  read.tensor = *tensor;
  read.fields = {{names::kTensor, tensor->var}, {names::kRow, Any(int64_t(0))}, {names::kCol, Any(int64_t(0))},
                 {names::kRows, Any(rows)}, {names::kCols, Any(cols)}, {names::kRowTiles, Any(cols)}};
  for (TileOp& op : ops) {
    if (op.kind == tile_op::kReduce) op.ins.insert(op.ins.begin() + 1, tile);
  }
  ops.insert(first, read);
}

}  // namespace tl::tileops
