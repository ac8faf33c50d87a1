// T.atomic_add in program order (stream-K's fix-up: adds inside a while loop or a branch, onto output blocks
// chosen at run time). PartitionTTWork's `streamk` mode runs program p on core p % C (C cores), so the programs of
// core c follow those of core c - 1 one for one. Every program passes a turn once, after its adds (the writer's
// pass_turn, placed after the outermost loop around its last atomic op): it waits until its predecessor passed the
// turn to it, then increments the turn counter of the core running program p + 1. The reader waits for the same
// count before every read of a block it adds onto. So all adds of program p land after all adds of programs < p,
// whatever blocks they target (specs/protocols/writer_pass_turn.yaml); each target tensor has a counter of its own, so
// a program passes the turn of every tensor it adds onto. A grid whose programs all add onto one block (layernorm
// backward's dgamma and dbeta) is ordered the same way. The counter of core c counts the turns the
// programs of core c - 1 passed: program p waits until it reaches (p + C - 1) / C.
#include <algorithm>

#include "engine_common.h"
#include "tile_ops_util.h"

namespace tl::tileops {
namespace {

const char kAtomic[] = "T.atomic_add";

// The program's linear block index, blockIdx.y * grid_x + blockIdx.x, from the variables the persistent loop binds.
Any program_index(const Any& func, int64_t gx) {
  Dict launch = attr_dict(func, keys::kTtLaunchVars);
  Any bx(int64_t(0)), by(int64_t(0));
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::Bind>([&](const ir::Bind& b) {
         for (const char* tag : {"blockIdx.x", "blockIdx.y"}) {
           Any name = get(launch, tag);
           if (!is_none(name) && b.var().name() == as_str(name)) (tag[9] == 'x' ? bx : by) = b.var().any();
         }
       })});
  return fn::add(fn::mul(by, Any(gx)), bx);
}

bool contains_body(const Any& root, const Any& body) {
  bool found = false;
  walk(root, {ir::visit<ir::IfThenElse>([&](const ir::IfThenElse& b) {
         found = found || b.then_case().same_as(body) || b.else_case().same_as(body);
       })});
  return found;
}

// Every program passes the turn exactly once: the loop it is placed after must not sit in a branch.
void require_unconditional(const TileOp& op) {
  const Any& loop = op.loops.front();
  for (const Branch& b : op.branches) {
    Any body = ir::For::matches(loop) ? ir::For(loop).body().any() : ir::While(loop).body().any();
    if (contains_body(body, b.body)) continue;
    fail(std::string(kAtomic) + " into '" + op.tensor->name + "' is inside " + loop_label(loop) + ", which is "
         "inside a branch of (if " + format_value(b.condition) + "); the tenstorrent backend orders such adds by "
         "program, and every program passes its turn after that loop, so the loop must run unconditionally");
  }
}

void set(TileOp& op, const char* name, const Any& value) {
  for (auto& [key, v] : op.fields) {
    if (key == name) v = value;
  }
}

}  // namespace

bool program_order(std::vector<TileOp>& ops, const Any& func) {
  if (format_value(get_attr(func, keys::kTtPartitionMode)) != "streamk") return false;
  Any grid = get_attr(func, keys::kTtGridBlocks);
  int64_t gx = as_int(item(grid, Any(int64_t(0)))), gy = as_int(item(grid, Any(int64_t(1))));
  int64_t cores = static_cast<int64_t>(attr_list(func, keys::kTtWorkPartition).size());
  Any program = program_index(func, gx);
  Any step = fn::sub(fn::floordiv(fn::add(program, Any(cores - 1)), Any(cores)), Any(int64_t(1)));
  std::optional<size_t> last;
  for (size_t i = 0; i < ops.size(); ++i) {
    TileOp& op = ops[i];
    if (op.kind != tile_op::kAtomicIn && op.kind != tile_op::kAtomicOut) continue;
    if (op.loops.empty() && !op.branches.empty()) {
      fail(std::string(kAtomic) + " into '" + op.tensor->name + "' is in a branch of (if " +
           format_value(op.branches.back().condition) + ") outside any loop; the tenstorrent backend orders the adds "
           "of a grid without blockIdx.z by program, and every program passes its turn once, after its adds");
    }
    if (!op.loops.empty()) require_unconditional(op);
    op.fields.emplace_back(names::kMember, op.kind == tile_op::kAtomicIn ? program : Any(int64_t(0)));
    op.fields.emplace_back(op.kind == tile_op::kAtomicIn ? names::kStep : names::kMembers,
                           op.kind == tile_op::kAtomicIn ? step : Any(int64_t(0)));  // the writes signal nobody
    last = i;
  }
  if (!last) return true;
  // The turn is passed after the last add: after the outermost loop around it, or, for adds outside any loop
  // (layernorm backward's dgamma and dbeta after its rows loop), right after the add's own statement. Each target
  // tensor has a turn counter of its own (PlanTTAtomicOrder names the semaphore after it), so the turn of every
  // target is passed there, in the order of their first adds.
  const TileOp& op = ops[*last];
  std::vector<TileOp> passes;
  for (size_t i = 0; i <= *last; ++i) {
    const TileOp& add = ops[i];
    if (add.kind != tile_op::kAtomicIn) continue;
    if (std::any_of(passes.begin(), passes.end(), [&](const TileOp& p) { return p.tensor->name == add.tensor->name; })) {
      continue;
    }
    TileOp pass{tile_op::kTurnPass, op.loops.empty() ? op.stmt : op.loops.front()};
    if (!op.loops.empty()) pass.place = "after";
    pass.tensor = add.tensor;
    pass.fields = {{names::kTensor, add.get(names::kTensor)}, {names::kMember, program}, {names::kStep, step},
                   {names::kMembers, Any(gx * gy)}};
    passes.push_back(pass);
  }
  ops.insert(op.loops.empty() ? ops.begin() + static_cast<std::ptrdiff_t>(*last) + 1 : ops.end(), passes.begin(),
             passes.end());
  return true;
}

}  // namespace tl::tileops
