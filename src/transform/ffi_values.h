// The values the engines compute with, written against tvm-ffi alone (the apache-tvm wheel ships no IR headers).
//
// Everything is an ffi::Any: int64/bool/double/String for the spec language's numbers and strings, Array for its
// sequences, Map for its dicts and namespaces (`device`, `options`, a buffer), IR objects for symbolic values.
// TVM is reached through the global functions it registers, and errors through the kinds tilelang registers.
#pragma once

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Function;
using ffi::String;
using List = ffi::Array<Any>;
using Dict = ffi::Map<Any, Any>;

/*! \brief A registered global function (looked up once per name). */
const Function& global(const char* name);

template <typename... Args>
Any call(const char* name, Args&&... args) {
  return global(name)(std::forward<Args>(args)...);
}

// ------------------------------------------------------------------------------------------------ errors

/*! \brief A kernel the Tenstorrent backend cannot lower (tilelang.errors.TTLoweringError). */
[[noreturn]] void fail(const std::string& message);
/*! \brief A kernel another lowering cannot handle (tilelang.errors.TileLangError). */
[[noreturn]] void fail_tilelang(const std::string& message);
/*! \brief A broken invariant of the engines or of a spec the generator let through (RuntimeError). */
[[noreturn]] void internal_error(const std::string& message);

// ------------------------------------------------------------------------------------------------ values

bool is_none(const Any& v);
bool is_bool(const Any& v);
bool is_int(const Any& v);  // not a bool
bool is_float(const Any& v);
bool is_str(const Any& v);
bool is_list(const Any& v);  // Array (or ffi List)
bool is_dict(const Any& v);  // Map
/*! \brief bool, int, float or str: a constant the spec language computes with directly. */
bool is_plain(const Any& v);

int64_t as_int(const Any& v);      // int or bool, or an IntImm
double as_float(const Any& v);     // int, bool or float, or an IntImm/FloatImm
std::string as_str(const Any& v);  // str, or a StringImm
List as_list(const Any& v);
Dict as_dict(const Any& v);
/*! \brief The truth of a condition: zero, empty and None are false, anything else (IR objects too) is true. */
bool truthy(const Any& v);
/*! \brief Equality of the spec language: numbers by value (1 == 1.0), strings by text, sequences and dicts
 * element-wise, IR objects by identity. */
bool values_equal(const Any& a, const Any& b);

/*! \brief Build values: list({1, 2}), dict({{"a", 1}}) (insertion order kept). */
List list(std::initializer_list<Any> items);
Dict dict(std::initializer_list<std::pair<Any, Any>> items);

/*! \brief A namespace field and a constant index: attr(buffer, "shape"), item(shape, 0), item(shape, -1),
 * item(formats, "float16"). */
Any attr(const Any& ns, const char* name);
Any item(const Any& container, const Any& key);

/*! \brief A value as an error message shows it: strings as they are, numbers in decimal, sequences in tuple
 * notation ("(64, 32)", "(64,)"; shapes, TILE and CORE_GRID are printed this way), IR objects as TVMScript
 * prints them ("A", "by * 48 + 16"). */
std::string format_value(const Any& v);

}  // namespace tl
