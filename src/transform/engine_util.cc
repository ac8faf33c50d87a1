// Implementation of engine_util.h.
#include "engine_util.h"

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

Dict options_ns(const Dict& options) { return options; }

Any option(const Dict& options, const char* key) { return item(options, Any(String(key))); }

}  // namespace tl

namespace tl {

Any attr_value(const Any& value) {
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

Any with_attrs(Any func, const std::vector<std::pair<std::string, Any>>& values) {
  for (const auto& [key, value] : values) func = with_attr(func, key, attr_value(value));
  return func;
}

}  // namespace tl
