// Tile operations inside an if/else whose condition every kernel computes from index scalars, block indices and loop
// variables (stream-K's `if start_iter % iters_per_tile == 0 and ...`): the reader, compute and writer evaluate it
// alike and take the same branch, so each branch must balance its CBs on its own. Here: every on-chip value a branch
// reads is made in that branch (then the dataflow of each branch is a straight line of its own, and the values of the
// branch not taken are never pushed nor waited for), or made before the if and read by every branch and nothing after
// it (each branch waits for it and frees it: place_waits); any other value crossing a branch boundary is refused.
#include <algorithm>
#include <optional>

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
  if (op.kind == tile_op::kCopyOut || op.kind == tile_op::kAtomicOut) return "T.copy to '" + op.tensor->name + "'";
  if (op.kind == tile_op::kCopyIn || op.kind == tile_op::kAtomicIn) return "T.copy from '" + op.tensor->name + "'";
  if (op.out) return "the " + op.kind + " op writing '" + op.out->name + "'";
  return "the " + op.kind + " op";
}

// The on-chip values `op` reads: its operands, and a gemm's accumulator when it adds onto it.
std::vector<std::string> values_read(const TileOp& op) {
  std::vector<std::string> names;
  for (const BufferInfo& in : op.ins) names.push_back(in.name);
  if (op.kind == tile_op::kGemm && !truthy(op.get(names::kClear))) names.push_back(op.out->name);
  return names;
}

bool reads_value(const TileOp& op, const std::string& name) {
  auto names = values_read(op);
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The index of the last op before `r` writing `name`, or nullopt (a DRAM block, or never written on chip).
std::optional<size_t> writer_of(const std::vector<TileOp>& ops, size_t r, const std::string& name) {
  for (size_t w = r; w > 0; --w) {
    if (ops[w - 1].out && ops[w - 1].out->name == name) return w - 1;
  }
  return std::nullopt;
}

// Whether `op` is in an arm (then or else) of the if whose arm `branch` is, at depth `depth`.
bool in_if(const TileOp& op, size_t depth, const Branch& branch) {
  return op.branches.size() > depth && op.branches[depth].condition.same_as(branch.condition);
}

bool is_prefix(const std::vector<Branch>& outer, const std::vector<Branch>& inner) {
  return outer.size() < inner.size() && same_branches(outer, std::vector<Branch>(inner.begin(), inner.begin() +
                                                                                     static_cast<std::ptrdiff_t>(outer.size())));
}

// A value made before an if and read in its arms is waited for and freed in each arm (place_waits): every arm must
// read it and nothing after the if (each arm frees it), or the arm not reading it would leave it in its CB. Empty
// when it may cross, else why not.
std::string crossing_refusal(const std::vector<TileOp>& ops, size_t w, size_t r, const std::string& name) {
  size_t depth = ops[w].branches.size();
  const Branch& arm = ops[r].branches[depth];
  bool arms[2] = {false, false};
  for (size_t o = w + 1; o < ops.size(); ++o) {
    if (ops[o].out && ops[o].out->name == name && !in_if(ops[o], depth, arm)) break;
    if (!reads_value(ops[o], name)) continue;
    if (!in_if(ops[o], depth, arm)) return "it is also read after the if/else, and each arm frees it";
    arms[ops[o].branches[depth].then ? 0 : 1] = true;
  }
  if (!arms[0] || !arms[1]) return std::string("the ") + (arms[0] ? "else" : "then") + " branch does not read it, "
                                   "and each branch frees it";
  return "";
}

}  // namespace

}  // namespace tl::tileops

