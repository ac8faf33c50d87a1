// The runtime of the spec expression language (expr_runtime.h).
#include "expr_runtime.h"

#include <cmath>
#include <limits>

#include "ir_nodes.h"
#include "records.h"

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
  internal_error(std::string("spec expression uses '") + name + "', which this rule does not provide");
}

std::string Message::format(const Ctx& ctx) const {
  std::string out;
  for (const Piece& piece : pieces) {
    out += piece.literal;
    if (piece.name.empty()) continue;
    Any value = piece.value ? *piece.value : ctx.get(piece.name.c_str());
    for (const Any& step : piece.path) {
      value = is_str(step) ? attr(value, as_str(step).c_str()) : item(value, step);
    }
    out += format_value(value);
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

// ------------------------------------------------------------------------------------------- operators

static bool numeric(const Any& v) { return is_bool(v) || is_int(v) || is_float(v); }

static int64_t floor_div(int64_t a, int64_t b) {
  if (b == 0) internal_error("division by zero in a spec expression");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

static int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

// A binary operator on two plain numbers: float if either is, else int.
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
  if (numeric(a) && numeric(b)) return native(a, b, floor_div, [](double x, double y) { return std::floor(x / y); });
  return call("prim._OpFloorDiv", a, b, Any(nullptr));
}

Any mod(const Any& a, const Any& b) {
  if (numeric(a) && numeric(b)) {
    return native(a, b, floor_mod, [](double x, double y) { return x - std::floor(x / y) * y; });
  }
  return call("prim._OpFloorMod", a, b, Any(nullptr));
}

Any neg(const Any& a) {
  if (is_float(a)) return Any(-as_float(a));
  if (numeric(a)) return Any(-as_int(a));
  std::string dtype = ir::PrimType(ir::Expr(a).ty()).dtype();
  return call("prim._OpMul", a, make_const(Any(int64_t(-1)), dtype.c_str()), Any(nullptr));
}

std::optional<Any> const_value(const Any& v) {
  if (is_plain(v)) return v;
  if (auto imm = ir::IntImm::from(v)) return Any(imm->value());
  if (auto imm = ir::FloatImm::from(v)) return Any(imm->value());
  return std::nullopt;
}

Any expr(const Any& v) {
  if (is_bool(v)) return make_const(v, "bool");
  if (is_int(v)) return make_const(v, "int32");
  return v;
}

static bool plain_less(const Any& a, const Any& b) {
  if (is_str(a) && is_str(b)) return as_str(a) < as_str(b);
  if (is_float(a) || is_float(b)) return as_float(a) < as_float(b);
  return as_int(a) < as_int(b);
}

// Constant operands compare to a bool; otherwise the comparison is a TIR expression.
template <typename Op>
static Any compare(const Any& a, const Any& b, const char* tir_op, Op op) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return Any(op(*ca, *cb));
  return call(tir_op, expr(a), expr(b), Any(nullptr));
}

Any eq(const Any& a, const Any& b) { return compare(a, b, "prim.EQ", values_equal); }
Any ne(const Any& a, const Any& b) {
  return compare(a, b, "prim.NE", [](const Any& x, const Any& y) { return !values_equal(x, y); });
}
Any lt(const Any& a, const Any& b) { return compare(a, b, "prim.LT", plain_less); }
Any le(const Any& a, const Any& b) {
  return compare(a, b, "prim.LE", [](const Any& x, const Any& y) { return !plain_less(y, x); });
}
Any gt(const Any& a, const Any& b) {
  return compare(a, b, "prim.GT", [](const Any& x, const Any& y) { return plain_less(y, x); });
}
Any ge(const Any& a, const Any& b) {
  return compare(a, b, "prim.GE", [](const Any& x, const Any& y) { return !plain_less(x, y); });
}

// `and`/`or` drop constant operands that cannot decide the result and stop at one that does, so a condition
// with symbolic parts is a TIR expression over those parts only.
static Any logic(std::initializer_list<Any> values, bool decisive, const char* tir_op) {
  Any out(!decisive);
  bool symbolic = false;
  for (const Any& v : values) {
    auto c = const_value(v);
    if (c) {
      if (truthy(*c) == decisive) return Any(decisive);
      continue;
    }
    out = symbolic ? call(tir_op, out, v, Any(nullptr)) : v;
    symbolic = true;
  }
  return out;
}

Any and_(std::initializer_list<Any> values) { return logic(values, false, "prim.And"); }
Any or_(std::initializer_list<Any> values) { return logic(values, true, "prim.Or"); }

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

// ------------------------------------------------------------------------------------------- functions

Any is_const(const Any& v) { return Any(const_value(v).has_value()); }

Any ceildiv(const Any& a, const Any& b) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return Any(-floor_div(-as_int(*ca), as_int(*cb)));
  return floordiv(sub(add(a, b), Any(int64_t(1))), b);
}

