// T.transpose(src, dst) of a 2-D on-chip block (tile-ai/tilelang's shared-memory transpose, tl.tile.transpose(dst,
// src)): the block transposed on chip, tile by tile in transposed tile order (transpose_block, as a column reduction
// and a cumsum along dim 1 transpose theirs).
#include "engine_common.h"
#include "tile_ops_util.h"

namespace tl::tileops {

std::vector<TileOp> classify_transpose(const ir::TilePrimitiveCall& stmt) {
  List args = stmt.args();
  Region dst = region_of(args[0]), src = region_of(args[1]);
  std::string what = "T.transpose(" + src.info.name + ", " + dst.info.name + ")";
  if (!src.info.on_chip() || !dst.info.on_chip()) {
    fail(what + " reads or writes a DRAM tensor; the tenstorrent backend transposes an on-chip buffer (T.copy the "
         "block into an on-chip buffer first)");
  }
  require_full(src, what);
  require_full(dst, what);
  const std::vector<int64_t>& s = src.info.shape;
  if (s.size() != 2 || dst.info.shape != std::vector<int64_t>{s.size() == 2 ? s[1] : 0, s[0]}) {
    fail(what + " transposes a " + ints_str(s) + " buffer into " + ints_str(dst.info.shape) +
         "; the tenstorrent backend transposes a 2-D on-chip buffer (M, N) into one of shape (N, M)");
  }
  if (dst.info.dtype != src.info.dtype) {
    fail(what + " transposes a " + src.info.dtype + " buffer into a " + dst.info.dtype + " one; the tenstorrent "
         "backend needs one dtype (T.copy converts)");
  }
  auto [rows, cols] = tiles(src.info, "transposed buffer");
  tiles(dst.info, "transpose");
  TileOp op{"transpose", stmt, dst.info, {src.info}};
  op.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  return {op};
}

}  // namespace tl::tileops
