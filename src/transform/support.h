// Typed helpers for the C++ passes, written against tvm-ffi alone (the apache-tvm wheel ships no IR headers).
//
// IR nodes are ffi::Any values: fields are read through reflection, nodes are built with the constructors
// TVM registers as global functions, and traversal uses the ffi.StructuralMap/Walk engine, exactly the calls
// the Python passes make, so both renderings build structurally equal IR. Values of the spec expression
// language are ffi::Any too: int64/bool/double/String for Python's int/bool/float/str, Array for lists and
// tuples, Map for dicts and namespaces, and PrimExpr objects for symbolic values.
#pragma once

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tl {

namespace ffi = tvm::ffi;
using ffi::Any;
using ffi::Function;
using ffi::String;
using List = ffi::Array<Any>;
using Dict = ffi::Map<Any, Any>;

// ------------------------------------------------------------------------------------------ globals, types

/*! \brief A registered global function (looked up once per name). */
const Function& global(const char* name);

template <typename... Args>
Any call(const char* name, Args&&... args) {
  return global(name)(std::forward<Args>(args)...);
}

/*! \brief The type index of a registered type key (cached). */
int32_t type_index(const char* type_key);

/*! \brief isinstance: the value's type is `type_key` or derives from it. */
bool is_a(const Any& value, const char* type_key);

/*! \brief A reflected field of an IR object (inherited fields included), e.g. field(loop, "extent"). */
Any field(const Any& obj, const char* name);

/*! \brief The type key of an object value ("tirx.For"), or of the POD kind ("int", "str", ...). */
std::string type_key(const Any& value);

// ------------------------------------------------------------------------------------------------ errors

/*! \brief Throw the backend's lowering error (Python: tilelang.tenstorrent.ir.TTLoweringError). */
[[noreturn]] void fail(const std::string& message);
/*! \brief Throw an error of another registered kind (ValueError, RuntimeError, ...). */
[[noreturn]] void fail_kind(const char* kind, const std::string& message);

// ------------------------------------------------------------------------------------- plain values

bool is_none(const Any& v);
bool is_bool(const Any& v);
bool is_int(const Any& v);    // a Python int (not a bool)
bool is_float(const Any& v);
bool is_str(const Any& v);
bool is_list(const Any& v);   // Array
bool is_dict(const Any& v);   // Map
/*! \brief bool, int, float or str: the values Python computes with natively. */
bool is_native(const Any& v);

int64_t as_int(const Any& v);       // int or bool (an IntImm too)
double as_float(const Any& v);      // int, bool or float (an IntImm/FloatImm too)
bool truthy(const Any& v);          // Python truthiness of a native value (objects are true)
std::string as_str(const Any& v);   // a String (or a StringImm)
List as_list(const Any& v);
Dict as_dict(const Any& v);

/*! \brief Python `==` of plain values (int/bool/float compare numerically, lists and dicts element-wise;
 * objects by identity). */
bool py_equal(const Any& a, const Any& b);

/*! \brief Python's str() and repr() of a value: lists print as [..], tuples as (..) (see `as_tuple`),
 * IR objects through the TVMScript printer as Python prints them. */
std::string py_str(const Any& v);
std::string py_repr(const Any& v);

/*! \brief Build values: list({1, 2}), dict({{"a", 1}}) (insertion order kept), and a tuple marker. */
List list(std::initializer_list<Any> items);
Dict dict(std::initializer_list<std::pair<Any, Any>> items);
/*! \brief A list that prints as a Python tuple in messages (shape, TILE, CORE_GRID are tuples in Python). */
Any as_tuple(List items);
bool is_tuple(const Any& v);

/*! \brief Namespace/dict field and constant index: attr(buffer, "shape"), item(shape, 0), item(d, "k"). */
Any attr(const Any& ns, const char* name);
Any item(const Any& container, const Any& key);

// ------------------------------------------------------------------------------------------ constructors

Any int_imm(int64_t value, const char* dtype = "int32");
Any float_imm(double value, const char* dtype = "float32");
Any string_imm(const std::string& value);
Any prim_type(const char* dtype);
/*! \brief Var(name, dtype) as tirx.Var(name, dtype) builds it ("handle" is a pointer type). */
Any var(const std::string& name, const std::string& dtype);
Any cast(const std::string& dtype, const Any& value);
Any evaluate(const Any& expr);
Any seq_stmt(const List& stmts);
/*! \brief Python builder.seq: Evaluate(0) for none, the statement itself for one, else a SeqStmt. */
Any seq(const std::vector<Any>& stmts);
/*! \brief The statements of a SeqStmt, or {stmt}. */
std::vector<Any> flatten(const Any& stmt);
Any bind(const Any& v, const Any& value);
/*! \brief For(var, min, extent, kind, body, annotations); kind 0 = serial. */
Any for_loop(const Any& loop_var, const Any& min, const Any& extent, int kind, const Any& body,
             const Any& annotations = Any(nullptr), const Any& thread_binding = Any(nullptr));
Any if_then_else(const Any& cond, const Any& then_case, const Any& else_case = Any(nullptr));
Any prim_func(const List& params, const Any& body, const Any& ret_type, const Any& attrs);
Any with_body(const Any& func, const Any& body);
/*! \brief A call of an op by name with a result dtype (tirx.call_intrin). */
Any call_intrin(const std::string& dtype, const std::string& op_name, const List& args);

/*! \brief Python tirx.const(v, dtype) for a native value (int/bool/float). */
Any make_const(const Any& value, const char* dtype);

// ------------------------------------------------------------------------------------- function attributes

/*! \brief Attribute `key` of a PrimFunc as a plain value (Python ir.get_attr + to_py), or `fallback`. */
Any get_attr(const Any& func, const char* key, const Any& fallback = Any(nullptr));
Any with_attr(const Any& func, const std::string& key, const Any& value);
/*! \brief Normalise attribute values like Python's to_py: IntImm -> int (bool dtype -> bool), FloatImm ->
 * float, StringImm -> str; Maps and Arrays recursively. */
Any to_py(const Any& value);

// ------------------------------------------------------------------------------------------------ traversal

using Visit = std::function<void(const Any&)>;
using Rewrite = std::function<Any(const Any&)>;
/*! \brief ffi.StructuralWalk with (type key, callback) entries (pre-order). */
void walk(const Any& root, const std::vector<std::pair<const char*, Visit>>& entries);
/*! \brief ffi.StructuralMap with (type key, callback) entries; order "pre" or "post". */
Any map(const Any& root, const std::vector<std::pair<const char*, Rewrite>>& entries, const char* order = "post");

// ------------------------------------------------------------------------------------------------ passes

using FuncBody = std::function<Any(const Any& func)>;
using ModuleBody = std::function<Any(const Any& mod)>;
/*! \brief A PrimFunc pass named tl.<name> (tirx.transform.prim_func_pass, opt_level 0). */
Any prim_func_pass(const std::string& name, FuncBody body);
/*! \brief A module pass named tl.<name>. */
Any module_pass(const std::string& name, ModuleBody body);
/*! \brief tvm.transform.Sequential(passes, name=name). */
Any sequential(const List& passes, const std::string& name);

}  // namespace tl
