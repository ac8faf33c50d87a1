// Padding masks (index_masks.h padding_masks): a row maximum over a gemm's product whose columns are not whole tiles
// (block-causal attention at block 48: acc_s [48, 48] on 2 x 2 tiles) reads the product's padded columns, which
// hold Q times the padding rows of K's block: finite data, never the -inf the maximum needs, whatever the host pads
// K with. So the compute kernel masks them: before the T.reduce_max the index_masks engine puts the element-wise
// store `S[i, j] = T.if_then_else(j < N, S[i, j], -inf)`, the identity on every logical element (j < N in the loop,
// which the analyzer would fold, so the engine keeps it) and -inf in the padded columns of its table: the mask's
// table tile is added to each tile of the block (an index mask selecting a buffer against -inf, tile_ops_masks.cc),
// and the padding engine resolves the mask over the padded columns to -inf (tile_padding_values.cc).
#include <cmath>
#include <limits>

#include "engine_common.h"
#include "index_masks.h"
#include "tile_ops_util.h"

namespace tl::masks {

namespace {

// The on-chip buffers some T.gemm accumulates into (its C operand).
std::set<std::string> gemm_products(const Any& body) {
  std::set<std::string> found;
  walk(body, {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
         if (call.op().name() == "tirx.tile.gemm") found.insert(tileops::region_of(call.args()[0]).info.name);
       })});
  return found;
}

}  // namespace

std::pair<Any, std::vector<Any>> padding_masks(const Any& body, int64_t tile_cols) {
  std::set<std::string> products = gemm_products(body);
  std::vector<Any> nests;
  Any out = map(body, {ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& reduce) -> Any {
                  if (reduce.op().name() != "tirx.tile.max") return reduce.any();
                  List args = reduce.args();
                  tileops::Region src = tileops::region_of(args[1]);
                  List axes = as_list(args[2]);
                  int64_t axis = axes.size() == 1 ? as_int(axes[0]) : -1;
                  const std::vector<int64_t>& shape = src.info.shape;
                  bool rows = shape.size() == 2 && (axis == 1 || axis == -1);
                  if (!rows || !src.info.on_chip() || shape[1] % tile_cols == 0 || !products.count(src.info.name)) {
                    return reduce.any();
                  }
                  Any buffer = ir::TensorRegion(args[1]).source();
                  Any i = var("i", "int32"), j = var("j", "int32");
                  const char* dtype = src.info.dtype.c_str();
                  Any load = call("tirx.BufferLoad", buffer, List{i, j}, Any(nullptr));
                  Any cond = call("prim._OpLT", j, int_imm(shape[1]), Any(nullptr));
                  Any neg = make_const(Any(-std::numeric_limits<double>::infinity()), dtype);
                  Any value = call_intrin(src.info.dtype, "prim.if_then_else", List{cond, load, neg});
                  Any store = call("tirx.BufferStore", buffer, value, List{i, j}, Any(nullptr));
                  Any inner = for_loop(j, int_imm(0), int_imm(shape[1]), 1, store);
                  Any nest = for_loop(i, int_imm(0), int_imm(shape[0]), 1, inner);
                  nests.push_back(nest);
                  return seq({nest, reduce.any()});
                })});
  return {out, nests};
}

}  // namespace tl::masks
