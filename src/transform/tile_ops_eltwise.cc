// Recognition of element-wise T.Parallel stores (tile_ops_util.h) through the op map of specs/ops
// (generated/cpp/eltwise_ops.h, tried in its order): a store's value is at most one SFPU function (outermost) of
// one operation below it (an FPU or SFPU operation of two same-shape on-chip buffers read at the loop indices, or
// an operation of such a buffer and a constant) or of the buffer itself; a T.Cast of it converts data formats on
// the way. A constant store is a fill. Each other form is refused naming what it is and what the map supports.
#include <cmath>
#include <cstring>
#include <map>
#include <functional>

#include "eltwise_ops.h"
#include "tile_ops_util.h"

namespace tl::tileops {

// (loops, store) when `stmt` is a loop nest whose innermost body is one BufferStore, after values bound in the
// body (`q_idx = bx * block_M + i` in TileLang's causal attention), which the returned store reads substituted.
std::optional<std::pair<std::vector<ir::For>, ir::BufferStore>> eltwise_nest(Any stmt) {
  std::vector<ir::For> loops;
  while (auto loop = ir::For::from(stmt)) {
    loops.push_back(*loop);
    stmt = loop->body();
  }
  std::vector<std::pair<Any, Any>> lets;
  if (auto seq = ir::SeqStmt::from(stmt)) {
    List items = seq->seq();
    for (size_t n = 0; n + 1 < items.size(); ++n) {
      auto bind = ir::Bind::from(items[n]);
      if (!bind) return std::nullopt;
      lets.emplace_back(bind->var().any(), bind->value().any());
    }
    if (items.size() > 0) stmt = items[items.size() - 1];
  }
  auto store = ir::BufferStore::from(stmt);
  if (loops.empty() || !store) return std::nullopt;
  // An integer scalar assigned in a loop a value read from a DRAM tensor (grouped GEMM's `cur_batch_idx =
  // T.if_then_else(m >= offsets[i], i, cur_batch_idx)`) is a scalar, not an element-wise store: tile_ops.cc names it.
  if (buffer_info(store->buffer()).index_scalar()) {
    bool reads_tensor = false;
    walk(store->value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
           reads_tensor = reads_tensor || !buffer_info(l.source()).on_chip();
         })});
    if (reads_tensor) return std::nullopt;
  }
  if (lets.empty()) return std::make_pair(loops, *store);
  auto substitute = [&](const Any& node, size_t count) {
    return map(node, {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any {
                 for (size_t n = 0; n < count; ++n) {
                   if (v.same_as(lets[n].first)) return lets[n].second;
                 }
                 return v.any();
               })});
  };
  for (size_t n = 1; n < lets.size(); ++n) lets[n].second = substitute(lets[n].second, n);
  return std::make_pair(loops, ir::BufferStore(substitute(store->any(), lets.size())));
}

// Whether the first indices are the loop variables themselves (as many as both have).
bool same_indices(const List& indices, const std::vector<Any>& lvars) {
  size_t n = std::min(indices.size(), lvars.size());
  for (size_t i = 0; i < n; ++i) {
    if (!is_index(indices[i], lvars[i])) return false;
  }
  return true;
}

namespace {
thread_local std::vector<Any>* unit_vars = nullptr;  // the variables of the store's loops of extent 1
}  // namespace

UnitLoops::UnitLoops(const std::vector<ir::For>& loops) {
  for (const ir::For& loop : loops) {
    if (is_const_int(loop.extent(), 1)) vars_.push_back(loop.loop_var());
  }
  unit_vars = &vars_;
}

UnitLoops::~UnitLoops() { unit_vars = nullptr; }

bool is_index(const Any& index, const Any& var) {
  if (index.same_as(var)) return true;
  if (unit_vars == nullptr || !is_const_int(index, 0)) return false;
  return std::any_of(unit_vars->begin(), unit_vars->end(), [&](const Any& v) { return v.same_as(var); });
}

using eltwise::Constant;
using eltwise::Unit;

