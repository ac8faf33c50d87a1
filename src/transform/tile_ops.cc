// Recognition of the tile operations of a kernel body (tile_ops.h).
#include "tile_ops.h"

#include <algorithm>

#include "engine_common.h"
#include "index_masks.h"
#include "tile_ops_util.h"

namespace tl {

const Any& TileOp::get(const char* name) const {
  for (const auto& [key, value] : fields) {
    if (key == name) return value;
  }
  internal_error(kind + " tile op has no field '" + name + "'");
}

std::string loop_label(const Any& loop) {
  if (auto w = ir::While::from(loop)) return "the while loop (while " + format_value(w->condition()) + ")";
  return "'" + format_value(ir::For(loop).loop_var()) + "'";
}

Any loop_key(const Any& loop) {
  if (auto w = ir::While::from(loop)) return w->condition().any();
  return ir::For(loop).loop_var().any();
}

namespace {

using namespace tileops;  // NOLINT: the recognisers' shared helpers

// -------------------------------------------------------------------------------------------------- gemm

// The transposed value of a gemm operand (its tiles in transposed order, each tile transposed): an on-chip
// value of its own, produced by a transpose op and read by the matmul (tiles of 32x32 only transpose whole).
BufferInfo transposed(const BufferInfo& operand) {
  BufferInfo t = operand;
  t.name = operand.name + "_T";
  t.shape = {operand.shape[1], operand.shape[0]};
  return t;
}

TileOp transpose_op(const ir::TilePrimitiveCall& stmt, const BufferInfo& operand) {
  auto [rows, cols] = tiles(operand, "gemm operand");
  TileOp op{tile_op::kTranspose, stmt, transposed(operand), {operand}};
  op.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  return op;
}

// `loops`: the loops around the gemm, the innermost being its K loop (unless clear_accum makes it one product).
// A transposed operand adds a transpose op before the gemm, which then reads the transposed value.
std::vector<TileOp> classify_gemm(const ir::TilePrimitiveCall& stmt, const std::vector<Any>& loops) {
  List args = stmt.args();
  Region d = region_of(args[0]), a = region_of(args[1]), b = region_of(args[2]), c = region_of(args[3]);
  for (const Region* r : {&d, &a, &b, &c}) {
    if (!r->info.on_chip()) {
      fail("T.gemm operand '" + r->info.name + "' is a DRAM tensor; copy it to an on-chip buffer first");
    }
    require_full(*r, "T.gemm");
  }
  bool transpose_a = truthy(to_plain(args[4])), transpose_b = truthy(to_plain(args[5]));
  if (!d.info.var.same_as(c.info.var)) {
    fail("T.gemm writes '" + d.info.name + "' but accumulates '" + c.info.name + "'; they must be one buffer");
  }
  auto alpha = ir::FloatImm::from(args[6]), beta = ir::FloatImm::from(args[7]);
  if (!(alpha && alpha->value() == 1.0)) {
    fail("T.gemm into '" + d.info.name + "' scales the product by " + format_value(args[6]) + "; only 1.0 is supported");
  }
  if (!(beta && (beta->value() == 0.0 || beta->value() == 1.0))) {
    fail("T.gemm into '" + d.info.name + "' scales the accumulator by " + format_value(args[7]) +
         "; only 1.0 (accumulate) or 0.0 (clear_accum=True) are supported");
  }
  bool clear = beta->value() == 0.0;  // a self-contained product: not a K step of an enclosing loop
  std::vector<TileOp> ops;
  BufferInfo lhs = a.info, rhs = b.info;
  if (transpose_a) {
    ops.push_back(transpose_op(stmt, a.info));
    lhs = *ops.back().out;
  }
  if (transpose_b) {
    ops.push_back(transpose_op(stmt, b.info));
    rhs = *ops.back().out;
  }
  auto [mt, nt] = tiles(d.info, "accumulator");
  auto [am, ak] = tiles(lhs, "gemm operand");
  auto [bk, bn] = tiles(rhs, "gemm operand");
  if (am != mt || bn != nt || ak != bk) {
    fail("T.gemm shapes do not match: " + a.info.name + " " + ints_str(a.info.shape) +
         (transpose_a ? " (transposed)" : "") + " x " + b.info.name + " " + ints_str(b.info.shape) +
         (transpose_b ? " (transposed)" : "") + " -> " + d.info.name + " " + ints_str(d.info.shape));
  }
  Any k(int64_t(0));
  Any k_count(int64_t(1));
  if (!loops.empty() && !clear) {
    // A K loop of run-time extent (stream-K's `T.Pipelined(end_iter[0] - start_iter[0])`, computed from block
    // indices and index scalars): k_count is that expression, which every kernel computes alike, and the last step
    // (`k == k_count - 1`) packs at run time. A while loop has no step count: 0, refused unless gemm_accumulation
    // finds it is no K loop.
    auto k_loop = ir::For::from(loops.back());
    if (k_loop) k = k_loop->loop_var();
    auto extent = k_loop ? ir::IntImm::from(k_loop->extent()) : std::nullopt;
    k_count = extent ? Any(extent->value()) : k_loop ? k_loop->extent().any() : Any(int64_t(0));
  }
  TileOp op{tile_op::kGemm, stmt, d.info, {lhs, rhs}};
  op.fields = {{names::kMt, Any(mt)}, {names::kNt, Any(nt)}, {names::kKt, Any(ak)}, {names::kK, k},
               {names::kKCount, k_count}, {names::kTransposed, Any(transpose_a || transpose_b)},
               {names::kTilized, Any(false)}, {names::kSharesDst, Any(false)}, {names::kClear, Any(clear)}};
  set_flag_fields(op, nullptr);  // no condition read from a tensor (tile_ops_flag.cc)
  ops.push_back(op);
  return ops;
}

// ------------------------------------------------------------------------------------------------- fill

TileOp classify_fill(const ir::TilePrimitiveCall& stmt) {
  Region dst = region_of(stmt.args()[0]);
  if (!dst.info.on_chip()) {
    fail("T.fill of DRAM tensor '" + dst.info.name +
         "' is not supported; fill an on-chip buffer and T.copy it out");
  }
  require_full(dst, "T.fill");
  auto [rows, cols] = tiles(dst.info, "on-chip buffer");
  Any value = stmt.args()[1];
  if (!ir::FloatImm::matches(value) && !ir::IntImm::matches(value)) {
    fail("T.fill of '" + dst.info.name + "' with a non-constant value (" + format_value(value) + ")");
  }
  TileOp op{tile_op::kFill, stmt, dst.info};
  op.fields = {{names::kValue, Any(as_float(value))}, {names::kTiles, Any(rows * cols)}};
  return op;
}

// ------------------------------------------------------------------------------------------------ walk

void visit(const Any& stmt, const std::vector<Any>& loops, std::vector<TileOp>& ops);

// The first buffer other than an index scalar that `expr` reads ("" when none).
std::string buffer_read(const Any& expr) {
  std::string read;
  walk(expr, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         BufferInfo b = buffer_info(l.source());
         if (read.empty() && !b.index_scalar()) read = b.name;
       })});
  return read;
}

