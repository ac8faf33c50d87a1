// Implementation of support.h: reflection, constructors, values, traversal and passes over tvm-ffi.
#include "support.h"

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/list.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace tl {

using ffi::TypeIndex;

// ------------------------------------------------------------------------------------------ globals, types

const Function& global(const char* name) {
  static std::mutex lock;
  static std::unordered_map<std::string, Function> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(name);
  if (it == cache.end()) {
    it = cache.emplace(name, Function::GetGlobalRequired(name)).first;
  }
  return it->second;
}

int32_t type_index(const char* key) {
  static std::mutex lock;
  static std::unordered_map<std::string, int32_t> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int32_t index;
  TVMFFIByteArray bytes = {key, std::strlen(key)};
  if (TVMFFITypeKeyToIndex(&bytes, &index) != 0) {
    fail_kind("RuntimeError", std::string("unknown IR type '") + key + "'");
  }
  cache.emplace(key, index);
  return index;
}

bool is_a(const Any& value, const char* key) {
  int32_t index = value.type_index();
  if (index < TypeIndex::kTVMFFIStaticObjectBegin) return false;
  int32_t target = type_index(key);
  if (index == target) return true;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  const TVMFFITypeInfo* want = TVMFFIGetTypeInfo(target);
  return info->type_depth > want->type_depth && info->type_ancestors[want->type_depth]->type_index == target;
}

std::string type_key(const Any& value) { return value.GetTypeKey(); }

static const TVMFFIFieldInfo* find_field(int32_t index, const char* name) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  size_t length = std::strlen(name);
  for (const TVMFFITypeInfo* t = info;;) {
    for (int32_t i = 0; i < t->num_fields; ++i) {
      const TVMFFIByteArray& n = t->fields[i].name;
      if (n.size == length && std::strncmp(n.data, name, length) == 0) return &t->fields[i];
    }
    if (t->type_depth == 0) return nullptr;
    t = t->type_ancestors[t->type_depth - 1];
  }
}

Any field(const Any& obj, const char* name) {
  static std::mutex lock;
  static std::unordered_map<std::string, const TVMFFIFieldInfo*> cache;
  int32_t index = obj.type_index();
  if (index < TypeIndex::kTVMFFIStaticObjectBegin) {
    fail_kind("RuntimeError", "field '" + std::string(name) + "' of a non-object value " + type_key(obj));
  }
  std::string key = std::to_string(index) + ":" + name;
  const TVMFFIFieldInfo* info;
  {
    std::lock_guard<std::mutex> guard(lock);
    auto it = cache.find(key);
    if (it == cache.end()) {
      it = cache.emplace(key, find_field(index, name)).first;
    }
    info = it->second;
  }
  if (info == nullptr) {
    fail_kind("RuntimeError", type_key(obj) + " has no field '" + name + "'");
  }
  ffi::ObjectRef ref = obj.cast<ffi::ObjectRef>();
  return ffi::reflection::FieldGetter(info)(ref.get());
}

// ------------------------------------------------------------------------------------------------ errors

void fail(const std::string& message) { throw ffi::Error("TTLoweringError", message, ""); }

void fail_kind(const char* kind, const std::string& message) { throw ffi::Error(kind, message, ""); }

// ------------------------------------------------------------------------------------- plain values

bool is_none(const Any& v) { return v.type_index() == TypeIndex::kTVMFFINone; }
bool is_bool(const Any& v) { return v.type_index() == TypeIndex::kTVMFFIBool; }
bool is_int(const Any& v) { return v.type_index() == TypeIndex::kTVMFFIInt; }
bool is_float(const Any& v) { return v.type_index() == TypeIndex::kTVMFFIFloat; }
bool is_str(const Any& v) {
  return v.type_index() == TypeIndex::kTVMFFIStr || v.type_index() == TypeIndex::kTVMFFISmallStr;
}
bool is_list(const Any& v) {
  return v.type_index() == TypeIndex::kTVMFFIArray || v.type_index() == TypeIndex::kTVMFFIList;
}
bool is_dict(const Any& v) { return v.type_index() == TypeIndex::kTVMFFIMap; }
bool is_native(const Any& v) { return is_bool(v) || is_int(v) || is_float(v) || is_str(v); }

