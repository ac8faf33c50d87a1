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

// The target of an atomic op must be the block of (blockIdx.y, blockIdx.x) in the tensor's last two dims, at indices
// of the dims before them that every member of the split-K group shares (free of blockIdx.z).
void require_output_block(const TileOp& op, const Dict& launch, const Any& grid) {
  const char* tags[2] = {"blockIdx.y", "blockIdx.x"};
  int64_t extents[2] = {as_int(op.get(names::kRows)) * tile_shape().first,
                        as_int(op.get(names::kCols)) * tile_shape().second};
  std::vector<Any> mins = op.target_mins;
  if (mins.size() < 2) mins = {op.get(names::kRow), op.get(names::kCol)};  // a 1-D vector's row tiles
  size_t n = mins.size();
  std::string at;
  for (const Any& m : mins) at += (at.empty() ? "" : ", ") + format_value(m);
  std::string what = std::string(kAtomic) + " into " + op.tensor->name + "[" + at + "]";
  Any z = get(launch, "blockIdx.z");
  for (size_t d = 0; d + 2 < n && !is_none(z); ++d) {
    bool by_z = false;
    walk(mins[d], {ir::visit<ir::Var>([&](const ir::Var& v) { by_z = by_z || v.name() == as_str(z); })});
    if (!by_z) continue;
    fail(what + ": index " + format_value(mins[d]) + " of dim " + std::to_string(d) + " depends on blockIdx.z; the "
         "members of a split-K group (its blockIdx.z) add onto one block, so the dims before the block's rows and "
         "columns must be held at indices free of blockIdx.z");
  }
  for (size_t d = 0; d < 2; ++d) {
    Any var = get(launch, tags[d]);
    std::string name = is_none(var) ? "" : as_str(var);
    int64_t blocks = as_int(item(grid, Any(int64_t(d == 0 ? 1 : 0))));
    const Any& start = mins[n - 2 + d];
    if (is_block_start(start, extents[d], name, blocks)) continue;
    fail(what + ": the block starts at " + format_value(start) + " in dim " + std::to_string(n - 2 + d) + "; the "
         "tenstorrent backend orders the atomic adds of one output block's split-K group (its blockIdx.z), so the "
         "target must be the grid's output block, C[..., by * " + std::to_string(extents[0]) + ", bx * " +
         std::to_string(extents[1]) + "] with the fragment's extents");
  }
}

// The four ops of `T.atomic_add(vector, value)`, a 1-D fragment onto a block of a 1-D tensor (layernorm backward's
// dgamma: every program adds its column sums onto one vector). The fragment is a column vector and the tensor a
// row vector (tile_ops_copy.cc), so the sum is made in row tiles: the target's row tiles are read (atomic_in), the
// fragment transposed into row tiles and added, and the row tiles written back (atomic_out); rows 1-31 are padding.
std::vector<TileOp> vector_atomic_ops(const Any& stmt, const Region& dst, const BufferInfo& value) {
  Region block = dst;
  block.extents = value.shape;
  require_inside(block, value, 0);
  auto [rows, cols] = tiles(value, "T.atomic_add fragment");
  std::vector<int64_t> row_shape{tile_shape().first, value.shape[0]};
  BufferInfo in_rows{Any(), value.name + "_atomic_in", row_shape, "float32", "shared"};
  BufferInfo value_rows{Any(), value.name + "_atomic_T", row_shape, "float32", "shared"};
  BufferInfo sum{Any(), value.name + "_atomic_sum", row_shape, "float32", "shared"};
  std::vector<std::pair<std::string, Any>> fields{
      {names::kTensor, dst.info.var}, {names::kRow, Any(int64_t(0))}, {names::kCol, padded_offset(block, 0)},
      {names::kRows, Any(int64_t(1))}, {names::kCols, Any(rows)},
      {names::kRowTiles, Any(padded_layout(dst.info).padded.back() / tile_shape().second)}};
  TileOp in{tile_op::kAtomicIn, stmt, in_rows};
  in.tensor = dst.info;
  in.pad_rows = true;
  in.pad_cols = value.shape[0] % tile_shape().second != 0 ||
                (!ir::IntImm::from(block.mins[0]) && dst.info.shape[0] % value.shape[0] != 0);
  in.fields = fields;
  TileOp transpose{tile_op::kTranspose, stmt, value_rows, {value}};
  transpose.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  TileOp add{tile_op::kEltwise, stmt, sum, {in_rows, value_rows}};
  add.fields = eltwise_fields(sum, EltwiseUnits{"add", "none", "none", "none", "none"}, 0);
  TileOp out{tile_op::kAtomicOut, stmt};
  out.ins = {sum};
  out.tensor = dst.info;
  out.fields = fields;
  return {in, transpose, add, out};
}

