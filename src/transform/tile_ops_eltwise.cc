// Recognition of element-wise T.Parallel stores (tile_ops_util.h): the store's value must be one FPU binary
// operation of two same-shape on-chip buffers read at the loop indices, or one operation of such a buffer and a
// constant (on the SFPU), optionally under one SFPU function, or one SFPU function of such a buffer. Each other
// form is refused with what it is and what is accepted.
#include <cstring>
#include <tuple>

#include "tile_ops_util.h"

namespace tl::tileops {

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

namespace {

// An operation of a buffer and a constant, which the SFPU does in place (binop_with_scalar): x + c, c + x, x - c,
// c - x (rsub), x * c, c * x, x / c. `bits`: the constant's fp32 bit pattern, as the API takes it.
struct ScalarOp {
  const char* op;
  Any operand;
  int64_t bits;
};

std::optional<double> constant_of(const Any& e) {
  Any expr = strip_casts(e);
  if (auto i = ir::IntImm::from(expr)) return static_cast<double>(i->value());
  if (auto f = ir::FloatImm::from(expr)) return f->value();
  return std::nullopt;
}

ScalarOp scalar_op(const char* op, const Any& operand, double value) {
  float f = static_cast<float>(value);
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return {op, operand, static_cast<int64_t>(bits)};
}

std::optional<ScalarOp> scalar_of(const Any& value) {
  if (auto d = ir::Div::from(value)) {
    if (auto c = constant_of(d->b())) return scalar_op("div", d->a().any(), *c);
    return std::nullopt;
  }
  auto bin = binary_of(value);
  if (!bin) return std::nullopt;
  auto [name, a, b] = *bin;
  std::string op = name;
  if (auto c = constant_of(b)) return scalar_op(op == "add" ? "add" : op == "sub" ? "sub" : "mul", a, *c);
  if (auto c = constant_of(a)) return scalar_op(op == "add" ? "add" : op == "sub" ? "rsub" : "mul", b, *c);
  return std::nullopt;
}

std::string loop_names(const std::vector<Any>& lvars) {
  std::string out;
  for (const Any& v : lvars) out += (out.empty() ? "" : ", ") + format_value(v);
  return "(" + out + ")";
}

const char* const kAccepted =
    " (accepted: one +, - or * of two on-chip buffers of the store's shape read at the loop indices, or one +, -, * "
    "or / of such a buffer and a constant, optionally under T.exp or T.max(x, 0), e.g. C[i, j] = T.exp(A[i, j] - "
    "B[i, j]) or C[i, j] = A[i, j] * 0.5)";

// Why an operand of an element-wise store is not a tile the FPU/SFPU can read, in the kernel author's terms.
std::string refusal(const Any& expr, const BufferInfo& out, const std::vector<Any>& lvars) {
  if (auto load = ir::TensorLoad::from(expr)) {
    BufferInfo info = buffer_info(load->source());
    if (!info.on_chip()) return "reads tensor '" + info.name + "' in DRAM directly; T.copy it to an on-chip buffer first";
    if (info.shape != out.shape) {
      return "reads '" + info.name + "' of shape " + ints_str(info.shape) + " while the store covers " +
             ints_str(out.shape) + "; broadcasting a buffer of another shape is not supported yet" + kAccepted;
    }
    return "reads '" + info.name + "' at other indices than the loop variables " + loop_names(lvars) +
           "; shifted or transposed element reads are not supported (T.gemm has transpose flags; T.copy can move a "
           "block)";
  }
  if (ir::IntImm::matches(expr) || ir::FloatImm::matches(expr)) {
    return "is a constant in a store that also combines two buffers; a constant works with one buffer only "
           "(C[i, j] = A[i, j] * 0.5)" + std::string(kAccepted);
  }
  if (ir::Var::matches(expr)) return "is a scalar variable; scalar operands are not supported yet" + std::string(kAccepted);
  if (auto call = ir::Call::from(expr)) {
    auto op = ir::Op::from(call->op());
    std::string name = op ? op->name() : format_value(call->op());
    if (sfpu_of(expr).first != "none") {
      return "applies " + name + " below another operation; an SFPU function (T.exp, T.max(x, 0)) must be the "
             "outermost operation of the store (write the inner result to its own buffer first)";
    }
    return "calls " + name + ", which has no tenstorrent element-wise lowering (supported: T.exp, and T.max(x, 0) as "
           "ReLU)";
  }
  if (ir::Div::matches(expr) || ir::FloorDiv::matches(expr)) {
    return "divides; element-wise division is not supported by the tenstorrent backend" + std::string(kAccepted);
  }
  if (binary_of(expr)) {
    return "is itself an arithmetic expression; one store holds one binary operation, so split it into two "
           "T.Parallel stores through an intermediate on-chip buffer";
  }
  return "is not a read of an on-chip buffer" + std::string(kAccepted);
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
  auto leaf = [&](const Any& operand) -> BufferInfo {
    Any expr = strip_casts(operand);
    if (auto load = ir::TensorLoad::from(expr)) {
      BufferInfo info = buffer_info(load->source());
      if (info.on_chip() && info.shape == out.shape && same_indices(load->indices(), lvars)) return info;
    }
    fail("element-wise store '" + text + "': operand " + format_value(expr) + " " + refusal(expr, out, lvars));
  };
  auto [sfpu, operand] = sfpu_of(strip_casts(store.value()));
  Any value = strip_casts(operand);
  std::string binary = "none";
  std::vector<BufferInfo> leaves;
  std::optional<ScalarOp> scalar = scalar_of(value);
  if (scalar) {
    leaves = {leaf(scalar->operand)};
  } else if (auto bin = binary_of(value)) {
    binary = std::get<0>(*bin);
    BufferInfo lhs = leaf(std::get<1>(*bin));
    leaves = {lhs, leaf(std::get<2>(*bin))};
  } else {
    leaves = {leaf(value)};
    if (sfpu == "none") fail("element-wise store '" + text + "' is a plain copy; use T.copy");
  }
  auto [rows, cols] = tiles(out, "on-chip buffer");
  TileOp op{"eltwise", loops[0], out, leaves};
  op.fields = {{names::kBinary, String(binary)},
               {names::kSfpu, String(sfpu)},
               {names::kTiles, Any(rows * cols)},
               {names::kScalarOp, String(scalar ? scalar->op : "none")},
               {names::kScalarBits, Any(scalar ? scalar->bits : int64_t(0))}};
  return op;
}

}  // namespace tl::tileops