// A float function of a constant, computed here as the kernel would (TVM's Simplify does not fold calls: upstream
// retention's `T.exp2(chunk_size * log_decay) * h[row, col]` with a constant decay), rounded to float32.
static std::optional<double> folded_call(const ir::Call& call) {
  static const std::map<std::string, double (*)(double)> functions{
      {"exp", [](double x) { return std::exp(x); }},      {"exp2", [](double x) { return std::exp2(x); }},
      {"log", [](double x) { return std::log(x); }},      {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }},  {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", [](double x) { return 1 / std::sqrt(x); }}, {"tanh", [](double x) { return std::tanh(x); }},
      {"sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }}};
  auto callee = ir::Op::from(call.op());
  std::string name = callee ? std::string(callee->name()) : "";
  size_t dot = name.find('.');  // tirx.exp2, prim.log2
  auto f = callee ? functions.find(name.substr(dot == std::string::npos ? 0 : dot + 1)) : functions.end();
  if (f == functions.end() || call.args().size() != 1) return std::nullopt;
  std::optional<double> x = constant_of(call.args()[0]);
  if (!x) return std::nullopt;
  return static_cast<double>(static_cast<float>(f->second(*x)));
}

std::optional<double> constant_of(const Any& e) {
  Any expr = strip_casts(e);
  if (auto i = ir::IntImm::from(expr)) return static_cast<double>(i->value());
  if (auto f = ir::FloatImm::from(expr)) return f->value();
  if (auto call = ir::Call::from(expr)) return folded_call(*call);
  // Arithmetic of float constants that TVM left because an operand was such a call (`1 - T.exp2(-5.0)`).
  auto both = [](const Any& a, const Any& b) -> std::optional<std::pair<double, double>> {
    if (ir::PrimType(ir::Expr(a).ty()).dtype().rfind("float", 0) != 0) return std::nullopt;
    auto x = constant_of(a);
    auto y = x ? constant_of(b) : std::nullopt;
    if (!y) return std::nullopt;
    return std::make_pair(*x, *y);
  };
  auto f32 = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  if (auto n = ir::Add::from(expr); n && both(n->a(), n->b())) return f32(*constant_of(n->a()) + *constant_of(n->b()));
  if (auto n = ir::Sub::from(expr); n && both(n->a(), n->b())) return f32(*constant_of(n->a()) - *constant_of(n->b()));
  if (auto n = ir::Mul::from(expr); n && both(n->a(), n->b())) return f32(*constant_of(n->a()) * *constant_of(n->b()));
  if (auto n = ir::Div::from(expr); n && both(n->a(), n->b())) return f32(*constant_of(n->a()) / *constant_of(n->b()));
  return std::nullopt;
}

// `value` in `op`'s form of one operand: a call of it, or its node with a constant (equal to the one the form
// requires, if any) on a side the form allows; x op c is tried before c op x.
static std::optional<Match> match_one(const eltwise::Op& op, const Any& value) {
  if (*op.call) {
    auto call = ir::Call::from(value);
    auto callee = call ? ir::Op::from(call->op()) : std::nullopt;
    if (!callee || callee->name() != op.call || call->args().size() != 1) return std::nullopt;
    return Match{&op, call->args()[0], 0.0};
  }
  auto operands = op.node && op.constant != Constant::kNone ? op.node(value) : std::nullopt;
  if (!operands) return std::nullopt;
  for (bool left : {false, true}) {
    if (op.constant != Constant::kEither && (op.constant == Constant::kLeft) != left) continue;
    auto c = constant_of(left ? operands->first : operands->second);
    if (c && (!op.value || *c == *op.value)) return Match{&op, left ? operands->second : operands->first, *c};
  }
  return std::nullopt;
}

std::optional<Match> first_match(Unit unit, const Any& value) {
  for (const eltwise::Op& op : eltwise::ops()) {
    if (op.unit != unit) continue;
    if (auto m = match_one(op, value)) return m;
  }
  return std::nullopt;
}

// The first binary entry (FPU or SFPU) whose node `value` is, with the node's operands.
const eltwise::Op* op_named(Unit unit, const std::string& name) {
  for (const eltwise::Op& op : eltwise::ops()) {
    if (op.unit == unit && name == op.name) return &op;
  }
  return nullptr;
}

std::vector<std::pair<std::string, Any>> eltwise_fields(const BufferInfo& out, const EltwiseUnits& units,
                                                        int64_t bits) {
  auto [rows, cols] = tiles(out, "on-chip buffer");
  return {{names::kBinary, String(units.binary)}, {names::kSfpuBinary, String(units.sfpu_binary)},
          {names::kSfpu, String(units.sfpu)},     {names::kTiles, Any(rows * cols)},
          {names::kScalarOp, String(units.scalar)}, {names::kScalarBits, Any(bits)},
          {names::kBcast, String(units.bcast)},   {names::kBcastDim, String(units.bcast_dim)},
          {names::kRows, Any(rows)},
          {names::kCols, Any(cols)},
          {names::kWhere, String(units.where)},   {names::kWhereValue, Any(units.where_value)},
          {names::kClamp, String(units.clamp)},   {names::kClampLo, Any(units.clamp_lo)},
          {names::kClampHi, Any(units.clamp_hi)}};
}

const eltwise::Op* binary_of(const Any& value, std::pair<Any, Any>* operands) {
  for (const eltwise::Op& op : eltwise::ops()) {
    if ((op.unit != Unit::kFpuBinary && op.unit != Unit::kSfpuBinary) || !op.node) continue;
    if (auto ab = op.node(value)) {
      *operands = *ab;
      return &op;
    }
  }
  return nullptr;
}

int64_t fp32_bits(double value) {
  float f = static_cast<float>(value);
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<int64_t>(bits);
}

namespace {

const eltwise::Op* literal_op() {
  for (const eltwise::Op& op : eltwise::ops()) {
    if (op.literal) return &op;
  }
  return nullptr;
}

std::string loop_names(const std::vector<Any>& lvars) {
  std::string out;
  for (const Any& v : lvars) out += (out.empty() ? "" : ", ") + format_value(v);
  return "(" + out + ")";
}

std::string op_name(const Any& call) {
  auto op = ir::Op::from(ir::Call(call).op());
  std::string name = op ? op->name() : format_value(ir::Call(call).op());
  size_t dot = name.rfind('.');
  return (name.rfind("tirx.", 0) == 0 ? "T." + name.substr(dot + 1) + " (" + name + ")" : name);
}

}  // namespace

// What the op map accepts, for messages.
std::string supported() {
  return " (supported: the functions " + eltwise::written({Unit::kSfpuUnary}) + "; " +
         eltwise::written({Unit::kFpuBinary, Unit::kSfpuBinary}) + " and a / b of two buffers, " +
         eltwise::written({Unit::kFpuBcastCols}) + " also of a block x[i, j] and a [block_M] column vector v[i], " +
         eltwise::written({Unit::kFpuBcastRows}) + " of a block and a 1-D tensor read whole as w[j]; " +
         eltwise::written({Unit::kSfpuScalar}) + " of a buffer and a constant; nested in any order; a buffer or its "
         "T.Cast; where each buffer is on-chip, of the store's shape and read at the loop indices; or a constant "
         "store)";
}

std::string constant_form_refusal() {
  return "combines a buffer and a constant in a form that has no tenstorrent element-wise lowering (with a constant: " +
         eltwise::written({Unit::kSfpuScalar}) + "; the functions " + eltwise::written({Unit::kSfpuUnary}) + ")";
}

// Why an operand of an element-wise store is not a tile the FPU/SFPU can read, in the kernel author's terms.
std::string refusal(const Any& expr, const BufferInfo& out, const std::vector<Any>& lvars) {
  if (auto load = ir::TensorLoad::from(expr)) {
    BufferInfo info = buffer_info(load->source());
    if (!info.on_chip()) return "reads tensor '" + info.name + "' in DRAM directly; T.copy it to an on-chip buffer first";
    if (info.shape != out.shape) {
      return "reads '" + info.name + "' of shape " + ints_str(info.shape) + " while the store covers " +
             ints_str(out.shape) + "; of other shapes only a [block_M] column vector read at the row index (v[i] in a "
             "[block_M, N] store) broadcasts" + supported();
    }
    return "reads '" + info.name + "' at other indices than the loop variables " + loop_names(lvars) +
           "; shifted or transposed element reads are not supported (T.gemm has transpose flags; T.copy can move a "
           "block)";
  }
  if (constant_of(expr)) {
    return "is a constant in a store that also combines two buffers; a constant works with one buffer only" +
           supported();
  }
  if (ir::Var::matches(expr)) return "is a scalar variable; scalar operands are not supported yet" + supported();
  if (ir::Call::matches(expr)) {
    return "calls " + op_name(expr) + ", which has no tenstorrent element-wise lowering" + supported();
  }
  return "has no tenstorrent element-wise lowering" + supported();
}

namespace {

// What an element-wise value lowers to: the op map's entries per tile-op field, and its buffers.
struct Lowered {
  std::string binary = "none", sfpu_binary = "none", sfpu = "none", scalar = "none";
  int64_t bits = 0;
  std::vector<BufferInfo> leaves;
};

Lowered lower_value(Any value, const std::string& text, const BufferInfo& out,
                    const std::function<BufferInfo(const Any&)>& leaf) {
  Lowered low;
  if (auto m = first_match(Unit::kSfpuUnary, value)) {
    if (m->op->scale) {  // the split (tile_ops_tree.cc) runs it as two ops; here it has no on-chip operand
      fail("element-wise store '" + text + "': " + m->op->written + " is two tile ops (the function, then a product "
           "with a constant), so its operand must be an on-chip value");
    }
    low.sfpu = m->op->name;
    value = strip_casts(m->operand);
  }
  std::pair<Any, Any> operands;
  if (auto m = first_match(Unit::kSfpuScalar, value)) {
    low.scalar = m->op->name;
    low.bits = fp32_bits(m->constant);
    low.leaves = {leaf(m->operand)};
  } else if (const eltwise::Op* op = binary_of(value, &operands)) {
    if (constant_of(operands.first) || constant_of(operands.second)) {
      fail("element-wise store '" + text + "': " + format_value(value) + " " + constant_form_refusal());
    }
    (op->unit == Unit::kFpuBinary ? low.binary : low.sfpu_binary) = op->name;
    BufferInfo lhs = leaf(operands.first);
    low.leaves = {lhs, leaf(operands.second)};
    if (op->unit == Unit::kSfpuBinary && lhs.dtype != low.leaves[1].dtype) {
      fail("element-wise store '" + text + "': " + op->written + " of '" + lhs.name + "' (" + lhs.dtype + ") and '" +
           low.leaves[1].name + "' (" + low.leaves[1].dtype + ") needs one dtype (both are copied into DST through "
           "one unpacker format); T.Cast one of them in a store of its own first");
    }
  } else {
    low.leaves = {leaf(value)};
    if (low.sfpu == "none" && low.leaves[0].dtype == out.dtype) {
      fail("element-wise store '" + text + "' is a plain copy; use T.copy");
    }
  }
  return low;
}

}  // namespace

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
  Any value = strip_casts(store.value());
  if (auto c = constant_of(value)) {  // a constant store: the op map's literal entry (a fill)
    if (literal_op() == nullptr) fail("element-wise store '" + text + "' stores a constant; use T.fill" + supported());
    auto [rows, cols] = tiles(out, "on-chip buffer");
    TileOp op{tile_op::kFill, loops[0], out};
    op.fields = {{names::kValue, Any(*c)}, {names::kTiles, Any(rows * cols)}};
    return op;
  }
  auto leaf = [&](const Any& operand) -> BufferInfo {
    Any expr = strip_casts(operand);
    if (auto load = ir::TensorLoad::from(expr)) {
      BufferInfo info = buffer_info(load->source());
      if (info.on_chip() && info.shape == out.shape && same_indices(load->indices(), lvars)) return info;
    }
    fail("element-wise store '" + text + "': operand " + format_value(expr) + " " + refusal(expr, out, lvars));
  };
  Lowered low = lower_value(value, text, out, leaf);
  TileOp op{tile_op::kEltwise, loops[0], out, low.leaves};
  op.fields = eltwise_fields(out, {low.binary, low.sfpu_binary, low.sfpu, low.scalar, "none"}, low.bits);
  return op;
}

}  // namespace tl::tileops
