// Recognition of the tile operations of a kernel body (tile_ops.h).
#include "tile_ops.h"

#include <algorithm>
#include <tuple>

namespace tl {

const Any& TileOp::get(const char* name) const {
  for (const auto& [key, value] : fields) {
    if (key == name) return value;
  }
  internal_error(kind + " tile op has no field '" + name + "'");
}

namespace {

// Extents and shapes in messages: "[64, 32]".
std::string ints_str(const std::vector<int64_t>& xs) {
  std::string out = "[";
  for (size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + std::to_string(xs[i]);
  return out + "]";
}

std::pair<int64_t, int64_t> tile_shape() {
  Any tile = attr(device(), "TILE");
  return {as_int(item(tile, Any(int64_t(0)))), as_int(item(tile, Any(int64_t(1))))};
}

Any strip_casts(Any expr) {
  while (auto c = ir::Cast::from(expr)) expr = c->value();
  return expr;
}

bool is_zero(const Any& e) {
  Any expr = strip_casts(e);
  if (auto i = ir::IntImm::from(expr)) return i->value() == 0;
  if (auto f = ir::FloatImm::from(expr)) return f->value() == 0.0;
  return false;
}

bool is_const_int(const Any& e, int64_t value) {
  auto i = ir::IntImm::from(e);
  return i && i->value() == value;
}

// The tiles of a 2-D on-chip buffer: (rows, cols).
std::pair<int64_t, int64_t> tiles(const BufferInfo& info, const std::string& what) {
  auto [th, tw] = tile_shape();
  if (info.shape.size() != 2) {
    fail(what + " '" + info.name + "' has shape " + ints_str(info.shape) +
         "; the tenstorrent backend handles 2-D tiles only");
  }
  int64_t rows = info.shape[0], cols = info.shape[1];
  if (rows % th || cols % tw) {
    fail(what + " '" + info.name + "' has shape " + std::to_string(rows) + "x" + std::to_string(cols) +
         ", not a multiple of the " + std::to_string(th) + "x" + std::to_string(tw) + " tile");
  }
  return {rows / th, cols / tw};
}

// A tile-op operand: its buffer, where the region starts and its (static) extents.
struct Region {
  BufferInfo info;
  std::vector<Any> mins;
  std::vector<int64_t> extents;
};

Region region_of(const Any& operand) {
  ir::TensorRegion region(operand);
  Region r{buffer_info(region.source()), {}, {}};
  for (const Any& dim : region.region()) {
    ir::Range range(dim);
    r.mins.push_back(range.min());
    auto extent = ir::IntImm::from(range.extent());
    if (!extent) fail("region of '" + r.info.name + "' has a dynamic extent (" + format_value(range.extent()) + ")");
    r.extents.push_back(extent->value());
  }
  return r;
}

// CBs hold whole blocks: an on-chip operand must be the whole buffer.
void require_full(const Region& r, const std::string& op) {
  bool whole = r.extents == r.info.shape;
  for (const Any& m : r.mins) whole = whole && is_const_int(m, 0);
  if (!whole) {
    fail(op + " uses part of on-chip buffer '" + r.info.name + "' (extents " + ints_str(r.extents) + " of " +
         ints_str(r.info.shape) + "); the tenstorrent backend moves whole CB blocks");
  }
}

// ------------------------------------------------------------------------------------------------ copies

// Where a block of a tensor starts in the tensor's tiled matrix: its leading dimensions fold into the rows
// (InferTTLayout), so row = (((i0 * d1) + i1) * ...) * rows_of_one_matrix + the block's first row.
struct TileRegion {
  Any row, col;
};

TileRegion tile_region(const Region& tensor, const BufferInfo& onchip) {
  const std::vector<int64_t>& shape = tensor.info.shape;
  size_t n = shape.size();
  std::vector<int64_t> spanned;  // dims the block spans (extent > 1)
  for (size_t d = 0; d < n; ++d) {
    if (tensor.extents[d] != 1) spanned.push_back(static_cast<int64_t>(d));
  }
  bool leading_spanned = !spanned.empty() && spanned.front() < static_cast<int64_t>(n) - 2;
  if (leading_spanned) {
    fail("T.copy between tensor '" + tensor.info.name + "' (shape " + ints_str(shape) + ") and '" + onchip.name +
         "' spans dims " + ints_str(spanned) + "; tiles are of the tensor's last two dims (" +
         std::to_string(n - 2) + ", " + std::to_string(n - 1) + "), so a block may only span those (a layout "
         "sliced across other dims, e.g. (batch, seq, heads, dim) per head, needs a row-major read and an on-chip "
         "tilize, which the tenstorrent backend does not support yet)");
  }
  std::vector<int64_t> moved;  // the region without its unit dimensions
  for (int64_t d : spanned) moved.push_back(tensor.extents[d]);
  if (moved != onchip.shape) {
    fail("T.copy between '" + tensor.info.name + "' and '" + onchip.name + "' has region extents " +
         ints_str(tensor.extents) + ", not the on-chip shape " + ints_str(onchip.shape));
  }
  Any lead(int64_t(0));
  for (size_t d = 0; d + 2 < n; ++d) lead = fn::add(fn::mul(lead, Any(shape[d])), tensor.mins[d]);
  Any row = n > 2 ? fn::add(fn::mul(lead, Any(shape[n - 2])), tensor.mins[n - 2]) : tensor.mins[n - 2];
  return {row, tensor.mins[n - 1]};
}

TileOp classify_copy(const ir::TilePrimitiveCall& stmt) {
  Region dst = region_of(stmt.args()[0]);
  Region src = region_of(stmt.args()[1]);
  bool dst_chip = dst.info.on_chip(), src_chip = src.info.on_chip();
  if (!dst_chip && !src_chip) {
    fail("T.copy from tensor '" + src.info.name + "' to tensor '" + dst.info.name +
         "': DRAM-to-DRAM copies are not supported; copy through an on-chip buffer");
  }
  if (dst_chip && src_chip) {
    require_full(dst, "T.copy");
    require_full(src, "T.copy");
    return TileOp{"copy_local", stmt, dst.info, {src.info}};
  }
  const Region& tensor = dst_chip ? src : dst;
  const Region& onchip = dst_chip ? dst : src;
  require_full(onchip, "T.copy");
  auto [rows, cols] = tiles(onchip.info, "on-chip buffer");
  TileRegion at = tile_region(tensor, onchip.info);
  TileOp op{dst_chip ? "copy_in" : "copy_out", stmt};
  if (dst_chip) op.out = dst.info;
  if (src_chip) op.ins = {src.info};
  op.tensor = tensor.info;
  op.fields = {{names::kTensor, tensor.info.var},
               {names::kRow, at.row},
               {names::kCol, at.col},
               {names::kRows, Any(rows)},
               {names::kCols, Any(cols)},
               {names::kRowTiles, Any(tensor.info.shape.back() / tile_shape().second)}};
  return op;
}

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
  TileOp op{"transpose", stmt, transposed(operand), {operand}};
  op.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
  return op;
}

// `loops`: the loops around the gemm, the innermost being its K loop. A transposed operand adds a transpose op
// before the gemm, which then reads the transposed value.
std::vector<TileOp> classify_gemm(const ir::TilePrimitiveCall& stmt, const std::vector<ir::For>& loops) {
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
  for (const Any& scale : {args[6], args[7]}) {
    auto f = ir::FloatImm::from(scale);
    if (!(f && f->value() == 1.0)) {
      fail("T.gemm into '" + d.info.name + "' has alpha/beta " + format_value(scale) +
           "; only 1.0 (accumulate) is supported");
    }
  }
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
  int64_t k_count = 1;
  if (!loops.empty()) {
    k = loops.back().loop_var();
    k_count = as_int(loops.back().extent());
  }
  TileOp op{"gemm", stmt, d.info, {lhs, rhs}};
  op.fields = {{names::kMt, Any(mt)}, {names::kNt, Any(nt)}, {names::kKt, Any(ak)}, {names::kK, k},
               {names::kKCount, Any(k_count)}, {names::kTransposed, Any(transpose_a || transpose_b)}};
  ops.push_back(op);
  return ops;
}

// ---------------------------------------------------------------------------------------------- eltwise

// (loops, store) when `stmt` is a loop nest whose innermost body is one BufferStore.
std::optional<std::pair<std::vector<ir::For>, ir::BufferStore>> eltwise_nest(Any stmt) {
  std::vector<ir::For> loops;
  while (auto loop = ir::For::from(stmt)) {
    loops.push_back(*loop);
    stmt = loop->body();
  }
  auto store = ir::BufferStore::from(stmt);
  if (loops.empty() || !store) return std::nullopt;
  return std::make_pair(loops, *store);
}

// Whether the first indices are the loop variables themselves (as many as both have).
bool same_indices(const List& indices, const std::vector<Any>& lvars) {
  size_t n = std::min(indices.size(), lvars.size());
  for (size_t i = 0; i < n; ++i) {
    if (!indices[i].same_as(lvars[i])) return false;
  }
  return true;
}

// The binary operation at the top of an element-wise value: ("add"|"sub"|"mul", a, b).
std::optional<std::tuple<const char*, Any, Any>> binary_of(const Any& value) {
  if (auto e = ir::Add::from(value)) return std::make_tuple("add", e->a().any(), e->b().any());
  if (auto e = ir::Sub::from(value)) return std::make_tuple("sub", e->a().any(), e->b().any());
  if (auto e = ir::Mul::from(value)) return std::make_tuple("mul", e->a().any(), e->b().any());
  return std::nullopt;
}

// The SFPU function applied to the stored value ("relu", "exp" or "none") and its operand.
std::pair<std::string, Any> sfpu_of(Any value) {
  if (auto m = ir::Max::from(value)) {
    if (is_zero(m->b())) return {"relu", m->a().any()};
  }
  if (auto c = ir::Call::from(value)) {
    auto op = ir::Op::from(c->op());
    if (op && op->name() == "tirx.exp") return {"exp", c->args()[0]};
  }
  return {"none", value};
}

TileOp classify_eltwise(const std::vector<ir::For>& loops, const ir::BufferStore& store) {
  BufferInfo out = buffer_info(store.buffer());
  std::string text = out.name + "[...] = " + format_value(store.value());
  if (!out.on_chip()) {
    fail("element-wise store '" + text + "' writes DRAM tensor '" + out.name +
         "' directly; write an on-chip buffer and T.copy it out");
  }
  std::vector<Any> lvars;
  std::vector<int64_t> extents;
  for (const ir::For& loop : loops) {
    lvars.push_back(loop.loop_var());
    auto extent = ir::IntImm::from(loop.extent());
    extents.push_back(extent ? extent->value() : -1);
  }
  List indices = store.indices();
  if (indices.size() != lvars.size() || !same_indices(indices, lvars) || extents != out.shape) {
    fail("element-wise store '" + text + "' must cover the whole buffer " + ints_str(out.shape) +
         " with the loop variables as indices (T.Parallel over the buffer shape)");
  }
  auto leaf = [&](const Any& operand) -> BufferInfo {
    Any expr = strip_casts(operand);
    if (auto load = ir::TensorLoad::from(expr)) {
      BufferInfo info = buffer_info(load->source());
      if (info.on_chip() && info.shape == out.shape && same_indices(load->indices(), lvars)) return info;
    }
    fail("element-wise store '" + text + "': operand " + format_value(expr) +
         " is not a same-index load of an on-chip buffer of the same shape");
  };
  auto [sfpu, operand] = sfpu_of(strip_casts(store.value()));
  Any value = strip_casts(operand);
  std::string binary = "none";
  std::vector<BufferInfo> leaves;
  if (auto bin = binary_of(value)) {
    binary = std::get<0>(*bin);
    BufferInfo lhs = leaf(std::get<1>(*bin));
    leaves = {lhs, leaf(std::get<2>(*bin))};
  } else {
    leaves = {leaf(value)};
    if (sfpu == "none") fail("element-wise store '" + text + "' is a plain copy; use T.copy");
  }
  auto [rows, cols] = tiles(out, "on-chip buffer");
  TileOp op{"eltwise", loops[0], out, leaves};
  op.fields = {{names::kBinary, String(binary)}, {names::kSfpu, String(sfpu)}, {names::kTiles, Any(rows * cols)}};
  return op;
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
  TileOp op{"fill", stmt, dst.info};
  op.fields = {{names::kValue, Any(as_float(value))}, {names::kTiles, Any(rows * cols)}};
  return op;
}

// ------------------------------------------------------------------------------------------------ walk

void visit(const Any& stmt, const std::vector<ir::For>& loops, std::vector<TileOp>& ops);

// The tile ops of one tile primitive (a transposed gemm is two or three).
std::vector<TileOp> classify_tile(const ir::TilePrimitiveCall& stmt, const std::vector<ir::For>& loops) {
  std::string name = stmt.op().name();
  if (name == "tirx.tile.copy") return {classify_copy(stmt)};
  if (name == "tirx.tile.gemm") return classify_gemm(stmt, loops);
  if (name == "tirx.tile.fill") return {classify_fill(stmt)};
  fail("tile primitive " + name + " has no tenstorrent lowering");
}

// An element-wise nest is one op; the per-core loop is looked through; any other loop must have a static
// extent (it becomes a loop of the kernels) and is the K loop of a gemm directly inside it.
void visit_loop(const ir::For& loop, const std::vector<ir::For>& loops, std::vector<TileOp>& ops) {
  if (auto nest = eltwise_nest(loop)) {
    ops.push_back(classify_eltwise(nest->first, nest->second));
  } else if (loop.annotations().count(String(keys::kTtPersistentLoop))) {
    visit(loop.body(), loops, ops);
  } else {
    if (!ir::IntImm::matches(loop.extent())) {
      fail("loop '" + format_value(loop.loop_var()) + "' has a dynamic extent (" + format_value(loop.extent()) + ")");
    }
    std::vector<ir::For> inner = loops;
    inner.push_back(loop);
    visit(loop.body(), inner, ops);
  }
}

void visit(const Any& stmt, const std::vector<ir::For>& loops, std::vector<TileOp>& ops) {
  if (auto block = ir::SeqStmt::from(stmt)) {
    for (const Any& s : block->seq()) visit(s, loops, ops);
  } else if (auto tile = ir::TilePrimitiveCall::from(stmt)) {
    for (TileOp& op : classify_tile(*tile, loops)) ops.push_back(std::move(op));
  } else if (auto loop = ir::For::from(stmt)) {
    visit_loop(*loop, loops, ops);
  } else if (auto cond = ir::IfThenElse::from(stmt)) {
    fail("a condition around tile operations (" + format_value(cond->condition()) +
         ") is not supported by the tenstorrent backend");
  } else if (auto store = ir::BufferStore::from(stmt)) {
    fail("scalar store to '" + store->buffer().name() +
         "' outside an element-wise loop nest is not supported by the tenstorrent backend");
  } else if (auto attr_stmt = ir::AttrStmt::from(stmt)) {
    visit(attr_stmt->body(), loops, ops);
  }
}

}  // namespace

std::vector<TileOp> tile_ops(const Any& body) {
  std::vector<TileOp> ops;
  visit(body, {}, ops);
  return ops;
}

}  // namespace tl