int64_t as_int(const Any& v) {
  if (is_int(v)) return v.cast<int64_t>();
  if (is_bool(v)) return v.cast<bool>() ? 1 : 0;
  if (is_a(v, "ir.IntImm")) return field(v, "value").cast<int64_t>();
  fail_kind("TypeError", "expected an integer, got " + py_repr(v));
}

double as_float(const Any& v) {
  if (is_float(v)) return v.cast<double>();
  if (is_a(v, "ir.FloatImm")) return field(v, "value").cast<double>();
  return static_cast<double>(as_int(v));
}

bool truthy(const Any& v) {
  if (is_none(v)) return false;
  if (is_bool(v) || is_int(v)) return as_int(v) != 0;
  if (is_float(v)) return as_float(v) != 0.0;
  if (is_str(v)) return !as_str(v).empty();
  if (is_list(v)) return as_list(v).size() != 0;
  if (is_dict(v)) return as_dict(v).size() != 0;
  return true;
}

std::string as_str(const Any& v) {
  if (is_str(v)) return std::string(v.cast<String>());
  if (is_a(v, "ir.StringImm")) return std::string(field(v, "value").cast<String>());
  fail_kind("TypeError", "expected a string, got " + py_repr(v));
}

List as_list(const Any& v) {
  if (v.type_index() == TypeIndex::kTVMFFIList) {
    List out;
    for (const Any& x : v.cast<ffi::List<Any>>()) out.push_back(x);
    return out;
  }
  return v.cast<List>();
}

Dict as_dict(const Any& v) { return v.cast<Dict>(); }

bool py_equal(const Any& a, const Any& b) {
  bool na = is_bool(a) || is_int(a) || is_float(a);
  bool nb = is_bool(b) || is_int(b) || is_float(b);
  if (na && nb) {
    if (is_float(a) || is_float(b)) return as_float(a) == as_float(b);
    return as_int(a) == as_int(b);
  }
  if (is_str(a) && is_str(b)) return as_str(a) == as_str(b);
  if (is_list(a) && is_list(b)) {
    List x = as_list(a), y = as_list(b);
    if (x.size() != y.size() || is_tuple(a) != is_tuple(b)) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!py_equal(x[i], y[i])) return false;
    }
    return true;
  }
  if (is_dict(a) && is_dict(b)) {
    Dict x = as_dict(a), y = as_dict(b);
    if (x.size() != y.size()) return false;
    for (const auto& kv : x) {
      auto other = y.Get(kv.first);
      if (!other.has_value() || !py_equal(kv.second, *other)) return false;
    }
    return true;
  }
  if (is_none(a) || is_none(b)) return is_none(a) && is_none(b);
  return a.same_as(b);
}

