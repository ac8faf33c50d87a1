// Loop-invariant transposes hoisted out of their loops (tile_ops_util.h): a 1-D on-chip buffer made before a loop
// and read at the column index inside it (layernorm backward's `G_smem[j]` in its rows loop) is transposed into row
// tiles by the store that reads it (tile_ops_tree.h's onchip_row). A transpose waits for and frees its operand, so
// in the loop it would free the vector after the first iteration; made once before the loop instead, its row tiles
// are a loop-invariant value the element-wise stores read in every iteration (tile_loops.cc waits for it once and
// frees it after the loop). Only a transpose that is its operand's one reader moves: any other reader keeps the
// transpose where it is (copy_shared_transposes then gives it a copy).
#include <algorithm>

#include "tile_ops_util.h"

namespace tl::tileops {
namespace {

bool is_prefix(const std::vector<Any>& outer, const std::vector<Any>& inner) {
  if (outer.size() >= inner.size()) return false;
  for (size_t i = 0; i < outer.size(); ++i) {
    if (!outer[i].same_as(inner[i])) return false;
  }
  return true;
}

}  // namespace

void hoist_invariant_transposes(std::vector<TileOp>& ops) {
  for (size_t t = 0; t < ops.size(); ++t) {
    if (ops[t].kind != tile_op::kTranspose || ops[t].ins.size() != 1 || ops[t].loops.empty() ||
        !ops[t].branches.empty() || !ops[t].place.empty()) {
      continue;
    }
    const std::string vec = ops[t].ins[0].name;
    std::vector<size_t> writers;
    bool other_reader = false;
    for (size_t o = 0; o < ops.size(); ++o) {
      if (ops[o].out && ops[o].out->name == vec) writers.push_back(o);
      for (const BufferInfo& in : ops[o].ins) other_reader = other_reader || (o != t && in.name == vec);
    }
    if (other_reader || writers.size() != 1 || writers[0] > t) continue;
    const TileOp& made = ops[writers[0]];
    if (!made.branches.empty() || !made.place.empty() || !is_prefix(made.loops, ops[t].loops)) continue;
    // Before the outermost loop the transpose is in and its operand is not, as the first op inside that loop.
    Any loop = ops[t].loops[made.loops.size()];
    size_t first = writers[0] + 1;
    while (first < t && !std::any_of(ops[first].loops.begin(), ops[first].loops.end(),
                                     [&](const Any& l) { return l.same_as(loop); })) {
      ++first;
    }
    TileOp hoisted = ops[t];
    hoisted.loops = made.loops;
    hoisted.stmt = loop;
    hoisted.place = "before";
    ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(t));
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(first), hoisted);
  }
}

}  // namespace tl::tileops
