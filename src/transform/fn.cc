// Implementation of fn.h, line for line the semantics of tilelang/tenstorrent/fn.py and Python's operators.
#include "fn.h"

#include <cmath>

namespace tl {

// -------------------------------------------------------------------------------------------------- Ctx

Ctx::Ctx(std::initializer_list<std::pair<std::string, Any>> items) : items_(items) {}

Ctx& Ctx::set(const std::string& name, Any value) {
  for (auto& item : items_) {
    if (item.first == name) {
      item.second = std::move(value);
      return *this;
    }
  }
  items_.emplace_back(name, std::move(value));
  return *this;
}

bool Ctx::has(const std::string& name) const {
  for (const auto& item : items_) {
    if (item.first == name) return true;
  }
  return false;
}

const Any& Ctx::get(const char* name) const {
  for (const auto& item : items_) {
    if (item.first == name) return item.second;
  }
  fail_kind("TypeError", std::string("spec expression uses '") + name + "', which this rule does not provide");
}

std::string Message::format(const Ctx& ctx) const {
  std::string out;
  for (const Piece& piece : pieces) {
    out += piece.literal;
    if (piece.name.empty()) continue;
    Any value = ctx.get(piece.name.c_str());
    for (const Any& step : piece.path) {
      value = is_str(step) ? attr(value, as_str(step).c_str()) : item(value, step);
    }
    out += py_str(value);
  }
  return out;
}

void check(const Checks& checks, const std::string& where, const Ctx& ctx) {
  for (const Check& c : checks) {
    if (!truthy(c.expr(ctx))) {
      std::string text = c.message.format(ctx);
      fail(where.empty() ? text : where + " " + text);
    }
  }
}

namespace fn {

// ------------------------------------------------------------------------------------------- arithmetic

static bool numeric(const Any& v) { return is_bool(v) || is_int(v) || is_float(v); }

static int64_t py_floordiv(int64_t a, int64_t b) {
  if (b == 0) fail_kind("ZeroDivisionError", "integer division or modulo by zero");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

static int64_t py_mod(int64_t a, int64_t b) { return a - py_floordiv(a, b) * b; }

template <typename IntOp, typename FloatOp>
static Any native(const Any& a, const Any& b, IntOp int_op, FloatOp float_op) {
  if (is_float(a) || is_float(b)) return Any(float_op(as_float(a), as_float(b)));
  return Any(int_op(as_int(a), as_int(b)));
}

Any add(const Any& a, const Any& b) {
  if (is_str(a) && is_str(b)) return Any(String(as_str(a) + as_str(b)));
  if (numeric(a) && numeric(b)) {
    return native(a, b, [](int64_t x, int64_t y) { return x + y; }, [](double x, double y) { return x + y; });
  }
  return call("prim._OpAdd", a, b, Any(nullptr));
}

Any sub(const Any& a, const Any& b) {
  if (numeric(a) && numeric(b)) {
    return native(a, b, [](int64_t x, int64_t y) { return x - y; }, [](double x, double y) { return x - y; });
  }
  return call("prim._OpSub", a, b, Any(nullptr));
}

Any mul(const Any& a, const Any& b) {
  if (numeric(a) && numeric(b)) {
    return native(a, b, [](int64_t x, int64_t y) { return x * y; }, [](double x, double y) { return x * y; });
  }
  return call("prim._OpMul", a, b, Any(nullptr));
}

Any floordiv(const Any& a, const Any& b) {
  if (numeric(a) && numeric(b)) {
    return native(a, b, py_floordiv, [](double x, double y) { return std::floor(x / y); });
  }
  return call("prim._OpFloorDiv", a, b, Any(nullptr));
}

Any mod(const Any& a, const Any& b) {
  if (numeric(a) && numeric(b)) {
    return native(a, b, py_mod, [](double x, double y) { return x - std::floor(x / y) * y; });
  }
  return call("prim._OpFloorMod", a, b, Any(nullptr));
}

Any neg(const Any& a) {
  if (is_float(a)) return Any(-as_float(a));
  if (numeric(a)) return Any(-as_int(a));
  std::string dtype = py_str(field(field(a, "ty"), "dtype"));
  return call("prim._OpMul", a, make_const(Any(int64_t(-1)), dtype.c_str()), Any(nullptr));
}

// ----------------------------------------------------------------------------------------- fn.py functions

std::optional<Any> const_value(const Any& v) {
  if (is_native(v)) return v;
  if (is_a(v, "ir.IntImm") || is_a(v, "ir.FloatImm")) return field(v, "value");
  return std::nullopt;
}

Any expr(const Any& v) {
  if (is_bool(v)) return make_const(v, "bool");
  if (is_int(v)) return make_const(v, "int32");
  return v;
}

Any is_const(const Any& v) { return Any(const_value(v).has_value()); }

static bool native_less(const Any& a, const Any& b) {
  if (is_str(a) && is_str(b)) return as_str(a) < as_str(b);
  if (is_float(a) || is_float(b)) return as_float(a) < as_float(b);
  return as_int(a) < as_int(b);
}

template <typename Op>
static Any compare(const Any& a, const Any& b, const char* tir_op, Op op) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return Any(op(*ca, *cb));
  return call(tir_op, expr(a), expr(b), Any(nullptr));
}

Any eq(const Any& a, const Any& b) { return compare(a, b, "prim.EQ", py_equal); }
Any ne(const Any& a, const Any& b) {
  return compare(a, b, "prim.NE", [](const Any& x, const Any& y) { return !py_equal(x, y); });
}
Any lt(const Any& a, const Any& b) { return compare(a, b, "prim.LT", native_less); }
Any le(const Any& a, const Any& b) {
  return compare(a, b, "prim.LE", [](const Any& x, const Any& y) { return !native_less(y, x); });
}
Any gt(const Any& a, const Any& b) {
  return compare(a, b, "prim.GT", [](const Any& x, const Any& y) { return native_less(y, x); });
}
Any ge(const Any& a, const Any& b) {
  return compare(a, b, "prim.GE", [](const Any& x, const Any& y) { return !native_less(x, y); });
}

Any and_(std::initializer_list<Any> values) {
  Any out(true);
  bool folded = true;  // `out` is still the Python True
  for (const Any& v : values) {
    auto c = const_value(v);
    if (c) {
      if (!truthy(*c)) return Any(false);
      continue;
    }
    out = folded ? v : call("prim.And", out, v, Any(nullptr));
    folded = false;
  }
  return out;
}

Any or_(std::initializer_list<Any> values) {
  Any out(false);
  bool folded = true;
  for (const Any& v : values) {
    auto c = const_value(v);
    if (c) {
      if (truthy(*c)) return Any(true);
      continue;
    }
    out = folded ? v : call("prim.Or", out, v, Any(nullptr));
    folded = false;
  }
  return out;
}

Any not_(const Any& v) {
  auto c = const_value(v);
  if (c) return Any(!truthy(*c));
  return call("prim.Not", v, Any(nullptr));
}

Any select(const Any& cond, const Any& a, const Any& b) {
  auto c = const_value(cond);
  if (c) return truthy(*c) ? a : b;
  return call("prim.Select", cond, expr(a), expr(b), Any(nullptr));
}

Any ceildiv(const Any& a, const Any& b) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return Any(-py_floordiv(-as_int(*ca), as_int(*cb)));
  return floordiv(sub(add(a, b), Any(int64_t(1))), b);
}

Any min(const Any& a, const Any& b) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return native_less(*cb, *ca) ? *cb : *ca;  // x if x <= y else y
  return call("prim.Min", expr(a), expr(b), Any(nullptr));
}

