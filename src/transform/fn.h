// Runtime of the spec expression language in C++ (the twin of tilelang/tenstorrent/fn.py).
//
// generator/expressions.py renders every spec expression to a lambda over a Ctx, calling these functions:
// arithmetic computes natively on Python-like values and builds TIR through TVM's operator functions
// otherwise (as Python's operators on PrimExprs do); comparisons, logic and the named functions fold
// constant operands (IntImm included) like fn.py, so both renderings produce the same values.
#pragma once

#include "support.h"

namespace tl {

/*! \brief The names an expression may use, with their values (Python: the lambda's keyword arguments). */
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

/*! \brief A spec error message: literal text and `{name.field[index]}` replacement fields, formatted with
 * Python's str() of each value (str.format semantics). */
struct Message {
  struct Piece {
    std::string literal;
    std::string name;       // empty: no field after the literal
    std::vector<Any> path;  // String: attribute, int: index
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

// Arithmetic (Python operators): native values compute natively, anything symbolic goes to TVM.
Any add(const Any& a, const Any& b);
Any sub(const Any& a, const Any& b);
Any mul(const Any& a, const Any& b);
Any floordiv(const Any& a, const Any& b);
Any mod(const Any& a, const Any& b);
Any neg(const Any& a);

// fn.py functions.
std::optional<Any> const_value(const Any& v);
Any expr(const Any& v);  // fn._expr: bool/int -> TIR constants
Any is_const(const Any& v);
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
void check_choice(const std::string& name, const Any& value, std::initializer_list<const char*> choices);
Any noc_x(const Any& x, const Any& y);
Any noc_y(const Any& x, const Any& y);
Any runtime_value(const Any& v);

}  // namespace fn

// Literals of rendered expressions.
inline Any num(int64_t v) { return Any(v); }
inline Any real(double v) { return Any(v); }
inline Any boolean(bool v) { return Any(v); }
inline Any str(const char* v) { return Any(String(v)); }

/*! \brief The device facts of the backend spec as a namespace value (generated: device.cc). */
const Dict& device();

}  // namespace tl
