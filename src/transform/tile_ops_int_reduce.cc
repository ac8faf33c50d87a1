// Row maxima of int32 blocks (tile_ops_util.h): T.reduce_max of an int32 [M, N] on-chip block into an int32 [M]
// buffer. The FPU's reduce_tile cannot take Int32 (SrcA and SrcB hold no 32-bit integers: tt-isa-documentation
// WormholeB0 Unpackers/FormatConversion.md), so the reduction is the SFPU's signed row maximum of the tiles of a
// tile row copied into DST (protocol reduce_block with sfpu_int32: sfpu_reduce<MAX, Int32, REDUCE_ROW>, intrinsic
// sfpu_reduce_max_int32_rows of specs/intrinsics/int32_sfpu.yaml), which leaves each row's maximum in column 0 of
// the row's first tile: the column vector every 1-D on-chip value is. One DST section holds the tile row, so a block
// is at most a section wide (4 tiles of 32-bit DST: 128 columns). Refused by name: other integer dtypes, sums,
// clear=False (the previous value would need binary_max_int32_tile), wider blocks, and an API profile whose
// sfpu_reduce has no row form (ttnn 0.65).
#include <algorithm>

#include "builder.h"
#include "engine_common.h"
#include "intrinsics.h"
#include "tile_ops_util.h"

namespace tl::tileops {

namespace {

constexpr const char kRowMax[] = "sfpu_reduce_max_int32_rows";  // the intrinsic record (int32_sfpu.yaml)

int64_t dst_tiles_32bit() {
  return as_int(item(attr(device(), "DST_TILES"), Any(int64_t(32))));
}

}  // namespace

void integer_reductions(std::vector<TileOp>& ops) {
  for (TileOp& op : ops) {
    if (op.kind != tile_op::kReduce || !is_integer_dtype(op.ins[0].dtype)) continue;
    const BufferInfo& src = op.ins[0];
    std::string what = "T.reduce_" + as_str(op.get(names::kPool)) + "(" + src.name + ", " + op.out->name + ")";
    if (src.dtype != "int32" || op.out->dtype != "int32") {
      fail(what + " reduces a " + src.dtype + " block into " + op.out->dtype + "; the tenstorrent backend reduces "
           "integer blocks as int32 into int32 (the SFPU's row maximum of Int32 tiles)");
    }
    if (as_str(op.get(names::kPool)) != "max") {
      fail(what + " sums an int32 block; the tenstorrent backend takes row maxima of int32 blocks (sfpu_reduce "
           "MAX of Int32), not sums");
    }
    if (!truthy(to_plain(op.get(names::kClear)))) {
      fail(what + " accumulates onto the previous value of '" + op.out->name + "' (clear=False); the tenstorrent "
           "backend takes int32 row maxima with clear=True");
    }
    int64_t cols = as_int(op.get(names::kCols));
    if (cols > dst_tiles_32bit()) {
      fail(what + " reduces rows " + std::to_string(cols) + " tiles wide; the SFPU's int32 row maximum reduces the "
           "tiles of a row held in one DST section, at most " + std::to_string(dst_tiles_32bit()) + " tiles (" +
           std::to_string(dst_tiles_32bit() * tile_shape().second) + " columns) in 32-bit DST");
    }
    const Intrinsic* row_max = find_intrinsic(kRowMax);
    bool offered = row_max != nullptr && std::find(row_max->profiles.begin(), row_max->profiles.end(), profile()) !=
                                             row_max->profiles.end();
    if (!offered) {
      fail(what + " needs the SFPU's int32 row maximum (" + kRowMax + "), which API profile " + profile() +
           " does not offer (its sfpu_reduce reduces columns only)");
    }
    for (auto& [key, value] : op.fields) {
      if (key == names::kSfpuInt32) value = Any(int64_t(1));
    }
  }
}

}  // namespace tl::tileops
