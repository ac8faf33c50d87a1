// Building TIR and reading function attributes through the constructors TVM registers as global functions (the
// apache-tvm wheel ships no IR headers, so there are no C++ constructors to call).
#pragma once

#include "ffi_values.h"

namespace tl {

Any int_imm(int64_t value, const char* dtype = "int32");
Any float_imm(double value, const char* dtype = "float32");
Any string_imm(const std::string& value);
/*! \brief tirx.const(value, dtype) of an int, bool or float. */
Any make_const(const Any& value, const char* dtype);
Any prim_type(const char* dtype);
/*! \brief A variable of a dtype ("handle" is a pointer type). */
Any var(const std::string& name, const std::string& dtype);
Any cast(const std::string& dtype, const Any& value);
/*! \brief A call of an op by name with a result dtype. */
Any call_intrin(const std::string& dtype, const std::string& op_name, const List& args);

Any evaluate(const Any& expr);
Any seq_stmt(const List& stmts);
/*! \brief Statements in order: Evaluate(0) for none, the statement itself for one, else a SeqStmt. */
Any seq(const std::vector<Any>& stmts);
/*! \brief The statements of a SeqStmt, or {stmt}. */
std::vector<Any> flatten(const Any& stmt);
Any bind(const Any& v, const Any& value);
/*! \brief For(var, min, extent, kind, body, annotations); kind 0 = serial. */
Any for_loop(const Any& loop_var, const Any& min, const Any& extent, int kind, const Any& body,
             const Any& annotations = Any(nullptr), const Any& thread_binding = Any(nullptr));
Any if_then_else(const Any& cond, const Any& then_case, const Any& else_case = Any(nullptr));
/*! \brief While(cond, body). */
Any while_loop(const Any& cond, const Any& body);

Any prim_func(const List& params, const Any& body, const Any& ret_type, const Any& attrs);
/*! \brief The function with another body (same parameters, result type and attributes). */
Any with_body(const Any& func, const Any& body);

/*! \brief Attribute `key` of a PrimFunc as a plain value (see to_plain), or `fallback`. */
Any get_attr(const Any& func, const char* key, const Any& fallback = Any(nullptr));
Any with_attr(const Any& func, const std::string& key, const Any& value);
/*! \brief The spec language's value of an IR constant: IntImm -> int (bool dtype -> bool), FloatImm -> float,
 * StringImm -> str; Maps and Arrays recursively, anything else unchanged. */
Any to_plain(const Any& value);

}  // namespace tl
