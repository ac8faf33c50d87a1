// The engines' values (ffi_values.h).
#include "ffi_values.h"

#include <tvm/ffi/container/list.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "ir_nodes.h"

namespace tl {

using ffi::TypeIndex;

const Function& global(const char* name) {
  static std::mutex lock;
  static std::unordered_map<std::string, Function> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, Function::GetGlobalRequired(name)).first;
  return it->second;
}

// ------------------------------------------------------------------------------------------------ errors

// The error kinds tilelang registers (python/tilelang/errors.py) reach Python as those exception classes.
void fail(const std::string& message) { throw ffi::Error("TTLoweringError", message, ""); }
void fail_tilelang(const std::string& message) { throw ffi::Error("TileLangError", message, ""); }
void internal_error(const std::string& message) { throw ffi::Error("RuntimeError", message, ""); }

// ------------------------------------------------------------------------------------------------ values

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
bool is_plain(const Any& v) { return is_bool(v) || is_int(v) || is_float(v) || is_str(v); }
static bool is_number(const Any& v) { return is_bool(v) || is_int(v) || is_float(v); }

int64_t as_int(const Any& v) {
  if (is_int(v)) return v.cast<int64_t>();
  if (is_bool(v)) return v.cast<bool>() ? 1 : 0;
  if (auto imm = ir::IntImm::from(v)) return imm->value();
  internal_error("expected an integer, got " + format_value(v));
}

double as_float(const Any& v) {
  if (is_float(v)) return v.cast<double>();
  if (auto imm = ir::FloatImm::from(v)) return imm->value();
  return static_cast<double>(as_int(v));
}

std::string as_str(const Any& v) {
  if (is_str(v)) return std::string(v.cast<String>());
  if (auto imm = ir::StringImm::from(v)) return imm->value();
  internal_error("expected a string, got " + format_value(v));
}

List as_list(const Any& v) {
  if (v.type_index() == TypeIndex::kTVMFFIList) {
    List out;
    for (const Any& x : v.cast<ffi::List<Any>>()) out.push_back(x);
    return out;
  }
  if (!is_list(v)) internal_error("expected a sequence, got " + format_value(v));
  return v.cast<List>();
}

Dict as_dict(const Any& v) {
  if (!is_dict(v)) internal_error("expected a dict, got " + format_value(v));
  return v.cast<Dict>();
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

bool values_equal(const Any& a, const Any& b) {
  if (is_number(a) && is_number(b)) {
    return is_float(a) || is_float(b) ? as_float(a) == as_float(b) : as_int(a) == as_int(b);
  }
  if (is_str(a) && is_str(b)) return as_str(a) == as_str(b);
  if (is_list(a) && is_list(b)) {
    List x = as_list(a), y = as_list(b);
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!values_equal(x[i], y[i])) return false;
    }
    return true;
  }
  if (is_dict(a) && is_dict(b)) {
    Dict x = as_dict(a), y = as_dict(b);
    if (x.size() != y.size()) return false;
    for (const auto& [key, value] : x) {
      auto other = y.Get(key);
      if (!other.has_value() || !values_equal(value, *other)) return false;
    }
    return true;
  }
  if (is_none(a) || is_none(b)) return is_none(a) && is_none(b);
  return a.same_as(b);
}

List list(std::initializer_list<Any> items) {
  List out;
  for (const Any& x : items) out.push_back(x);
  return out;
}

Dict dict(std::initializer_list<std::pair<Any, Any>> items) {
  Dict out;
  for (const auto& [key, value] : items) out.Set(key, value);
  return out;
}

Any attr(const Any& ns, const char* name) {
  if (!is_dict(ns)) internal_error(std::string("field '") + name + "' of " + format_value(ns) + ", not a namespace");
  Dict fields = as_dict(ns);
  auto found = fields.Get(String(name));
  if (!found.has_value()) {
    std::string known;
    for (const auto& [key, value] : fields) known += (known.empty() ? "" : ", ") + format_value(key);
    internal_error(std::string("no field '") + name + "' in a namespace of " + known);
  }
  return *found;
}

Any item(const Any& container, const Any& key) {
  if (is_dict(container)) {
    auto found = as_dict(container).Get(key);
    if (!found.has_value()) internal_error("no key '" + format_value(key) + "' in the dict");
    return *found;
  }
  List items = as_list(container);
  int64_t n = static_cast<int64_t>(items.size());
  int64_t i = as_int(key);
  if (i < 0) i += n;  // ins[-1]: negative indices count from the end
  if (i < 0 || i >= n) {
    internal_error("index " + format_value(key) + " out of range of " + format_value(container));
  }
  return items[i];
}

// ------------------------------------------------------------------------------------------------ text

// The shortest decimal that reads back as the same double.
static std::string format_float(double value) {
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

std::string format_value(const Any& v) {
  if (is_none(v)) return "None";
  if (is_bool(v)) return v.cast<bool>() ? "True" : "False";  // as spec expressions spell them
  if (is_int(v)) return std::to_string(v.cast<int64_t>());
  if (is_float(v)) return format_float(v.cast<double>());
  if (is_str(v)) return as_str(v);
  if (v.type_index() == TypeIndex::kTVMFFIDataType) return std::string(ffi::DLDataTypeToString(v.cast<DLDataType>()));
  if (is_list(v)) {
    List items = as_list(v);
    std::string out = "(";
    for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + format_value(items[i]);
    return out + (items.size() == 1 ? ",)" : ")");
  }
  if (is_dict(v)) {  // only internal errors print one
    std::string out;
    for (const auto& [key, value] : as_dict(v)) out += (out.empty() ? "" : ", ") + format_value(key) + ": " + format_value(value);
    return "{" + out + "}";
  }
  return std::string(call("node.TVMScriptPrinterScript", v, Any(nullptr)).cast<String>());
}

}  // namespace tl