static std::string float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  int precision = 1;
  for (; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*e", precision - 1, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  int exponent = value == 0.0 ? 0 : static_cast<int>(std::floor(std::log10(std::fabs(value))));
  std::snprintf(buf, sizeof(buf), "%.*e", precision - 1, value);
  exponent = std::atoi(std::strchr(buf, 'e') + 1);
  std::string out;
  if (exponent < -4 || exponent >= 16) {  // Python's repr switches to exponent notation here
    std::string mantissa(buf, std::strchr(buf, 'e'));
    if (mantissa.find('.') != std::string::npos) {
      while (mantissa.back() == '0') mantissa.pop_back();
      if (mantissa.back() == '.') mantissa.pop_back();
    }
    char exp[16];
    std::snprintf(exp, sizeof(exp), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return mantissa + exp;
  }
  int decimals = std::max(precision - 1 - exponent, 1);
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  out = buf;
  while (out.back() == '0' && out[out.size() - 2] != '.') out.pop_back();
  return out;
}

static std::string str_repr(const std::string& s) {
  char quote = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    if (c == quote || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + quote;
}

static std::string join_repr(const List& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + py_repr(items[i]);
  return out;
}

std::string py_repr(const Any& v) {
  if (is_str(v)) return str_repr(as_str(v));
  if (is_list(v)) {
    List items = as_list(v);
    if (is_tuple(v)) return "(" + join_repr(items) + (items.size() == 1 ? ",)" : ")");
    return "[" + join_repr(items) + "]";
  }
  if (is_dict(v)) {
    std::string out = "{";
    bool first = true;
    for (const auto& kv : as_dict(v)) {
      out += (first ? "" : ", ") + py_repr(kv.first) + ": " + py_repr(kv.second);
      first = false;
    }
    return out + "}";
  }
  return py_str(v);
}

std::string py_str(const Any& v) {
  if (is_none(v)) return "None";
  if (is_bool(v)) return v.cast<bool>() ? "True" : "False";
  if (is_int(v)) return std::to_string(v.cast<int64_t>());
  if (is_float(v)) return float_repr(v.cast<double>());
  if (is_str(v)) return as_str(v);
  if (is_list(v) || is_dict(v)) return py_repr(v);
  if (v.type_index() == TypeIndex::kTVMFFIDataType) return std::string(ffi::DLDataTypeToString(v.cast<DLDataType>()));
  return std::string(call("node.TVMScriptPrinterScript", v, Any(nullptr)).cast<String>());
}

List list(std::initializer_list<Any> items) {
  List out;
  for (const Any& x : items) out.push_back(x);
  return out;
}

Dict dict(std::initializer_list<std::pair<Any, Any>> items) {
  Dict out;
  for (const auto& kv : items) out.Set(kv.first, kv.second);
  return out;
}

Any as_tuple(List items) {
  ffi::List<Any> out;
  for (const Any& x : items) out.push_back(x);
  return out;
}

bool is_tuple(const Any& v) { return v.type_index() == TypeIndex::kTVMFFIList; }

Any attr(const Any& ns, const char* name) {
  if (is_dict(ns)) {
    auto found = as_dict(ns).Get(String(name));
    if (!found.has_value()) fail_kind("AttributeError", "no field '" + std::string(name) + "' in " + py_repr(ns));
    return *found;
  }
  return field(ns, name);
}

Any item(const Any& container, const Any& key) {
  if (is_list(container)) {
    List items = as_list(container);
    int64_t i = as_int(key);
    int64_t n = static_cast<int64_t>(items.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail_kind("IndexError", "index " + py_str(key) + " out of range of " + py_repr(container));
    return items[i];
  }
  if (is_dict(container)) {
    for (const auto& kv : as_dict(container)) {
      if (py_equal(kv.first, key)) return kv.second;
    }
    fail_kind("KeyError", py_repr(key));
  }
  fail_kind("TypeError", py_repr(container) + " is not indexable");
}

// ------------------------------------------------------------------------------------------ constructors

Any int_imm(int64_t value, const char* dtype) { return call("ir.IntImm", DLDataType(ffi::StringToDLDataType(dtype)), value, Any(nullptr)); }

Any float_imm(double value, const char* dtype) {
  return call("ir.FloatImm", DLDataType(ffi::StringToDLDataType(dtype)), value, Any(nullptr));
}

Any make_const(const Any& value, const char* dtype) {
  return call("node._const", value, String(dtype), Any(nullptr));
}

Any string_imm(const std::string& value) { return call("ir.StringImm", String(value), Any(nullptr)); }

Any prim_type(const char* dtype) { return call("ir.PrimType", DLDataType(ffi::StringToDLDataType(dtype))); }

Any var(const std::string& name, const std::string& dtype) {
  Any ty = dtype == "handle" ? call("ir.PointerType", prim_type("void"), String(""))
                             : prim_type(dtype.c_str());
  return call("ir.Var", String(name), ty, Any(nullptr));
}

Any cast(const std::string& dtype, const Any& value) { return call("prim.Cast", String(dtype), value, Any(nullptr)); }

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
  if (is_a(stmt, "tirx.SeqStmt")) {
    std::vector<Any> out;
    for (const Any& s : field(stmt, "seq").cast<List>()) out.push_back(s);
    return out;
  }
  return {stmt};
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

Any prim_func(const List& params, const Any& body, const Any& ret_type, const Any& attrs) {
  return call("tirx.PrimFunc", params, body, ret_type, attrs, Any(nullptr));
}

Any with_body(const Any& func, const Any& body) {
  return prim_func(field(func, "params").cast<List>(), body, field(func, "ret_type"), field(func, "attrs"));
}

Any call_intrin(const std::string& dtype, const std::string& op_name, const List& args) {
  Any ret = dtype == "handle" ? call("ir.PointerType", prim_type("void"), String("")) : prim_type(dtype.c_str());
  return call("ir.Call", ret, call("ir.GetOp", String(op_name)), args, Any(nullptr), List(), Any(nullptr));
}

// ------------------------------------------------------------------------------------- function attributes

Any to_py(const Any& value) {
  if (is_native(value) || is_none(value)) return value;
  if (is_a(value, "ir.IntImm")) {
    Any ty = field(value, "ty");
    int64_t v = field(value, "value").cast<int64_t>();
    if (py_str(field(ty, "dtype")) == "bool") return Any(v != 0);
    return Any(v);
  }
  if (is_a(value, "ir.FloatImm")) return field(value, "value");
  if (is_a(value, "ir.StringImm")) return field(value, "value");
  if (is_dict(value)) {
    Dict out;
    for (const auto& kv : as_dict(value)) out.Set(String(py_str(kv.first)), to_py(kv.second));
    return out;
  }
  if (is_list(value)) {
    List out;
    for (const Any& x : as_list(value)) out.push_back(to_py(x));
    return out;
  }
  return value;
}

Any get_attr(const Any& func, const char* key, const Any& fallback) {
  Any attrs = field(func, "attrs");
  if (is_none(attrs)) return fallback;
  Dict dict = call("ir.DictAttrsGetDict", attrs).cast<Dict>();
  auto found = dict.Get(String(key));
  return found.has_value() ? to_py(*found) : fallback;
}

Any with_attr(const Any& func, const std::string& key, const Any& value) {
  return call("ir.BaseFuncWithAttr", func, String(key), value);
}

// ------------------------------------------------------------------------------------------------ traversal

template <typename Callback>
static List entries_of(const std::vector<std::pair<const char*, Callback>>& entries) {
  List out;
  for (const auto& [key, callback] : entries) {
    Callback cb = callback;
    out.push_back(list({type_index(key), Function::FromTyped([cb](Any value) -> Any {
                          if constexpr (std::is_same_v<Callback, Visit>) {
                            cb(value);
                            return Any(nullptr);
                          } else {
                            return cb(value);
                          }
                        })}));
  }
  return out;
}

void walk(const Any& root, const std::vector<std::pair<const char*, Visit>>& entries) {
  call("ffi.StructuralWalk", root, entries_of(entries), List(), 1);
}

Any map(const Any& root, const std::vector<std::pair<const char*, Rewrite>>& entries, const char* order) {
  return call("ffi.StructuralMap", root, entries_of(entries), List(), std::strcmp(order, "pre") == 0 ? 0 : 1);
}

// ------------------------------------------------------------------------------------------------ passes

static Any pass_info(const std::string& name) {
  return call("transform.PassInfo", 0, String(name), List(), false);
}

Any prim_func_pass(const std::string& name, FuncBody body) {
  Function run = Function::FromTyped([body](Any func, Any mod, Any ctx) -> Any { return body(func); });
  return call("tirx.transform.CreatePrimFuncPass", run, pass_info("tl." + name));
}

Any module_pass(const std::string& name, ModuleBody body) {
  Function run = Function::FromTyped([body](Any mod, Any ctx) -> Any { return body(mod); });
  return call("transform.MakeModulePass", run, pass_info("tl." + name));
}

Any sequential(const List& passes, const std::string& name) {
  return call("transform.Sequential", passes, 0, String(name), List(), false);
}

}  // namespace tl
