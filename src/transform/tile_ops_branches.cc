// Tile operations inside an if/else whose condition every kernel computes from index scalars, block indices and loop
// variables (stream-K's `if start_iter % iters_per_tile == 0 and ...`): the reader, compute and writer evaluate it
// alike and take the same branch, so each branch must balance its CBs on its own. Here: every on-chip value a branch
// reads is made in that branch (then the dataflow of each branch is a straight line of its own, and the values of the
// branch not taken are never pushed nor waited for); a value crossing the branch boundary is refused naming it.
#include <algorithm>

#include "engine_common.h"
#include "tile_ops_util.h"

namespace tl::tileops {
namespace {

bool same_branches(const std::vector<Branch>& a, const std::vector<Branch>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Branch& x, const Branch& y) {
           return x.body.same_as(y.body);
         });
}

std::string branch_text(const std::vector<Branch>& branches) {
  if (branches.empty()) return "outside the if/else";
  const Branch& b = branches.back();
  return std::string(b.then ? "in the then branch" : "in the else branch") + " of (if " + format_value(b.condition) +
         ")";
}

std::string op_text(const TileOp& op) {
  if (op.kind == "copy_out" || op.kind == "atomic_out") return "T.copy to '" + op.tensor->name + "'";
  if (op.kind == "copy_in" || op.kind == "atomic_in") return "T.copy from '" + op.tensor->name + "'";
  if (op.out) return "the " + op.kind + " op writing '" + op.out->name + "'";
  return "the " + op.kind + " op";
}

// The on-chip values `op` reads: its operands, and a gemm's accumulator when it adds onto it.
std::vector<std::string> values_read(const TileOp& op) {
  std::vector<std::string> names;
  for (const BufferInfo& in : op.ins) names.push_back(in.name);
  if (op.kind == "gemm" && !truthy(op.get(names::kClear))) names.push_back(op.out->name);
  return names;
}

}  // namespace

void balance_branches(const std::vector<TileOp>& ops) {
  for (size_t r = 0; r < ops.size(); ++r) {
    for (const std::string& name : values_read(ops[r])) {
      size_t w = r;
      while (w > 0 && !(ops[w - 1].out && ops[w - 1].out->name == name)) --w;
      if (w == 0) continue;  // a DRAM tensor's block (read by a copy op of its own), or never written on chip
      const TileOp& writer = ops[w - 1];
      if (same_branches(writer.branches, ops[r].branches)) continue;
      fail("on-chip buffer '" + name + "' is written " + branch_text(writer.branches) + " by " + op_text(writer) +
           " and read " + branch_text(ops[r].branches) + " by " + op_text(ops[r]) + "; the tenstorrent backend "
           "needs every value a branch reads made in that branch (each branch pushes and frees its own CB pages, "
           "so the branch not taken leaves nothing behind): make the value inside each branch that reads it");
    }
  }
}

}  // namespace tl::tileops
