// What the engines share (engine_common.h).
#include "engine_common.h"

namespace tl {

const Case* choose_case(const std::vector<Case>& cases, const Ctx& ctx, const std::string& where) {
  for (const Case& c : cases) {
    if (c.when && !truthy((*c.when)(ctx))) continue;
    check(c.require, where, ctx);
    return &c;
  }
  return nullptr;
}

const std::vector<Case>* cases_of(const Cases& cases, const std::string& subject) {
  for (const auto& [name, list] : cases) {
    if (name == subject) return &list;
  }
  return nullptr;
}

const Expr& expr_of(const ExprMap& exprs, const std::string& key) {
  for (const auto& [name, e] : exprs) {
    if (name == key) return e;
  }
  internal_error("the rule has no expression for '" + key + "'");
}

Ctx eval_args(const ExprMap& exprs, const Ctx& ctx, Ctx out) {
  for (const auto& [key, e] : exprs) out.set(key, e(ctx));
  return out;
}

Any option(const Dict& options, const char* key) { return item(options, Any(String(key))); }

// Attribute values are stored as TVM converts them: tuples become Arrays like lists.
static Any attr_value(const Any& value) {
  if (is_list(value)) {
    List out;
    for (const Any& x : as_list(value)) out.push_back(attr_value(x));
    return out;
  }
  if (is_dict(value)) {
    Dict out;
    for (const auto& [k, v] : as_dict(value)) out.Set(k, attr_value(v));
    return out;
  }
  return value;
}

bool is_integer_dtype(const std::string& dtype) {
  return dtype.rfind("int", 0) == 0 || dtype.rfind("uint", 0) == 0 || dtype == "bool";
}

bool accumulates_fp32(const Any& dtype) {
  return truthy(fn::supported_dtype(dtype)) && as_int(fn::dtype_bytes(dtype)) == 4;
}

Any with_attrs(Any func, const std::vector<std::pair<std::string, Any>>& values) {
  for (const auto& [key, value] : values) func = with_attr(func, key, attr_value(value));
  return func;
}

List attr_list(const Any& func, const char* key) {
  Any v = get_attr(func, key);
  return truthy(v) ? as_list(v) : List();
}

Dict attr_dict(const Any& func, const char* key) {
  Any v = get_attr(func, key);
  return truthy(v) ? as_dict(v) : Dict();
}

Any role_pass(const std::string& name, const List& roles, FuncBody body) {
  return prim_func_pass(name, [roles, body](const Any& func) {
    Any role = get_attr(func, keys::kTtKernelRole);
    return !is_none(role) && contains(roles, role) ? body(func) : func;
  });
}

List all_roles() {
  List out;
  for (const char* role : roles::kKernelRoles) out.push_back(str(role));
  return out;
}

Ctx named_ctx(const Intrinsic& record, const Any& call) {
  Ctx ctx;
  for (const auto& [name, value] : named_args(record, call)) ctx.set(name, value);
  return ctx;
}

Ctx merge(Ctx ctx, const Ctx& more, std::initializer_list<const char*> names) {
  for (const char* n : names) ctx.set(n, more.get(n));
  return ctx;
}

Any str(const std::string& s) { return Any(String(s)); }

bool contains(const List& items, const Any& value) {
  for (const Any& x : items) {
    if (values_equal(x, value)) return true;
  }
  return false;
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

Any get(const Dict& d, const std::string& key, const Any& fallback) {
  auto found = d.Get(String(key));
  return found.has_value() ? *found : fallback;
}

Dict ordered(std::initializer_list<std::pair<const char*, Any>> items) {
  Dict out;
  for (const auto& [k, v] : items) out.Set(String(k), v);
  return out;
}

void strict_zip(size_t first, size_t second) {
  if (first != second) {
    internal_error("sequences iterated together differ in length (" + std::to_string(first) + " and " +
                   std::to_string(second) + ")");
  }
}

}  // namespace tl
