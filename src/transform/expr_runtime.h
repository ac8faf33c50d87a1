// The runtime of the spec expression language.
//
// generator/expressions.py renders every spec expression to a lambda over a Ctx that calls these functions.
// Constant operands (IntImm included) fold to plain values, so a rule sees a number whether a count was written
// as a literal or reached the pass as an IR constant; anything symbolic builds TIR through TVM's operators.
// `//` and `%` round toward negative infinity, as TIR's floordiv/floormod do.
#pragma once

#include <optional>

#include "ir_build.h"

namespace tl {

/*! \brief The names an expression may use, with their values. */
class Ctx {
 public:
  Ctx() = default;
  Ctx(std::initializer_list<std::pair<std::string, Any>> items);
  /*! \brief Add or replace a name. */
  Ctx& set(const std::string& name, Any value);
  bool has(const std::string& name) const;
  const Any& get(const char* name) const;

 private:
  std::vector<std::pair<std::string, Any>> items_;
};

using Expr = std::function<Any(const Ctx&)>;

/*! \brief A spec error message: literal text and `{name.field[index]}` replacement fields, each shown as
 * format_value shows it. */
struct Message {
  struct Piece {
    std::string literal;
    std::string name;       // empty: no field after the literal
    std::vector<Any> path;  // String: attribute, int: index
    std::optional<Any> value = std::nullopt;  // the name's value where the rule was rendered (device, options)
  };
  std::vector<Piece> pieces;
  std::string format(const Ctx& ctx) const;
};

struct Check {
  Expr expr;
  Message message;
};
using Checks = std::vector<Check>;

/*! \brief Raise the lowering error of the first failing check: "<where> <message>" (message alone if
 * `where` is empty). */
void check(const Checks& checks, const std::string& where, const Ctx& ctx);

namespace fn {

// Operators: plain numbers compute directly, anything symbolic goes to TVM.
Any add(const Any& a, const Any& b);
Any sub(const Any& a, const Any& b);
Any mul(const Any& a, const Any& b);
Any floordiv(const Any& a, const Any& b);
Any mod(const Any& a, const Any& b);
Any neg(const Any& a);
Any eq(const Any& a, const Any& b);
Any ne(const Any& a, const Any& b);
Any lt(const Any& a, const Any& b);
Any le(const Any& a, const Any& b);
Any gt(const Any& a, const Any& b);
Any ge(const Any& a, const Any& b);
Any and_(std::initializer_list<Any> values);
Any or_(std::initializer_list<Any> values);
Any not_(const Any& v);
Any select(const Any& cond, const Any& a, const Any& b);

/*! \brief The plain value of a constant (an IntImm/FloatImm or a plain value), nullopt for a symbolic one. */
std::optional<Any> const_value(const Any& v);
/*! \brief A TIR operand: bool and int become TIR constants, anything else is returned as it is. */
Any expr(const Any& v);

// The functions spec expressions may call (generator/expressions.py lists them).
Any is_const(const Any& v);
Any ceildiv(const Any& a, const Any& b);
Any min(const Any& a, const Any& b);
Any max(const Any& a, const Any& b);
Any prod(const Any& values);
Any len(const Any& values);
Any largest_divisor(const Any& n, const Any& cap);
Any aligned(const Any& value, const Any& n);
Any supported_dtype(const Any& dtype);
Any data_format(const Any& dtype);
Any dtype_bytes(const Any& dtype);
Any dram_format(const Any& name, const Any& formats);
Any tensor_option(const Any& name, const Any& options);
Any known_dram_format(const Any& format);
Any block_format(const Any& format);
Any block_tile_bytes(const Any& format);
Any noc_x(const Any& x, const Any& y);
Any noc_y(const Any& x, const Any& y);
Any infinity();

/*! \brief A per-core runtime argument value: a host-side value (a dict such as noc_x's) or an integer. */
Any runtime_value(const Any& v);

/*! \brief A protocol parameter with `choices` must hold one of them. */
void check_choice(const std::string& name, const Any& value, std::initializer_list<const char*> choices);

}  // namespace fn

// Literals of rendered expressions.
inline Any num(int64_t v) { return Any(v); }
inline Any real(double v) { return Any(v); }
inline Any boolean(bool v) { return Any(v); }
inline Any str(const char* v) { return Any(String(v)); }

/*! \brief The device facts of the backend spec as a namespace value (generated: device.cc). */
const Dict& device();

}  // namespace tl
