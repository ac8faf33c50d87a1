// Intrinsic calls and the statement builder (builder.h).
#include "builder.h"

#include <algorithm>
#include <limits>

namespace tl {

bool Intrinsic::has_role(const std::string& role) const {
  return std::find(roles.begin(), roles.end(), role) != roles.end();
}

const Intrinsic& intrinsic(const std::string& name) {
  const Intrinsic* record = find_intrinsic(name);
  if (record == nullptr) internal_error("unknown intrinsic '" + name + "'");
  return *record;
}

const Intrinsic* intrinsic_of(const Any& expr) {
  auto call_expr = ir::Call::from(expr);
  if (!call_expr) return nullptr;
  auto op = ir::Op::from(call_expr->op());
  return op ? find_intrinsic_op(op->name()) : nullptr;
}

// An argument of type `type` as an IR value; plain ints are int32 constants, except a uint32 argument beyond the
// int32 range (an fp32 bit pattern), which is an unsigned constant.
static Any call_arg(const Any& value, const std::string& type) {
  if (is_bool(value)) return int_imm(value.cast<bool>() ? 1 : 0, "int32");
  if (is_int(value)) {
    int64_t v = value.cast<int64_t>();
    return int_imm(v, type == "uint32" && v > std::numeric_limits<int32_t>::max() ? "uint32" : "int32");
  }
  if (is_float(value)) return float_imm(value.cast<double>(), "float32");
  if (is_str(value)) return string_imm(as_str(value));
  return value;
}

Any tt_call(const std::string& name, const std::vector<Any>& args) {
  const Intrinsic& record = intrinsic(name);
  List converted;
  for (size_t i = 0; i < args.size(); ++i) {
    converted.push_back(call_arg(args[i], i < record.args.size() ? record.args[i].second : std::string()));
  }
  return call_intrin(record.dtype, record.op_name, converted);
}

std::vector<std::pair<std::string, Any>> named_args(const Intrinsic& record, const Any& call) {
  List values = ir::Call(call).args();
  if (values.size() != record.args.size()) {
    internal_error(record.op_name + " takes " + std::to_string(record.args.size()) + " arguments, got " +
                   std::to_string(values.size()));
  }
  std::vector<std::pair<std::string, Any>> out;
  for (size_t i = 0; i < values.size(); ++i) {
    Any value = values[i];
    if (ir::IntImm::matches(value) || ir::FloatImm::matches(value) || ir::StringImm::matches(value)) {
      value = to_plain(value);
    }
    out.emplace_back(record.args[i].first, value);
  }
  return out;
}

Builder::Builder(std::string profile) : profile_(std::move(profile)), frames_(1) {}

void Builder::emit(const Any& stmt) {
  frames_.back().push_back(stmt);
  has_last_when_ = false;
}

void Builder::call(const std::string& name, const std::vector<Any>& args) { emit(evaluate(tt_call(name, args))); }

Any Builder::bind(const std::string& name, const std::string& callee, const std::vector<Any>& args) {
  Any value = tt_call(callee, args);
  auto type = ir::PrimType::from(ir::Expr(value).ty());
  std::string dtype = type ? type->dtype() : "handle";
  if (intrinsic(callee).returns == "uint32") {
    value = cast("int32", value);
    dtype = "int32";
  }
  Any v = var(name, dtype);
  emit(tl::bind(v, value));
  return v;
}

void Builder::repeat(const std::string& name, const Any& count, const std::function<void(const Any&)>& body) {
  auto c = fn::const_value(count);
  if (c && as_int(*c) < 0) {  // a loop that runs no iteration would silently drop the protocol's steps
    fail("a protocol step repeats '" + name + "' " + std::to_string(as_int(*c)) +
         " times: its count expression must not be negative");
  }
  bool once = c && as_int(*c) == 1;
  frames_.emplace_back();
  Any v = once ? int_imm(0) : var(name, "int32");
  body(once ? Any(int64_t(0)) : v);
  std::vector<Any> inner = std::move(frames_.back());
  frames_.pop_back();
  if (once) {
    for (const Any& s : inner) emit(s);
  } else if (!c || as_int(*c) != 0) {
    emit(for_loop(v, int_imm(0), fn::expr(count), 0, seq(inner)));
  }
}

void Builder::when(const Any& cond, const std::function<void()>& body) {
  auto c = fn::const_value(cond);
  frames_.emplace_back();
  // A constant-false branch is not built: its calls may name what does not exist (an op map entry "none").
  if (!c || truthy(*c)) body();
  std::vector<Any> inner = std::move(frames_.back());
  frames_.pop_back();
  if (!c) {
    emit(if_then_else(cond, seq(inner)));
    last_cond_ = cond;
    last_index_ = static_cast<int64_t>(frames_.back().size()) - 1;
  } else {
    if (truthy(*c)) {
      for (const Any& s : inner) emit(s);
    }
    last_cond_ = Any(truthy(*c));
    last_index_ = -1;
  }
  has_last_when_ = true;
}

void Builder::otherwise(const std::function<void()>& body) {
  if (!has_last_when_) internal_error("otherwise() must follow a when() block");
  Any cond = last_cond_;
  int64_t index = last_index_;
  frames_.emplace_back();
  if (index >= 0 || !truthy(cond)) body();  // not built when the condition folded to true
  std::vector<Any> inner = std::move(frames_.back());
  frames_.pop_back();
  if (index >= 0) {
    std::vector<Any>& frame = frames_.back();
    frame[index] = if_then_else(cond, ir::IfThenElse(frame[index]).then_case(), seq(inner));
  } else if (!truthy(cond)) {
    for (const Any& s : inner) emit(s);
  }
  has_last_when_ = false;
}

Any Builder::finish() {
  if (frames_.size() != 1) internal_error("unbalanced builder frames");
  return seq(frames_[0]);
}

}  // namespace tl
