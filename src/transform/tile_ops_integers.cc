// Integer and boolean blocks among the tile operations (tile_ops.h): int32 <-> float conversions become
// typecast_tile ops, integer arithmetic is refused naming the op.
#include "engine_common.h"
#include "tile_ops_util.h"

namespace tl::tileops {
namespace {

// The tt::DataFormat value of a dtype (the backend spec's data_formats code).
int64_t format_code(const std::string& dtype) {
  return as_int(item(item(attr(device(), "DATA_FORMATS"), Any(String(dtype))), Any(int64_t(2))));
}

bool pure_copy(const TileOp& op) {
  for (const char* unit : {names::kBinary, names::kSfpuBinary, names::kSfpu, names::kScalarOp, names::kBcast,
                           names::kClamp}) {
    if (as_str(op.get(unit)) != "none") return false;
  }
  return op.ins.size() == 1 || (op.ins.size() == 2 && op.ins[1].name == op.ins[0].name);
}

}  // namespace

// A T.Cast store between an integer and a float block (nothing else in the store) is typecast_tile: int32 to and
// from float32 or bfloat16, the conversions of Metalium's typecast whose results the emulator reproduces exactly.
void integer_casts(std::vector<TileOp>& ops) {
  for (TileOp& op : ops) {
    if (op.kind != tile_op::kEltwise || !pure_copy(op)) continue;
    const std::string& from = op.ins[0].dtype;
    const std::string& to = op.out->dtype;
    if (is_integer_dtype(from) == is_integer_dtype(to)) continue;
    const std::string& integer = is_integer_dtype(from) ? from : to;
    const std::string& floating = is_integer_dtype(from) ? to : from;
    // int32 -> bfloat16 is refused: typecast_tile rounds it on its own path (int32_to_fp16b), which the emulator
    // does not reproduce bit for bit (int32 -> float32 -> bf16 would round twice).
    bool supported = integer == "int32" && (floating == "float32" || (floating == "bfloat16" && to == "int32"));
    if (!supported) {
      fail("element-wise store to '" + op.out->name + "' converts " + from + " '" + op.ins[0].name + "' to " + to +
           "; the tenstorrent backend converts int32 to and from float32, and bfloat16 to int32 (typecast_tile)");
    }
    int64_t tiles = as_int(op.get(names::kTiles));
    op.ins.resize(1);
    op.kind = tile_op::kTypecast;
    op.fields = {{names::kTiles, Any(tiles)}, {names::kCastFrom, Any(format_code(from))},
                 {names::kCastTo, Any(format_code(to))}};
  }
}

// Integer blocks move (reads, writes, on-chip copies and transposes) exactly and convert to and from floats
// (typecast); arithmetic and fills of them would run float math (FPU, SFPU, packer conversions) on integer bits, so
// they are refused naming the op.
void refuse_integer_math(const std::vector<TileOp>& ops) {
  for (const TileOp& op : ops) {
    bool sfpu_reduce = op.kind == tile_op::kReduce && as_int(op.get(names::kSfpuInt32)) == 1;  // integer_reductions
    const std::string& k = op.kind;
    bool math = k == tile_op::kEltwise || k == tile_op::kGemm || (k == tile_op::kReduce && !sfpu_reduce) ||
                (k == tile_op::kFill && as_int(op.get(names::kInt32)) == 0) ||  // integer_fills: int32 fills
                (k == tile_op::kCopyLocal && is_integer_dtype(op.out->dtype) != is_integer_dtype(op.ins[0].dtype));
    if (!math) continue;
    std::vector<BufferInfo> operands = op.ins;
    // a third input is the flag tile of its condition (tile_ops_flag.cc)
    if (op.kind == tile_op::kGemm) operands.resize(2);
    if (op.out) operands.push_back(*op.out);
    for (const BufferInfo& b : operands) {
      if (!is_integer_dtype(b.dtype)) continue;
      std::string what = op.kind == tile_op::kEltwise  ? "element-wise store to '" + op.out->name + "'"
                         : op.kind == tile_op::kFill   ? "T.fill of '" + op.out->name + "'"
                         : op.kind == tile_op::kGemm   ? "T.gemm into '" + op.out->name + "'"
                         : op.kind == tile_op::kReduce ? "reduction into '" + op.out->name + "'"
                                               : "T.copy from '" + op.ins[0].name + "' to '" + op.out->name + "'";
      fail(what + " computes on the " + b.dtype + " buffer '" + b.name + "'; the tenstorrent backend moves integer "
           "and boolean blocks (T.copy between DRAM and on-chip buffers of one dtype) and converts int32 to and from "
           "floats (a T.Cast store), but has no integer arithmetic, fill or comparison yet (Metalium's integer SFPU "
           "operations are not in its op map)");
    }
  }
}

}  // namespace tl::tileops
