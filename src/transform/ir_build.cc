// TIR constructors and function attributes (ir_build.h).
#include "ir_build.h"

#include "ir_nodes.h"

namespace tl {

static DLDataType dtype_of(const char* dtype) { return DLDataType(ffi::StringToDLDataType(dtype)); }

Any int_imm(int64_t value, const char* dtype) { return call("ir.IntImm", dtype_of(dtype), value, Any(nullptr)); }

Any float_imm(double value, const char* dtype) { return call("ir.FloatImm", dtype_of(dtype), value, Any(nullptr)); }

Any string_imm(const std::string& value) { return call("ir.StringImm", String(value), Any(nullptr)); }

Any make_const(const Any& value, const char* dtype) { return call("node._const", value, String(dtype), Any(nullptr)); }

Any prim_type(const char* dtype) { return call("ir.PrimType", dtype_of(dtype)); }

static Any value_type(const std::string& dtype) {
  return dtype == "handle" ? call("ir.PointerType", prim_type("void"), String("")) : prim_type(dtype.c_str());
}

Any var(const std::string& name, const std::string& dtype) {
  return call("ir.Var", String(name), value_type(dtype), Any(nullptr));
}

Any cast(const std::string& dtype, const Any& value) { return call("prim.Cast", String(dtype), value, Any(nullptr)); }

Any call_intrin(const std::string& dtype, const std::string& op_name, const List& args) {
  return call("ir.Call", value_type(dtype), call("ir.GetOp", String(op_name)), args, Any(nullptr), List(),
              Any(nullptr));
}

Any evaluate(const Any& expr) { return call("tirx.Evaluate", expr, Any(nullptr)); }

Any seq_stmt(const List& stmts) { return call("tirx.SeqStmt", stmts, Any(nullptr)); }

Any seq(const std::vector<Any>& stmts) {
  if (stmts.empty()) return evaluate(int_imm(0));
  if (stmts.size() == 1) return stmts[0];
  List items;
  for (const Any& s : stmts) items.push_back(s);
  return seq_stmt(items);
}

std::vector<Any> flatten(const Any& stmt) {
  auto block = ir::SeqStmt::from(stmt);
  if (!block) return {stmt};
  List items = block->seq();
  return std::vector<Any>(items.begin(), items.end());
}

Any bind(const Any& v, const Any& value) { return call("tirx.Bind", v, value, Any(nullptr)); }

Any for_loop(const Any& loop_var, const Any& min, const Any& extent, int kind, const Any& body,
             const Any& annotations, const Any& thread_binding) {
  return call("tirx.For", loop_var, min, extent, kind, body, thread_binding, annotations, Any(nullptr),
              Any(nullptr));
}

Any if_then_else(const Any& cond, const Any& then_case, const Any& else_case) {
  return call("tirx.IfThenElse", cond, then_case, else_case, Any(nullptr));
}

Any while_loop(const Any& cond, const Any& body) { return call("tirx.While", cond, body, Any(nullptr)); }

Any prim_func(const List& params, const Any& body, const Any& ret_type, const Any& attrs) {
  return call("tirx.PrimFunc", params, body, ret_type, attrs, Any(nullptr));
}

Any with_body(const Any& func, const Any& body) {
  ir::PrimFunc f(func);
  return prim_func(f.params(), body, f.ret_type(), f.attrs());
}

// ------------------------------------------------------------------------------------------ attributes

Any to_plain(const Any& value) {
  if (auto imm = ir::IntImm::from(value)) {
    auto type = ir::PrimType::from(imm->ty());
    if (type && type->dtype() == "bool") return Any(imm->value() != 0);
    return Any(imm->value());
  }
  if (auto imm = ir::FloatImm::from(value)) return Any(imm->value());
  if (auto imm = ir::StringImm::from(value)) return Any(String(imm->value()));
  if (is_dict(value)) {
    Dict out;
    for (const auto& [key, v] : as_dict(value)) out.Set(String(format_value(key)), to_plain(v));
    return out;
  }
  if (is_list(value)) {
    List out;
    for (const Any& x : as_list(value)) out.push_back(to_plain(x));
    return out;
  }
  return value;
}

Any get_attr(const Any& func, const char* key, const Any& fallback) {
  Any attrs = ir::PrimFunc(func).attrs();
  if (is_none(attrs)) return fallback;
  auto found = call("ir.DictAttrsGetDict", attrs).cast<Dict>().Get(String(key));
  return found.has_value() ? to_plain(*found) : fallback;
}

Any with_attr(const Any& func, const std::string& key, const Any& value) {
  return call("ir.BaseFuncWithAttr", func, String(key), value);
}

}  // namespace tl