// The tile ops of one tile primitive (a transposed gemm is two or three).
std::vector<TileOp> classify_tile(const ir::TilePrimitiveCall& stmt, const std::vector<Any>& loops) {
  std::string name = stmt.op().name();
  if (name == "tirx.tile.copy") return classify_copy(stmt);
  if (name == "tirx.tile.gemm") return classify_gemm(stmt, loops);
  if (name == "tirx.tile.fill") return {classify_fill(stmt)};
  if (name == "tl.tile.atomic_add") return classify_atomic(stmt);
  if (name == "tl.tile.cumsum") return classify_cumsum(stmt);
  if (name == "tl.tile.transpose") return classify_transpose(stmt);
  if (name == "tl.tile.im2col") return classify_im2col(stmt);
  if (name == "tirx.tile.sum" || name == "tirx.tile.max" || name == "tirx.tile.min") {
    return classify_reduce(stmt);
  }
  fail("tile primitive " + name + " has no tenstorrent lowering");
}

// An element-wise nest is one op; the per-core loop is looked through; any other loop must have a static
// extent (it becomes a loop of the kernels) and is the K loop of a gemm directly inside it.
void visit_loop(const ir::For& loop, const std::vector<Any>& loops, std::vector<TileOp>& ops) {
  if (auto atomic = atomic_nest(loop)) {
    for (TileOp& op : *atomic) {
      op.loops.insert(op.loops.end(), loops.begin(), loops.end());
      ops.push_back(std::move(op));
    }
  } else if (auto nest = eltwise_nest(loop)) {
    for (TileOp& op : classify_store(nest->first, nest->second, ops.size())) {
      op.loops.insert(op.loops.end(), loops.begin(), loops.end());
      ops.push_back(std::move(op));
    }
  } else if (loop.annotations().count(String(keys::kTtPersistentLoop))) {
    visit(loop.body(), loops, ops);
  } else {
    // A static extent, or one computed from block indices (the causal loop bound, folded by fold_constant_scalars):
    // every kernel computes it from its block's indices and index scalars. One that reads a buffer is not known to
    // the dataflow kernels.
    if (!buffer_read(loop.extent()).empty()) {
      fail("loop '" + format_value(loop.loop_var()) + "' has an extent read from a buffer (" +
           format_value(loop.extent()) + "); the tenstorrent backend needs loop extents that are constants or "
           "computed from block indices and index scalars");
    }
    std::vector<Any> inner = loops;
    inner.push_back(loop.any());
    visit(loop.body(), inner, ops);
  }
}