namespace tl {

// Every kernel takes the same arm, so a value both arms make last (each arm's op a complete producer of the block) is
// one CB with a producer op in each arm: the arm taken pushes it once, and the ops after the if/else wait for it and
// free it as for any value; an arm reading the value after making it would wait for it there, unbalancing the other.
// An arm may itself make the value in both arms of an if/else nested in it (block-causal attention's mask: a choice
// free of the element indices becomes an if/else around the mask nest, index_masks.cc).
std::optional<size_t> arm_twin(const std::vector<TileOp>& ops, size_t w, size_t depth) {
  const TileOp& made = ops[w];
  if (!made.out || depth == 0 || made.branches.size() < depth || made.branches[depth - 1].then ||
      made.kind == tile_op::kCopyLocal) {
    return std::nullopt;
  }
  const std::string& name = made.out->name;
  // In an arm of this if/else: the same arms around it (an unswitched mask repeats its inner if/else, with the same
  // condition, in both arms of an outer one) and the arm `then` of it.
  auto in_arm = [&](const TileOp& op, bool then) {
    if (op.branches.size() < depth || op.branches[depth - 1].then != then ||
        !op.branches[depth - 1].condition.same_as(made.branches[depth - 1].condition)) {
      return false;
    }
    for (size_t d = 0; d + 1 < depth; ++d) {
      if (!op.branches[d].body.same_as(made.branches[d].body)) return false;
    }
    return true;
  };
  for (size_t o = w + 1; o < ops.size(); ++o) {
    if (!in_arm(ops[o], false)) continue;
    if ((ops[o].out && ops[o].out->name == name) || tileops::reads_value(ops[o], name)) return std::nullopt;
  }
  std::optional<size_t> twin;
  for (size_t o = 0; o < w; ++o) {
    if (in_arm(ops[o], true) && ops[o].out && ops[o].out->name == name) twin = o;
  }
  for (size_t o = twin ? *twin + 1 : w; o < w; ++o) {
    if (in_arm(ops[o], true) && tileops::reads_value(ops[o], name)) return std::nullopt;  // read in the then arm
  }
  if (!twin || ops[*twin].kind == tile_op::kCopyLocal || ops[*twin].loops.size() != made.loops.size() ||
      !made_in_arms(ops, *twin, depth) || !made_in_arms(ops, w, depth)) {
    return std::nullopt;
  }
  return twin;
}

bool if_inside(const Any& loop, const Branch& arm) {
  bool found = false;
  walk(loop, {ir::visit<ir::IfThenElse>([&](const ir::IfThenElse& i) {
         found = found || i.then_case().same_as(arm.body) || i.else_case().same_as(arm.body);
       })});
  return found;
}

bool held_around_loop(const std::vector<TileOp>& ops, size_t w, size_t r) {
  const TileOp& made = ops[w];
  const TileOp& read = ops[r];
  size_t level = made.loops.size();
  if (!made.out || read.loops.size() <= level || read.branches.size() < made.branches.size()) return false;
  for (size_t l = 0; l < level; ++l) {
    if (!read.loops[l].same_as(made.loops[l])) return false;
  }
  const Any& loop = read.loops[level];
  for (size_t d = made.branches.size(); d < read.branches.size(); ++d) {
    if (!if_inside(loop, read.branches[d])) return false;
  }
  for (const TileOp& op : ops) {  // rewritten in the loop: a carried value, not a held one
    if (op.out && op.out->name == made.out->name && op.loops.size() > level && op.loops[level].same_as(loop)) {
      return false;
    }
  }
  return true;
}

bool carried_through_arm(const std::vector<TileOp>& ops, size_t w, size_t r) {
  const TileOp& made = ops[w];
  const TileOp& read = ops[r];
  if (!made.out) return false;
  // The loop: one the reader is in and the writer not (a read of the value carried in), or the reverse (a read
  // after the loop); the other op's loops are a prefix of the loop's op's.
  bool in = read.loops.size() > made.loops.size();
  const TileOp& outer = in ? made : read;
  const TileOp& inner = in ? read : made;
  size_t level = outer.loops.size(), base = outer.branches.size();
  if (inner.loops.size() <= level || inner.branches.size() <= base) return false;
  for (size_t l = 0; l < level; ++l) {
    if (!inner.loops[l].same_as(outer.loops[l])) return false;
  }
  const Any& loop = inner.loops[level];
  const Branch& arm = inner.branches[base];
  if (!if_inside(loop, arm)) return false;
  bool rewritten = false;
  for (size_t o = 0; o < ops.size(); ++o) {
    const TileOp& op = ops[o];
    bool touches = (op.out && op.out->name == made.out->name) || tileops::reads_value(op, made.out->name);
    if (!touches || op.loops.size() <= level || !op.loops[level].same_as(loop)) continue;
    if (op.branches.size() != base + 1 || !op.branches[base].body.same_as(arm.body)) return false;
    rewritten = rewritten || (op.out && op.out->name == made.out->name);
  }
  return rewritten;
}

bool made_in_arms(const std::vector<TileOp>& ops, size_t w, size_t depth) {
  for (size_t d = ops[w].branches.size(); d > depth; --d) {
    if (!arm_twin(ops, w, d)) return false;
  }
  return true;
}

}  // namespace tl

