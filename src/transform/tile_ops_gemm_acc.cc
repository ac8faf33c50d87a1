// How a gemm accumulates (tile_ops_util.h): one whole product onto a value (an element-wise add), or K steps that
// share DST with other compute ops of their loop (a partial-sum CB).
#include <algorithm>

#include "tile_ops_util.h"

namespace tl::tileops {
namespace {

void set_field(TileOp& op, const char* name, Any value) {
  for (auto& [key, v] : op.fields) {
    if (key == name) v = std::move(value);
  }
}

}  // namespace

// A gemm inside a loop is a K step of that loop only when its accumulator was last written outside the loop (a
// T.clear before the K loop). Written in the same loop body, the gemm is one whole product per iteration: after a
// zero fill (T.clear in the body, attention's scores) it starts from zero in DST; after any other value made in the
// body (attention's output rescaled by a column vector) the product goes to a value of its own that an element-wise
// add then accumulates onto the buffer (a matmul accumulates onto DST, not onto a CB's block); so it does after a
// value made in both arms of an if/else (made_in_arms: a mask in one, T.clear in the other), in or outside a loop.
// A gemm outside loops is one whole product too: onto any value but a zero fill (an element-wise rescale, or the
// result of an earlier K loop: gdn's and kda's chunk output `O = Q h` then `O += A V`) it accumulates by that add.
void gemm_accumulation(std::vector<TileOp>& ops) {
  for (size_t g = 0; g < ops.size(); ++g) {
    if (ops[g].kind != tile_op::kGemm || truthy(ops[g].get(names::kClear))) continue;
    const BufferInfo acc = *ops[g].out;
    std::optional<size_t> last;
    for (size_t w = 0; w < g; ++w) last = ops[w].out && ops[w].out->name == acc.name ? std::optional<size_t>(w) : last;
    bool same_level = last && ops[*last].loops.size() == ops[g].loops.size() &&
                      (ops[g].loops.empty() || ops[*last].loops.back().same_as(ops[g].loops.back()));
    size_t level = ops[g].branches.size();
    bool arms = same_level && ops[*last].branches.size() > level && made_in_arms(ops, *last, level);
    bool zero_last = last && ops[*last].kind == tile_op::kFill && fill_constant(ops[*last]) == std::optional<double>(0.0);
    bool onto_value = ops[g].loops.empty() && last && !arms && !zero_last;
    if (!onto_value && (!same_level || (ops[g].loops.empty() && !arms))) continue;
    set_field(ops[g], names::kK, Any(int64_t(0)));  // (a gemm outside loops has these already)
    set_field(ops[g], names::kKCount, Any(int64_t(1)));
    if (!arms && zero_last) continue;
    product_onto(ops, g);
  }
}

void product_onto(std::vector<TileOp>& ops, size_t g) {
  const BufferInfo acc = *ops[g].out;
  set_field(ops[g], names::kK, Any(int64_t(0)));
  set_field(ops[g], names::kKCount, Any(int64_t(1)));
  BufferInfo product = acc;
  product.var = Any();
  product.name = acc.name + "_product";
  ops[g].out = product;
  set_field(ops[g], names::kClear, Any(true));
  TileOp add{tile_op::kEltwise, ops[g].stmt, acc, {acc, product}};
  add.loops = ops[g].loops;
  add.branches = ops[g].branches;
  add.fields = eltwise_fields(acc, {"add", "none", "none", "none", "none"}, 0);
  ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(g + 1), add);
}

// A gemm's K steps hold DST from the first to the last; any other op of the compute kernel in its K loop (an
// element-wise op making an operand, another gemm) acquires DST too, so the gemm accumulates through a partial-sum CB
// (BuildTTTileDataflow's `partial`). Copies and fills make no DST use of their own here (a reader's block, an alias,
// a zero fill a gemm absorbs).
void mark_dst_sharing(std::vector<TileOp>& ops) {
  for (TileOp& gemm : ops) {
    if (gemm.kind != tile_op::kGemm || gemm.loops.empty() || truthy(gemm.get(names::kClear))) continue;
    const Any& k_loop = gemm.loops.back();
    bool shares = std::any_of(ops.begin(), ops.end(), [&](const TileOp& op) {
      if (&op == &gemm || op.kind == tile_op::kCopyIn || op.kind == tile_op::kCopyOut || op.kind == tile_op::kCopyLocal ||
          op.kind == tile_op::kFill || op.kind == tile_op::kRowsIn || op.kind == tile_op::kRowsOut) {
        return false;
      }
      return std::any_of(op.loops.begin(), op.loops.end(), [&](const Any& loop) { return loop.same_as(k_loop); });
    });
    set_field(gemm, names::kSharesDst, Any(shares));
  }
}

}  // namespace tl::tileops