void visit(const Any& stmt, const std::vector<Any>& loops, std::vector<TileOp>& ops) {
  if (auto block = ir::SeqStmt::from(stmt)) {
    for (const Any& s : block->seq()) visit(s, loops, ops);
  } else if (auto tile = ir::TilePrimitiveCall::from(stmt)) {
    for (TileOp& op : classify_tile(*tile, loops)) {
      op.loops.insert(op.loops.end(), loops.begin(), loops.end());
      ops.push_back(std::move(op));
    }
  } else if (auto loop = ir::For::from(stmt)) {
    visit_loop(*loop, loops, ops);
  } else if (auto cond = ir::IfThenElse::from(stmt)) {
    // Every kernel evaluates the condition from its own scalars and block indices and takes the same branch; each
    // branch balances its CBs on its own (balance_branches).
    if (std::string read = buffer_read(cond->condition()); !read.empty()) {
      if (flag_branch(*cond, loops, ops, [&](const Any& body, std::vector<TileOp>& into) { visit(body, loops, into); }))
        return;
      fail("a condition around tile operations (" + format_value(cond->condition()) + ") reads '" + read + "'; the "
           "tenstorrent backend needs conditions computed from constants, block indices, loop variables and index "
           "scalars (the reader and writer kernels do not see on-chip data)");
    }
    for (bool then : {true, false}) {
      Any body = then ? cond->then_case() : cond->else_case();
      if (is_none(body)) continue;
      size_t first = ops.size();
      visit(body, loops, ops);
      for (size_t i = first; i < ops.size(); ++i) ops[i].branches.insert(ops[i].branches.begin(), {body, cond->condition(), then});
    }
  } else if (auto w = ir::While::from(stmt)) {
    // A work range walked by index scalars (stream-K's `while start_iter < last_iter`): every kernel keeps the
    // scalars and evaluates the condition itself, so the reader, compute and writer run the body equally often.
    std::string read = buffer_read(w->condition());
    if (!read.empty()) {
      fail("a while loop (while " + format_value(w->condition()) + ") has a condition read from '" + read + "'; "
           "the tenstorrent backend needs while conditions computed from constants, block indices, loop variables "
           "and index scalars (the reader and writer kernels do not see on-chip data)");
    }
    std::vector<Any> inner = loops;
    inner.push_back(w->any());
    visit(w->body(), inner, ops);
  } else if (auto store = ir::BufferStore::from(stmt)) {
    BufferInfo info = buffer_info(store->buffer());
    if (info.scope == "local" && info.shape == std::vector<int64_t>{1}) {  // an assignment (fold_constant_scalars)
      std::string read = buffer_read(store->value());
      if (info.index_scalar() && read.empty()) return;  // every kernel keeps it and computes it (scalars.cc)
      fail("scalar '" + info.name + "' is assigned " + format_value(store->value().any()) + "; the tenstorrent backend "
           "supports index scalars, integer scalars assigned (once, or again and again in loops) values computed from "
           "constants, block indices, loop variables and other index scalars, which every kernel computes itself, and "
           "other scalars assigned once such a value; not " + (read.empty() ? "a " + info.dtype + " scalar assigned more "
           "than once" : "values read from '" + read + "' (a scalar computed from tensor data is not lowered)"));
    }
    if (!loops.empty()) {
      std::string vars, idx;
      for (const Any& l : loops) {
        vars += (vars.empty() ? "" : ", ") + (ir::For::matches(l) ? format_value(ir::For(l).loop_var()) : loop_label(l));
      }
      for (const Any& i : store->indices()) idx += (idx.empty() ? "" : ", ") + format_value(i);
      fail("store " + info.name + "[" + idx + "] = " + format_value(store->value()) + " in loop (" + vars + ") is one "
           "of several statements that the tenstorrent backend cannot split into element-wise nests: each buffer "
           "such a body writes must be written and read there at one index naming each iteration's own element");
    }
    List at_idx = store->indices();
    std::string at = at_idx.empty() ? "" : format_value(at_idx[0]) + (at_idx.size() > 1 ? ", ..." : "");
    fail("store " + info.name + "[" + at + "] writes one element of '" + info.name + "' outside an element-wise "
         "loop nest; the tenstorrent backend writes DRAM by tile pages (a NoC write is aligned to the DRAM alignment, "
         "wider than an element) and drops such a store only where a later copy of a block holding it overwrites it");
  } else if (auto attr_stmt = ir::AttrStmt::from(stmt)) {
    visit(attr_stmt->body(), loops, ops);
  }
}