namespace tl::tileops {

void route_branch_values(std::vector<TileOp>& ops) {
  for (size_t c = 0; c < ops.size(); ++c) {
    if (ops[c].kind != tile_op::kCopyOut && ops[c].kind != tile_op::kAtomicOut) continue;
    const BufferInfo value = ops[c].ins[0];
    auto w = writer_of(ops, c, value.name);
    if (!w || !is_prefix(ops[*w].branches, ops[c].branches)) continue;
    if (!crossing_refusal(ops, *w, c, value.name).empty()) continue;  // balance_branches names the T.copy
    // The writer would read the value in this arm, the compute kernel in another: a CB has one consumer kernel,
    // so the compute kernel copies it here (on chip) and the writer reads the copy.
    BufferInfo copy = value;
    copy.var = Any();
    copy.name = value.name + (ops[c].branches[ops[*w].branches.size()].then ? "_then" : "_else");
    TileOp op{tile_op::kEltwise, ops[c].stmt, copy, {value}};
    op.loops = ops[c].loops;
    op.branches = ops[c].branches;
    op.place = ops[c].place;
    op.fields = eltwise_fields(copy, {"none", "none", "none", "none", "none"}, 0);
    ops[c].ins[0] = copy;
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(c), op);
    ++c;
  }
}

static bool structural_equal(const Any& a, const Any& b) {
  return call("ffi.StructuralEqual", a, b, false, false).cast<bool>();
}

// Each arm reads a block into the same buffer (LowerTTLoopsToTileOps rewrites the if/else): every kernel evaluates
// the condition alike, so the reader reads the block it picks (a Select of the two starts) and the value is made
// once, outside the if (no value crosses it).
std::optional<Any> merged_branch_copies(const ir::IfThenElse& cond) {
  auto only = [](const Any& body) -> std::optional<ir::TilePrimitiveCall> {
    Any s = body;
    if (auto seq = ir::SeqStmt::from(s); seq && seq->seq().size() == 1) s = seq->seq()[0];
    auto call = ir::TilePrimitiveCall::from(s);
    if (!call || call->op().name() != "tirx.tile.copy" || call->args().size() != 2) return std::nullopt;
    return call;
  };
  if (is_none(cond.else_case())) return std::nullopt;
  bool reads = false;  // a condition on on-chip data: the reader cannot compute the block it picks
  walk(cond.condition(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         reads = reads || !buffer_info(l.source()).index_scalar();
       })});
  if (reads) return std::nullopt;
  auto a = only(cond.then_case()), b = only(cond.else_case());
  if (!a || !b) return std::nullopt;
  auto dst_a = ir::TensorRegion::from(a->args()[0]), dst_b = ir::TensorRegion::from(b->args()[0]);
  auto src_a = ir::TensorRegion::from(a->args()[1]), src_b = ir::TensorRegion::from(b->args()[1]);
  if (!dst_a || !dst_b || !src_a || !src_b || !dst_a->source().same_as(dst_b->source()) ||
      !src_a->source().same_as(src_b->source()) || !buffer_info(dst_a->source()).on_chip() ||
      buffer_info(src_a->source()).on_chip() || !structural_equal(Any(dst_a->region()), Any(dst_b->region()))) {
    return std::nullopt;
  }
  List ranges;
  for (size_t d = 0; d < src_a->region().size(); ++d) {
    ir::Range ra(src_a->region()[d]), rb(src_b->region()[d]);
    if (!structural_equal(ra.extent().any(), rb.extent().any())) return std::nullopt;
    Any min = structural_equal(ra.min().any(), rb.min().any()) ? ra.min().any()
                                                              : fn::select(cond.condition(), ra.min(), rb.min());
    ranges.push_back(call("ir.Range_from_min_extent", min, ra.extent().any(), Any(nullptr)));
  }
  List args{a->args()[0], call("tirx.BufferRegion", src_a->source().any(), ranges)};
  return call("tirx.TilePrimitiveCall", a->op().any(), args, ffi::Map<String, Any>(), a->config(), Any(nullptr),
              call("tirx.ExecScope", String("thread")));
}