Any max(const Any& a, const Any& b) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return native_less(*ca, *cb) ? *cb : *ca;  // x if x >= y else y
  return call("prim.Max", expr(a), expr(b), Any(nullptr));
}

Any prod(const Any& values) {
  Any out(int64_t(1));
  for (const Any& v : as_list(values)) out = mul(out, v);
  return out;
}

Any len(const Any& values) {
  if (is_dict(values)) return Any(static_cast<int64_t>(as_dict(values).size()));
  return Any(static_cast<int64_t>(as_list(values).size()));
}

Any largest_divisor(const Any& n, const Any& cap) {
  int64_t value = as_int(n), limit = std::min(value, as_int(cap));
  int64_t best = 0;
  for (int64_t d = 1; d <= limit; ++d) {
    if (value % d == 0) best = d;
  }
  if (best == 0) fail_kind("ValueError", "max() arg is an empty sequence");
  return Any(best);
}

Any aligned(const Any& value, const Any& n) {
  auto c = const_value(value);
  if (c) return Any(py_mod(as_int(*c), as_int(n)) == 0);
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  Any rem = call("prim._OpFloorMod", value, n, Any(nullptr));
  Any is_zero = call("prim._OpEQ", rem, Any(int64_t(0)), Any(nullptr));
  return Any(truthy(call("sym.AnalyzerCanProve", analyzer, is_zero, 0)));
}

static Any data_format_entry(const Any& dtype) {
  return item(attr(device(), "DATA_FORMATS"), Any(String(py_str(dtype))));
}

Any supported_dtype(const Any& dtype) {
  std::string name = py_str(dtype);
  for (const auto& kv : as_dict(attr(device(), "DATA_FORMATS"))) {
    if (as_str(kv.first) == name) return Any(true);
  }
  return Any(false);
}

Any data_format(const Any& dtype) { return item(data_format_entry(dtype), Any(int64_t(0))); }

Any dtype_bytes(const Any& dtype) { return item(data_format_entry(dtype), Any(int64_t(1))); }

void check_choice(const std::string& name, const Any& value, std::initializer_list<const char*> choices) {
  std::string joined;
  for (const char* choice : choices) {
    if (py_equal(value, Any(String(choice)))) return;
    joined += (joined.empty() ? "" : ", ") + std::string(choice);
  }
  fail_kind("ValueError", "protocol parameter '" + name + "' is " + py_repr(value) + "; expected one of " + joined);
}

Any noc_x(const Any& x, const Any& y) { return dict({{String("noc_x"), list({as_int(x), as_int(y)})}}); }

Any noc_y(const Any& x, const Any& y) { return dict({{String("noc_y"), list({as_int(x), as_int(y)})}}); }

Any runtime_value(const Any& v) { return is_dict(v) ? v : Any(as_int(v)); }

}  // namespace fn
}  // namespace tl
