// The finalize engine: every value a kernel uses but does not define becomes a runtime argument (tensor
// addresses, then per-core work values, in the rule's group order), read with get_arg_val at the top of the
// kernel, with the value of each argument on every core recorded for the host program.
#include <algorithm>
#include <set>

#include "engine_common.h"
#include "records.h"

namespace tl {
namespace {

using FreeVars = std::vector<std::pair<std::string, Any>>;  // name -> var, first position kept, last var wins

FreeVars free_vars(const Any& body) {
  FreeVars free;
  for (const Any& v : as_list(call("tirx.analysis.UndefinedVars", body, List()))) {
    std::string n = ir::Var(v).name();
    auto it = std::find_if(free.begin(), free.end(), [&](const auto& kv) { return kv.first == n; });
    if (it != free.end()) {
      it->second = v;
    } else {
      free.emplace_back(n, v);
    }
  }
  return free;
}

const Any* find_var(const FreeVars& free, const std::string& n) {
  for (const auto& kv : free) {
    if (kv.first == n) return &kv.second;
  }
  return nullptr;
}

// The runtime argument names, group by group; a free value in no group is a lowering error.
std::vector<std::string> argument_names(const Any& func, const FreeVars& free, const List& groups_order,
                                        const Dict& tensor_args) {
  std::vector<std::string> names;
  for (const Any& group : groups_order) {
    std::string g = as_str(group);
    if (g == "tensors") {
      for (const auto& kv : tensor_args) {
        if (find_var(free, as_str(kv.first))) names.push_back(as_str(kv.first));
      }
    } else if (g == "work") {
      for (const Any& a : attr_list(func, keys::kTtWorkArgs)) {
        if (find_var(free, as_str(a))) names.push_back(as_str(a));
      }
    } else {
      internal_error("unknown runtime argument group '" + g + "' (expected tensors or work)");
    }
  }
  std::set<std::string> unknown;
  for (const auto& kv : free) {
    if (std::find(names.begin(), names.end(), kv.first) == names.end()) unknown.insert(kv.first);
  }
  if (!unknown.empty()) {
    fail(format_value(get_attr(func, keys::kGlobalSymbol)) + ": value(s) " +
         join(std::vector<std::string>(unknown.begin(), unknown.end())) +
         " are neither runtime arguments nor defined in the kernel");
  }
  return names;
}

// Per core: its coordinate and the value of every runtime argument (a tensor's address is known to the host).
List argument_values(const Any& func, const std::vector<std::string>& names, const Dict& tensor_args) {
  List per_core;
  for (const Any& work : attr_list(func, keys::kTtWorkValues)) {
    List values;
    for (const std::string& a : names) {
      auto t = tensor_args.Get(String(a));
      values.push_back(t.has_value() ? Any(dict({{str(records::tensor_address::kTensor), *t}})) : item(work, str(a)));
    }
    per_core.push_back(values);
  }
  List cores;
  for (const Any& w : attr_list(func, keys::kTtWorkPartition)) cores.push_back(item(w, str(records::work_item::kCore)));
  strict_zip(cores.size(), per_core.size());
  List out;
  for (size_t i = 0; i < cores.size(); ++i) out.push_back(dict({{str(records::core_args::kCore), cores[i]},
                                                                      {str(records::core_args::kArgs), per_core[i]}}));
  return out;
}

}  // namespace

namespace engines {

Any finalize(const std::string& name, const Dict& options, const FinalizeParams& params) {
  const Any& order = params.order;
  List groups_order = as_list(order);
  auto body = [groups_order](const Any& func) -> Any {
    ir::PrimFunc f(func);
    FreeVars free = free_vars(f.body());
    Dict tensor_args = attr_dict(func, keys::kTtTensorArgs);
    std::vector<std::string> names = argument_names(func, free, groups_order, tensor_args);
    std::vector<Any> stmts;
    for (size_t index = 0; index < names.size(); ++index) {
      Any value = tt_call("get_arg_val", {Any(static_cast<int64_t>(index))});
      ir::Var v(*find_var(free, names[index]));
      std::string dtype = ir::PrimType(v.ty()).dtype();
      stmts.push_back(tl::bind(v, dtype == "uint32" ? value : cast(dtype, value)));
    }
    List arg_values = argument_values(func, names, tensor_args);
    for (const Any& s : flatten(f.body())) stmts.push_back(s);
    Any attrs = f.attrs();
    if (is_none(attrs)) attrs = call("ir.DictAttrs", Dict());
    Any fresh = prim_func(List(), seq(stmts), call("ir.TypeMissing"), attrs);
    List name_list;
    for (const std::string& n : names) name_list.push_back(str(n));
    return with_attrs(fresh, {{keys::kTtRuntimeArgs, name_list}, {keys::kTtRuntimeArgValues, arg_values}});
  };
  return role_pass(name, all_roles(), body);
}

}  // namespace engines
}  // namespace tl
