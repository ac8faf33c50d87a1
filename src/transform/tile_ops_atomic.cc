// T.atomic_add onto a block of a DRAM tensor (split-K GEMM): the block is read in its split-K group's turn, the
// fragment added to it in fp32, and the sum written back (atomic_in, an element-wise add, atomic_out). The
// turns themselves are planned later (PartitionTTWork's split mode, PlanTTAtomicOrder).
#include <algorithm>

#include "engine_common.h"
#include "tile_ops_util.h"

namespace tl::tileops {
namespace {

const char kAtomic[] = "T.atomic_add";

std::string dst_text(const Region& dst) {
  std::string at;
  for (const Any& m : dst.mins) at += (at.empty() ? "" : ", ") + format_value(m);
  return dst.info.name + "[" + at + "]";
}

// Whether `start` is `block_var * extent` (either order), or 0 on a grid of one block in that dim: the block of
// one grid index, disjoint from the other blocks' (so only the blockIdx.z members of a group share it).
bool is_block_start(const Any& start, int64_t extent, const std::string& block_var, int64_t blocks) {
  if (is_zero(start)) return blocks == 1;
  auto mul = ir::Mul::from(start);
  if (!mul) return false;
  Any a = mul->a().any(), b = mul->b().any();
  auto named = [&](const Any& v) { return ir::Var::matches(v) && ir::Var(v).name() == block_var; };
  return (named(a) && is_const_int(b, extent)) || (named(b) && is_const_int(a, extent));
}

// The target of an atomic op must be the block of (blockIdx.y, blockIdx.x).
void require_output_block(const TileOp& op, const Dict& launch, const Any& grid) {
  const char* dims[2][2] = {{names::kRow, "blockIdx.y"}, {names::kCol, "blockIdx.x"}};
  int64_t extents[2] = {as_int(op.get(names::kRows)) * tile_shape().first,
                        as_int(op.get(names::kCols)) * tile_shape().second};
  for (size_t d = 0; d < 2; ++d) {
    Any var = get(launch, dims[d][1]);
    std::string name = is_none(var) ? "" : as_str(var);
    int64_t blocks = as_int(item(grid, Any(int64_t(d == 0 ? 1 : 0))));
    if (is_block_start(op.get(dims[d][0]), extents[d], name, blocks)) continue;
    fail(std::string(kAtomic) + " into " + op.tensor->name + "[" + format_value(op.get(names::kRow)) + ", " +
         format_value(op.get(names::kCol)) + "]: the block starts at " + format_value(op.get(dims[d][0])) +
         " in dim " + std::to_string(d) + "; the tenstorrent backend orders the atomic adds of one output block's "
         "split-K group (its blockIdx.z), so the target must be the grid's output block, C[by * " +
         std::to_string(extents[0]) + ", bx * " + std::to_string(extents[1]) + "] with the fragment's extents");
  }
}

// The three ops of `T.atomic_add(dst block, value)`, `value` the whole on-chip fragment.
std::vector<TileOp> atomic_ops(const ir::TilePrimitiveCall& call, const Any& stmt, const Region& dst,
                               const BufferInfo& value) {
  std::string what = kAtomic + std::string(" into ") + dst_text(dst);
  if (dst.info.on_chip()) fail(what + ": the target is on chip; T.atomic_add adds onto a DRAM tensor");
  if (dst.info.dtype != "float32" || value.dtype != "float32") {
    fail(what + " adds a " + value.dtype + " fragment onto a " + dst.info.dtype + " tensor; the tenstorrent backend "
         "sums split-K partials in fp32 only (a bf16 target would be rounded at every member's write), so both "
         "must be float32");
  }
  if (dst.info.shape.size() != 2 || value.shape.size() != 2) {
    fail(what + ": the target and the fragment must be 2-D (a tile-aligned block of a 2-D tensor)");
  }
  Region block = dst;
  block.extents = value.shape;
  TileOp in = tensor_copy(call, block, {Any(), value.name + "_atomic_in", value.shape, "float32", "shared"}, true);
  in.kind = tile_op::kAtomicIn;
  in.stmt = stmt;
  BufferInfo sum{Any(), value.name + "_atomic_sum", value.shape, "float32", "shared"};
  TileOp add{tile_op::kEltwise, stmt, sum, {*in.out, value}};
  tiles(value, "T.atomic_add fragment");  // refuses a fragment that is not whole tiles
  add.fields = eltwise_fields(sum, EltwiseUnits{"add", "none", "none", "none", "none"}, 0);
  TileOp out = tensor_copy(call, block, sum, false);
  out.kind = tile_op::kAtomicOut;
  out.stmt = stmt;
  return {in, add, out};
}

// A group's turn counter advances once per output block, so each block gets one atomic op per tensor, outside any
// loop of the block (a second one, or one per loop iteration, would take turns its successor has not yet had).
void require_once_per_block(const TileOp& op, std::vector<std::string>& targets) {
  std::string what = std::string(kAtomic) + " into '" + op.tensor->name + "'";
  if (!op.loops.empty()) {
    fail(what + " is inside " + (ir::For::matches(op.loops.back()) ? "loop " : "") + loop_label(op.loops.back()) +
         "; the tenstorrent "
         "backend orders one atomic_add per output block and tensor, after the block's loops (accumulate in the "
         "fragment and add it once)");
  }
  if (!op.branches.empty()) {
    fail(what + " is inside a branch of (if " + format_value(op.branches.back().condition) + "); the tenstorrent "
         "backend orders the atomic adds of a split-K group in turns that every member takes, so each member adds "
         "once, unconditionally (add a zero fragment instead of skipping)");
  }
  if (op.kind != tile_op::kAtomicIn) return;
  if (std::find(targets.begin(), targets.end(), op.tensor->name) != targets.end()) {
    fail(what + " appears twice in the kernel; the tenstorrent backend orders one atomic_add per output block and "
         "tensor (add the fragments on chip first)");
  }
  targets.push_back(op.tensor->name);
}

}  // namespace

std::vector<TileOp> classify_atomic(const ir::TilePrimitiveCall& stmt) {
  Region dst = region_of(stmt.args()[0]);
  if (!ir::TensorRegion::matches(stmt.args()[1])) {
    fail(std::string(kAtomic) + " into " + dst_text(dst) + " adds the scalar " + format_value(stmt.args()[1]) +
         "; the tenstorrent backend supports the tile form (a fragment) and the element form of a whole fragment "
         "in a T.Parallel loop");
  }
  Region value = region_of(stmt.args()[1]);
  require_full(value, kAtomic);
  return atomic_ops(stmt, stmt.any(), dst, value.info);
}

std::optional<std::vector<TileOp>> atomic_nest(const ir::For& loop) {
  std::vector<ir::For> loops;
  Any body = loop.any();
  while (auto l = ir::For::from(body)) {
    loops.push_back(*l);
    body = l->body();
  }
  auto call = ir::TilePrimitiveCall::from(body);
  if (!call || call->op().name() != "tl.tile.atomic_add") return std::nullopt;
  if (ir::TensorRegion::matches(call->args()[1])) return std::nullopt;  // the tile form, in a loop of the block
  Region dst = region_of(call->args()[0]);
  auto load = ir::TensorLoad::from(call->args()[1]);
  std::string what = std::string(kAtomic) + " into " + dst_text(dst) + " in a T.Parallel loop";
  if (!load || loops.size() != 2 || dst.mins.size() != 2) {
    fail(what + ": the tenstorrent backend supports the element form only as T.Parallel(bm, bn) over a whole 2-D "
         "fragment, adding frag[i, j] at C[r0 + i, c0 + j]");
  }
  BufferInfo value = buffer_info(load->source());
  List idx = load->indices();
  Region block = dst;
  for (size_t d = 0; d < 2; ++d) {
    Any lv = loops[d].loop_var().any();
    auto add = ir::Add::from(dst.mins[d]);
    bool ok = idx[d].same_as(lv) && as_int(loops[d].extent()) == value.shape.at(d) &&
              (dst.mins[d].same_as(lv) || (add && add->b().any().same_as(lv)));
    if (!ok) {
      fail(what + ": index " + format_value(dst.mins[d]) + " of dim " + std::to_string(d) + " is not the block "
           "start plus the loop variable of a loop over the whole fragment '" + value.name + "'");
    }
    block.mins[d] = dst.mins[d].same_as(lv) ? Any(int64_t(0)) : add->a().any();
  }
  return atomic_ops(*call, loop.any(), block, value);
}

void atomic_order(std::vector<TileOp>& ops, const Any& func) {
  if (program_order(ops, func)) return;
  Any step, member(int64_t(0));
  Any grid = get_attr(func, keys::kTtGridBlocks);
  int64_t members = is_none(grid) ? 1 : as_int(item(grid, Any(int64_t(2))));
  std::string z_name;
  Any z = get(attr_dict(func, keys::kTtLaunchVars), "blockIdx.z");  // a 2-D grid: one member per group
  if (!is_none(z)) z_name = as_str(z);
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::For>([&](const ir::For& loop) {
                                     if (loop.annotations().count(String(keys::kTtPersistentLoop))) step = loop.loop_var().any();
                                   }),
                                   ir::visit<ir::Bind>([&](const ir::Bind& b) {
                                     if (!z_name.empty() && b.var().name() == z_name) member = b.var().any();
                                   })});
  std::vector<std::string> targets;
  for (TileOp& op : ops) {
    if (op.kind != tile_op::kAtomicIn && op.kind != tile_op::kAtomicOut) continue;
    if (is_none(step)) fail(std::string(kAtomic) + " outside the per-core loop of a T.Kernel grid");
    require_once_per_block(op, targets);
    require_output_block(op, attr_dict(func, keys::kTtLaunchVars), grid);
    op.fields.emplace_back(names::kMember, member);
    op.fields.emplace_back(op.kind == tile_op::kAtomicIn ? names::kStep : names::kMembers,
                           op.kind == tile_op::kAtomicIn ? step : Any(members));
  }
}

}  // namespace tl::tileops