// The ops of `T.atomic_add(dst block, value)`, `value` the whole on-chip fragment: a 2-D block's three (atomic_in,
// an element-wise add, atomic_out), or a 1-D vector's four (vector_atomic_ops).
std::vector<TileOp> atomic_ops(const ir::TilePrimitiveCall& call, const Any& stmt, const Region& dst,
                               const BufferInfo& value) {
  std::string what = kAtomic + std::string(" into ") + dst_text(dst);
  if (dst.info.on_chip()) fail(what + ": the target is on chip; T.atomic_add adds onto a DRAM tensor");
  if (dst.info.dtype != "float32" || value.dtype != "float32") {
    fail(what + " adds a " + value.dtype + " fragment onto a " + dst.info.dtype + " tensor; the tenstorrent backend "
         "sums the partials in fp32 only (a bf16 target would be rounded at every add), so both must be float32");
  }
  if (dst.info.shape.size() == 1 && value.shape.size() == 1) return vector_atomic_ops(stmt, dst, value);
  size_t n = dst.info.shape.size();
  if (n < 2 || value.shape.size() != 2) {
    fail(what + ": the fragment must be 2-D (a block of a tensor of 2 or more dims) or 1-D (a block of a 1-D "
         "tensor)");
  }
  if (row_major(dst.info)) {
    fail(what + ": tensor '" + dst.info.name + "' is laid out row-major (a block at one index of its dim " +
         std::to_string(n - 2) + ", one DRAM page per row, tilized on chip); the tenstorrent backend reads and writes "
         "the target of an atomic add as tile pages only, so add onto a block of the tensor's last two dims");
  }
  // The fragment's rows and columns are the tensor's last two dims; the dims before them are held at one index
  // each, and the block is addressed as T.copy addresses an N-D block (tile_region: the leading dims fold into rows).
  Region block = dst;
  for (size_t d = 0; d + 2 < n; ++d) {
    if (dst.extents[d] != 1) {
      fail(what + ": the target spans dim " + std::to_string(d) + " (extents " + ints_str(dst.extents) + "); the "
           "fragment's rows and columns are the tensor's last two dims, the dims before them held at one index");
    }
  }
  block.extents.assign(n - 2, 1);
  block.extents.insert(block.extents.end(), value.shape.begin(), value.shape.end());
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
  in.target_mins = out.target_mins = block.mins;
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

namespace {

// One element-form T.atomic_add of a nest: `frag[i, j]` (or `frag[j]`) added at `dst[r0 + i, c0 + j]` (`dst[c0 + j]`)
// over loops spanning the whole fragment.
std::vector<TileOp> element_atomic(const ir::For& loop, const std::vector<ir::For>& loops,
                                   const ir::TilePrimitiveCall& call) {
  Region dst = region_of(call.args()[0]);
  auto load = ir::TensorLoad::from(call.args()[1]);
  std::string what = std::string(kAtomic) + " into " + dst_text(dst) + " in a T.Parallel loop";
  size_t rank = loops.size(), lead = dst.mins.size() - std::min(dst.mins.size(), rank);
  if (!load || (rank != 1 && rank != 2) || (rank == 1 && dst.mins.size() != 1) || dst.mins.size() < rank ||
      load->indices().size() != rank) {
    fail(what + ": the tenstorrent backend supports the element form only as T.Parallel(bm, bn) over a whole 2-D "
         "fragment, adding frag[i, j] at C[..., r0 + i, c0 + j] (the last two dims), or T.Parallel(n) over a whole "
         "1-D fragment, adding frag[j] at v[c0 + j]");
  }
  BufferInfo value = buffer_info(load->source());
  List idx = load->indices();
  Region block = dst;
  for (size_t d = 0; d < lead; ++d) {  // the dims before the block's rows and columns: one index, free of i and j
    bool free = std::none_of(loops.begin(), loops.end(), [&](const ir::For& l) {
      bool found = false;
      walk(dst.mins[d], {ir::visit<ir::Var>([&](const ir::Var& v) { found = found || v.same_as(l.loop_var()); })});
      return found;
    });
    if (!free) {
      fail(what + ": index " + format_value(dst.mins[d]) + " of dim " + std::to_string(d) + " reads a loop variable "
           "of the nest; the fragment's rows and columns are the tensor's last two dims, the dims before them held "
           "at one index");
    }
  }
  for (size_t r = 0; r < rank; ++r) {
    size_t d = lead + r;
    Any lv = loops[r].loop_var().any();
    auto add = ir::Add::from(dst.mins[d]);
    bool ok = idx[r].same_as(lv) && value.shape.size() == rank && as_int(loops[r].extent()) == value.shape.at(r) &&
              (dst.mins[d].same_as(lv) || (add && add->b().any().same_as(lv)));
    if (!ok) {
      fail(what + ": index " + format_value(dst.mins[d]) + " of dim " + std::to_string(d) + " is not the block "
           "start plus the loop variable of a loop over the whole fragment '" + value.name + "'");
    }
    block.mins[d] = dst.mins[d].same_as(lv) ? Any(int64_t(0)) : add->a().any();
  }
  return atomic_ops(call, loop.any(), block, value);
}

}  // namespace

// The element form: a nest whose body is one element-form T.atomic_add or several (layernorm backward adds dgamma
// and dbeta in one T.Parallel loop): each is its own ops, in order, as if the loop were split between the calls.
std::optional<std::vector<TileOp>> atomic_nest(const ir::For& loop) {
  std::vector<ir::For> loops;
  Any body = loop.any();
  while (auto l = ir::For::from(body)) {
    loops.push_back(*l);
    body = l->body();
  }
  std::vector<ir::TilePrimitiveCall> calls;
  std::vector<Any> stmts{body};
  if (auto seq = ir::SeqStmt::from(body)) stmts.assign(seq->seq().begin(), seq->seq().end());
  for (const Any& s : stmts) {
    auto call = ir::TilePrimitiveCall::from(s);
    if (!call || call->op().name() != "tl.tile.atomic_add") return std::nullopt;
    if (ir::TensorRegion::matches(call->args()[1])) return std::nullopt;  // the tile form, in a loop of the block
    calls.push_back(*call);
  }
  std::vector<TileOp> ops;
  for (const ir::TilePrimitiveCall& call : calls) {
    for (TileOp& op : element_atomic(loop, loops, call)) ops.push_back(std::move(op));
  }
  return ops;
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
