// The accessors engine: the DRAM tensors a reader or writer kernel uses get an accessor (TensorAccessor or an
// address generator, built by the rule's protocol at the top of the kernel) that replaces the tensor in every
// intrinsic call; the tensors' addresses become runtime arguments, their layouts compile-time arguments.
#include <algorithm>

#include "engine_common.h"
#include "records.h"

namespace tl {
namespace {

struct Used {
  std::string tensor;
  Any var;
  int64_t cb;  // the CB of the call that first uses it (-1: none)
};

// The tensor parameters named `n` (the last of a name wins, as parameters are keyed by name).
const BufferInfo* find_param(const std::vector<BufferInfo>& params, const std::string& n) {
  const BufferInfo* found = nullptr;
  for (const BufferInfo& t : params) {
    if (t.name == n) found = &t;
  }
  return found;
}

// The tensor parameters the intrinsic calls of `body` pass as `handle` arguments, in first-use order.
std::vector<Used> used_tensors(const Any& body, const std::vector<BufferInfo>& params) {
  std::vector<Used> used;
  auto is_used = [&](const std::string& n) {
    return std::any_of(used.begin(), used.end(), [&](const Used& u) { return u.tensor == n; });
  };
  for (const auto& [record, call_expr] : tt_calls(body)) {
    List values = ir::Call(call_expr).args();
    strict_zip(record->args.size(), values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      if (record->args[i].second != "handle") continue;
      std::string n = ir::Var(values[i]).name();
      if (find_param(params, n) == nullptr || is_used(n)) continue;
      int64_t cb = -1;
      for (const auto& [k, v] : named_args(*record, call_expr)) {
        if (k == "cb") cb = as_int(v);
      }
      used.push_back({n, values[i], cb});
    }
  }
  return used;
}

// The calls with every used tensor replaced by its accessor (statements, and bound values: a branch's flag).
Any swap_tensors(const Any& body, const std::vector<Used>& used, const std::vector<std::pair<std::string, Any>>& swap) {
  return map(body, {ir::rewrite<ir::Call>([&](const ir::Call& c) -> Any {
    const Intrinsic* record = intrinsic_of(c);
    if (record == nullptr) return c.any();
    std::vector<Any> call_args;
    for (const Any& value : c.args()) {
      Any replacement = value;
      for (const Used& u : used) {
        if (value.same_as(u.var)) {
          for (const auto& [t, acc] : swap) {
            if (t == u.tensor) replacement = acc;
          }
          break;
        }
      }
      call_args.push_back(replacement);
    }
    return tt_call(record->name, call_args);
  })}, "post");
}

}  // namespace

namespace engines {

Any accessors(const std::string& name, const Dict& options, const AccessorsParams& params) {
  const ExprMap& args = params.args;
  const Expr& address_arg = params.address_arg;
  std::string protocol_name = as_str(params.protocol);
  // Later accessors chain their compile-time arguments to the previous one's (when the rule names a protocol).
  std::string chain_name = is_none(params.chain_protocol) ? protocol_name : as_str(params.chain_protocol);
  auto body = [=](const Any& func) -> Any {
    std::vector<BufferInfo> params = tensor_params(func);
    Dict layouts = attr_dict(func, keys::kTtAccessors);
    std::vector<Used> used = used_tensors(ir::PrimFunc(func).body(), params);
    std::vector<Used> order = used;  // accessors are made in parameter order
    std::stable_sort(order.begin(), order.end(), [&](const Used& a, const Used& b) {
      return find_param(params, a.tensor)->index < find_param(params, b.tensor)->index;
    });
    Builder b(profile());
    std::vector<std::pair<std::string, Any>> swap;  // tensor -> accessor
    List compile_args;
    Dict tensor_args;
    Any previous;  // the previous accessor's bound accessor_args (none before the first)
    for (size_t position = 0; position < order.size(); ++position) {
      const Used& u = order[position];
      Any addr = var(as_str(address_arg(Ctx{{names::kName, str(u.tensor)}})), "uint32");
      Any layout = item(layouts, str(u.tensor));
      Ctx ctx{{names::kTensor, layout},
              {names::kPosition, Any(static_cast<int64_t>(position))},
              {names::kAddress, addr},
              {names::kCb, Any(u.cb)},
              {names::kPrevious, previous}};
      Dict bound = run_protocol(position == 0 ? protocol_name : chain_name, b, eval_args(args, ctx));
      previous = bound.count(str("accessor_args")) ? item(bound, str("accessor_args")) : Any();
      swap.emplace_back(u.tensor, item(bound, str("accessor")));
      if (truthy(item(layout, str(records::accessor::kCompileTimeArgs)))) {
        Any offset(as_int(expr_of(args, "cta_offset")(ctx)));
        namespace aa = records::accessor_args;
        compile_args.push_back(dict({{str(aa::kTensor), str(u.tensor)}, {str(aa::kOffset), offset}}));
      }
      tensor_args.Set(String(ir::Var(addr).name()), str(u.tensor));
    }
    Any new_body = swap_tensors(ir::PrimFunc(func).body(), used, swap);
    std::vector<Any> stmts = used.empty() ? std::vector<Any>() : flatten(b.finish());
    for (const Any& s : flatten(new_body)) stmts.push_back(s);
    return with_attrs(with_body(func, seq(stmts)),
                      {{keys::kTtCompileTimeArgs, compile_args}, {keys::kTtTensorArgs, tensor_args}});
  };
  return role_pass(name, list({str(roles::kReader), str(roles::kWriter)}), body);
}

}  // namespace engines
}  // namespace tl