// A conversion T.copy (fp32 scores to a bf16 operand) that a gemm reads is packed on chip: the matmul unpacks an
// operand in the operand's own format (the writer's pack converts a copy out, so other conversions stay aliases).
void convert_gemm_operands(std::vector<TileOp>& ops) {
  for (size_t c = 0; c < ops.size(); ++c) {
    if (ops[c].kind != tile_op::kCopyLocal || ops[c].out->dtype == ops[c].ins[0].dtype) continue;
    for (size_t r = c + 1; r < ops.size(); ++r) {
      bool operand = ops[r].kind == tile_op::kGemm && std::any_of(ops[r].ins.begin(), ops[r].ins.end(), [&](const BufferInfo& in) {
                       return in.name == ops[c].out->name;
                     });
      if (!operand) continue;
      ops[c].kind = tile_op::kEltwise;
      ops[c].fields = eltwise_fields(*ops[c].out, {"none", "none", "none", "none", "none"}, 0);
      break;
    }
  }
}

// A transpose frees its operand, so a value a transpose reads and other ops read too (layernorm's `mean_row`, written
// to the 1-D tensor `Mean` and read by the normalisation) is copied first (an element-wise copy, which shares the
// value like any element-wise read) and the transpose reads the copy.
void copy_shared_transposes(std::vector<TileOp>& ops) {
  for (size_t t = 0; t < ops.size(); ++t) {
    if (ops[t].kind != tile_op::kTranspose) continue;
    const BufferInfo value = ops[t].ins[0];
    auto writes = [&](size_t o) { return ops[o].out && ops[o].out->name == value.name; };
    size_t from = t, to = t + 1;
    while (from > 0 && !writes(from - 1)) --from;
    while (to < ops.size() && !writes(to)) ++to;
    bool shared = false;
    for (size_t o = from; o < to; ++o) {
      for (const BufferInfo& in : ops[o].ins) shared = shared || (o != t && in.name == value.name);
    }
    if (!shared) continue;
    BufferInfo copy = value;
    copy.name = value.name + "_copy";
    TileOp op{tile_op::kEltwise, ops[t].stmt, copy, {value}};
    op.loops = ops[t].loops;
    op.branches = ops[t].branches;
    op.fields = eltwise_fields(copy, {"none", "none", "none", "none", "none"}, 0);
    ops[t].ins[0] = copy;
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(t), op);
    ++t;
  }
}

}  // namespace

// A gemm reading a block tilized on chip (T.im2col's rows, a row-major tensor's block) in its K loop: the tilize
// needs DST between the K steps, so the gemm accumulates through a partial-sum CB (BuildTTTileDataflow's `partial`).
void mark_tilized_operands(std::vector<TileOp>& ops) {
  std::set<std::string> tilized;
  for (TileOp& op : ops) {
    if (op.kind == tile_op::kTilize) tilized.insert(op.out->name);
    if (op.kind != tile_op::kGemm) continue;
    bool reads = std::any_of(op.ins.begin(), op.ins.end(), [&](const BufferInfo& b) { return tilized.count(b.name); });
    for (auto& [key, value] : op.fields) {
      if (key == names::kTilized) value = Any(reads);
    }
  }
}

std::vector<TileOp> tile_ops(const Any& func) {
  RowMajorLayouts layouts(func);  // InferTTLayout's decisions, as tt.buffers records them
  PaddedLayouts padded(func);
  masks::MaskTables tables(func);  // AddTTConstants' index-mask tables
  std::vector<TileOp> ops;
  visit(ir::PrimFunc(func).body(), {}, ops);
  convert_gemm_operands(ops);
  gemm_accumulation(ops);
  mark_tilized_operands(ops);
  mark_dst_sharing(ops);
  for (const TileOp& op : ops) {
    const Any& k_count = op.kind == tile_op::kGemm ? op.get(names::kKCount) : Any();
    if (op.kind == tile_op::kGemm && is_int(k_count) && as_int(k_count) == 0) {
      fail("T.gemm into '" + op.out->name + "' accumulates over " + loop_label(op.loops.back()) + ", whose trip "
           "count is known only as it ends; the K loop of a gemm needs an extent its last step can be told by "
           "(a T.serial / T.Pipelined loop)");
    }
  }
  integer_casts(ops);
  integer_reductions(ops);
  integer_fills(ops);
  refuse_integer_math(ops);
  add_reduce_scaler(ops, func);
  add_im2col_zeros(ops, func);
  add_mask_tables(ops);
  bound_reads(ops);
  copy_in_carried(ops);
  defer_carried_writes(ops);
  atomic_order(ops, func);
  copy_out_carried(ops);
  hoist_invariant_transposes(ops);
  copy_shared_transposes(ops);
  route_branch_values(ops);
  balance_branches(ops);
  gathered_reads(ops);
  return ops;
}

}  // namespace tl