void balance_branches(const std::vector<TileOp>& ops) {
  for (size_t r = 0; r < ops.size(); ++r) {
    for (const std::string& name : values_read(ops[r])) {
      auto w = writer_of(ops, r, name);
      if (!w) continue;  // a DRAM tensor's block (read by a copy op of its own), or never written on chip
      const TileOp& writer = ops[*w];
      if (same_branches(writer.branches, ops[r].branches)) continue;
      size_t level = ops[r].branches.size();  // made in both arms of an if/else around it: one CB
      bool inside = level < writer.branches.size() &&
                    same_branches(std::vector<Branch>(writer.branches.begin(), writer.branches.begin() +
                                                      static_cast<std::ptrdiff_t>(level)), ops[r].branches);
      if (inside && made_in_arms(ops, *w, level)) continue;
      if (held_around_loop(ops, *w, r)) continue;  // a loop-invariant value read in arms inside the loop
      if (carried_through_arm(ops, *w, r)) continue;  // a loop-carried value the arm not taken leaves in place
      std::string why = is_prefix(writer.branches, ops[r].branches) ? crossing_refusal(ops, *w, r, name)
                                                                     : "it is made in a branch and read outside it";
      if (!writer.branches.empty() && !is_prefix(writer.branches, ops[r].branches)) {
        // Made in the other arm too (block-causal attention: `if needs_mask: mask acc_s else: T.clear(acc_s)`,
        // then a gemm onto acc_s): each arm's op would push the value's CB, and the reader after the if/else
        // reads one producer's CB.
        const Branch& arm = writer.branches.back();
        for (size_t o = 0; o < *w; ++o) {
          const TileOp& other = ops[o];
          size_t d = writer.branches.size();
          if (!other.out || other.out->name != name || other.branches.size() < d ||
              !other.branches[d - 1].condition.same_as(arm.condition) || other.branches[d - 1].then == arm.then) {
            continue;
          }
          why = "it is made in both arms (also " + op_text(other) + " in the other), and the "
                "tenstorrent backend reads a value made in both arms of an if/else only directly after it, when "
                "each arm's last op writing it makes the whole block and neither arm reads it after making it (the "
                "two then push one CB)";
        }
      }
      if (why.empty()) continue;
      fail("on-chip buffer '" + name + "' is written " + branch_text(writer.branches) + " by " + op_text(writer) +
           " and read " + branch_text(ops[r].branches) + " by " + op_text(ops[r]) + "; " + why + " (the tenstorrent "
           "backend needs a value a branch reads made in that branch, or made before the if/else and read by "
           "every branch and nothing after it, so that the branch not taken leaves nothing behind): make the "
           "value inside each branch that reads it");
    }
  }
}

}  // namespace tl::tileops