// min and max return the first operand on a tie.
Any min(const Any& a, const Any& b) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return plain_less(*cb, *ca) ? *cb : *ca;
  return call("prim.Min", expr(a), expr(b), Any(nullptr));
}

Any max(const Any& a, const Any& b) {
  auto ca = const_value(a), cb = const_value(b);
  if (ca && cb) return plain_less(*ca, *cb) ? *cb : *ca;
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
  if (best == 0) internal_error("largest_divisor(" + format_value(n) + ", " + format_value(cap) + "): no divisor");
  return Any(best);
}

Any aligned(const Any& value, const Any& n) {
  auto c = const_value(value);
  if (c) return Any(floor_mod(as_int(*c), as_int(n)) == 0);
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  Any rem = call("prim._OpFloorMod", value, n, Any(nullptr));
  Any is_zero = call("prim._OpEQ", rem, Any(int64_t(0)), Any(nullptr));
  return Any(truthy(call("sym.AnalyzerCanProve", analyzer, is_zero, 0)));
}

static Dict data_formats() { return as_dict(attr(device(), "DATA_FORMATS")); }

Any supported_dtype(const Any& dtype) { return Any(data_formats().count(String(format_value(dtype))) != 0); }

// (format name, bytes per element) of a dtype.
static Any data_format_entry(const Any& dtype) { return item(data_formats(), Any(String(format_value(dtype)))); }

Any data_format(const Any& dtype) { return item(data_format_entry(dtype), Any(int64_t(0))); }

Any dtype_bytes(const Any& dtype) { return item(data_format_entry(dtype), Any(int64_t(1))); }

// Block-float DRAM formats (the backend's dram_formats): name -> (tt::DataFormat, tile bytes, value).
static Dict dram_formats() { return as_dict(attr(device(), "DRAM_FORMATS")); }

Any dram_format(const Any& name, const Any& formats) {
  Dict chosen = as_dict(formats);
  String key(as_str(name));
  return chosen.count(key) ? Any(String(as_str(item(chosen, Any(key))))) : Any(String(""));
}

Any tensor_option(const Any& name, const Any& options) { return dram_format(name, options); }  // the same lookup

Any known_dram_format(const Any& format) { return Any(dram_formats().count(String(as_str(format))) != 0); }

// "" and 0 for a name that is no DRAM format, so that both arms of a select can be evaluated.
Any block_format(const Any& format) {
  return truthy(known_dram_format(format)) ? item(item(dram_formats(), format), Any(int64_t(0))) : Any(String(""));
}

Any block_tile_bytes(const Any& format) {
  return truthy(known_dram_format(format)) ? item(item(dram_formats(), format), Any(int64_t(1))) : Any(int64_t(0));
}

Any noc_x(const Any& x, const Any& y) { return dict({{String(records::noc_x::kNocX), list({as_int(x), as_int(y)})}}); }

Any noc_y(const Any& x, const Any& y) { return dict({{String(records::noc_y::kNocY), list({as_int(x), as_int(y)})}}); }

Any infinity() { return Any(std::numeric_limits<double>::infinity()); }

Any runtime_value(const Any& v) { return is_dict(v) ? v : Any(as_int(v)); }

void check_choice(const std::string& name, const Any& value, std::initializer_list<const char*> choices) {
  std::string joined;
  for (const char* choice : choices) {
    if (values_equal(value, Any(String(choice)))) return;
    joined += (joined.empty() ? "" : ", ") + std::string(choice);
  }
  internal_error("protocol parameter '" + name + "' is '" + format_value(value) + "'; expected one of " + joined);
}

}  // namespace fn
}  // namespace tl
