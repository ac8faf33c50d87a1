// Engines of the kernel stage in C++: split, multicast, accessors, rewrite, compute_init, finalize, verify
// (twins of the functions of the same names in tilelang/tenstorrent/engines.py). Values, attribute order
// and error texts follow the Python code line by line, so both renderings produce the same IR and plan.
#include <algorithm>
#include <map>
#include <set>

#include "engine_util.h"

namespace tl {
namespace {

const char* const kRoles[] = {"reader", "compute", "writer"};
const char* const kPersistentLoop = "tt.persistent_loop";  // tileops.PERSISTENT_LOOP

// ------------------------------------------------------------------------------------------- small helpers

Any str(const std::string& s) { return Any(String(s)); }

bool contains(const List& items, const Any& value) {
  for (const Any& x : items) {
    if (py_equal(x, value)) return true;
  }
  return false;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

// Python dict.get on a Dict with String keys.
Any get(const Dict& d, const std::string& key, const Any& fallback = Any(nullptr)) {
  auto found = d.Get(String(key));
  return found.has_value() ? *found : fallback;
}

// `get_attr(func, key) or fallback` for list/dict attributes.
List attr_list(const Any& func, const char* key) {
  Any v = get_attr(func, key);
  return truthy(v) ? as_list(v) : List();
}
Dict attr_dict(const Any& func, const char* key) {
  Any v = get_attr(func, key);
  return truthy(v) ? as_dict(v) : Dict();
}

// A Ctx holding named call arguments (Python: dict(named_args(record, call))).
Ctx named_ctx(const Intrinsic& record, const Any& call) {
  Ctx ctx;
  for (const auto& [name, value] : named_args(record, call)) ctx.set(name, value);
  return ctx;
}

// The protocol arguments of an ExprMap evaluated in `ctx` (Python: {k: e(**ctx) for k, e in args.items()}).
Ctx eval_args(const ExprMap& args, const Ctx& ctx, Ctx out = Ctx()) {
  for (const auto& [key, expr] : args) out.set(key, expr(ctx));
  return out;
}

const Expr& expr_of(const ExprMap& args, const std::string& key) {
  for (const auto& [name, expr] : args) {
    if (name == key) return expr;
  }
  fail_kind("KeyError", py_repr(str(key)));
}

// zip(a, b, strict=True): Python's ValueError when the lengths differ.
void strict_zip(size_t first, size_t second) {
  if (second < first) fail_kind("ValueError", "zip() argument 2 is shorter than argument 1");
  if (second > first) fail_kind("ValueError", "zip() argument 2 is longer than argument 1");
}

bool has_role(const Any& func, const List& roles) {
  Any role = get_attr(func, "tt.kernel_role");
  return !is_none(role) && contains(roles, role);
}

List all_roles() { return list({str(kRoles[0]), str(kRoles[1]), str(kRoles[2])}); }

// engines._role_pass: run `body` on the kernels of the given roles only.
Any role_pass(const std::string& name, const List& roles, FuncBody body) {
  return prim_func_pass(name, [roles, body](const Any& func) { return has_role(func, roles) ? body(func) : func; });
}

// ------------------------------------------------------------------------------------------------ split

bool uses(const Any& stmt, const Any& v) {
  bool found = false;
  walk(stmt, {{"ir.Var", [&](const Any& x) { found = found || x.same_as(v); }}});
  return found;
}

std::optional<Any> drop_unused_binds(const std::vector<Any>& stmts) {
  std::vector<Any> out;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (is_a(stmts[i], "tirx.Bind")) {
      Any v = field(stmts[i], "var");
      bool used = false;
      for (size_t j = i + 1; j < stmts.size() && !used; ++j) used = uses(stmts[j], v);
      if (!used) continue;
    }
    out.push_back(stmts[i]);
  }
  bool all_binds = std::all_of(out.begin(), out.end(), [](const Any& s) { return is_a(s, "tirx.Bind"); });
  if (out.empty() || all_binds) return std::nullopt;
  return seq(out);
}

std::optional<Any> keep(const Any& stmt, const std::string& role) {
  if (is_a(stmt, "tirx.SeqStmt")) {
    std::vector<Any> kept;
    for (const Any& s : as_list(field(stmt, "seq"))) {
      if (auto k = keep(s, role)) kept.push_back(*k);
    }
    return drop_unused_binds(kept);
  }
  if (is_a(stmt, "tirx.For")) {
    auto inner = keep(field(stmt, "body"), role);
    if (!inner) return std::nullopt;
    return for_loop(field(stmt, "loop_var"), field(stmt, "min"), field(stmt, "extent"),
                    static_cast<int>(as_int(field(stmt, "kind"))), *inner, field(stmt, "annotations"));
  }
  if (is_a(stmt, "tirx.IfThenElse")) {
    Any else_case = field(stmt, "else_case");
    auto then = keep(field(stmt, "then_case"), role);
    auto other = is_none(else_case) ? std::nullopt : keep(else_case, role);
    if (!then && !other) return std::nullopt;
    return if_then_else(field(stmt, "condition"), then ? *then : evaluate(int_imm(0)),
                        other ? *other : Any(nullptr));
  }
  if (is_a(stmt, "tirx.Bind")) return stmt;
  if (is_a(stmt, "tirx.Evaluate")) {
    Any value = field(stmt, "value");
    if (const Intrinsic* record = intrinsic_of(value)) {
      return record->has_role(role) ? std::optional<Any>(stmt) : std::nullopt;
    }
    if (is_a(value, "ir.IntImm")) return std::nullopt;
  }
  fail("statement left after tile-op lowering cannot be split into kernels: " + py_str(stmt));
}

// ------------------------------------------------------------------------------------------- multicast

// 'row' / 'column' when the block index depends on one launch variable (and step loops) only.
std::string shared_along(const Any& expr, const Dict& launch, const std::set<std::string>& step_vars) {
  std::set<std::string> names;
  walk(expr, {{"ir.Var", [&](const Any& v) { names.insert(as_str(field(v, "name"))); }}});
  const char* const table[2][3] = {{"row", "blockIdx.y", "blockIdx.x"}, {"column", "blockIdx.x", "blockIdx.y"}};
  for (const auto& entry : table) {
    Any mine = get(launch, entry[1]);
    Any other = get(launch, entry[2]);
    if (is_none(mine) || !names.count(as_str(mine))) continue;
    if (!is_none(other) && names.count(as_str(other))) continue;
    bool subset = std::all_of(names.begin(), names.end(),
                              [&](const std::string& n) { return n == as_str(mine) || step_vars.count(n); });
    if (subset) return entry[0];
  }
  return "none";
}

using BlockRead = std::pair<Any, std::vector<std::string>>;  // call, enclosing step loop names

void block_reads(const Any& stmt, const std::string& op, const std::vector<std::string>& loops,
                 std::vector<BlockRead>& out) {
  if (is_a(stmt, "tirx.SeqStmt")) {
    for (const Any& s : as_list(field(stmt, "seq"))) block_reads(s, op, loops, out);
  } else if (is_a(stmt, "tirx.For")) {
    Dict annotations = as_dict(field(stmt, "annotations"));
    if (annotations.count(String(kPersistentLoop))) {
      block_reads(field(stmt, "body"), op, loops, out);
    } else if (is_a(field(stmt, "extent"), "ir.IntImm")) {
      std::vector<std::string> inner = loops;
      inner.push_back(as_str(field(field(stmt, "loop_var"), "name")));
      block_reads(field(stmt, "body"), op, inner, out);
    }
  } else if (is_a(stmt, "tirx.Evaluate")) {
    Any value = field(stmt, "value");
    const Intrinsic* record = intrinsic_of(value);
    if (record != nullptr && record->name == op) out.emplace_back(value, loops);
  }
}

// Set or replace a key of an ordered (key, value) list (Python dict assignment).
template <typename V>
void put(std::vector<std::pair<Any, V>>& items, const Any& key, V value) {
  for (auto& item : items) {
    if (item.first.same_as(key)) {
      item.second = std::move(value);
      return;
    }
  }
  items.emplace_back(key, std::move(value));
}

struct CoreFacts {
  List cores;  // (x, y) per work item
  int64_t cores_x = 0, cores_y = 0;
  bool uniform = false;
};

CoreFacts core_facts(const List& work) {
  CoreFacts f;
  std::set<int64_t> xs, ys, counts;
  std::vector<std::pair<int64_t, int64_t>> sorted_cores;
  for (const Any& w : work) {
    List core = as_list(item(w, str("core")));
    f.cores.push_back(core);
    xs.insert(as_int(core[0]));
    ys.insert(as_int(core[1]));
    counts.insert(as_int(item(w, str("count"))));
    sorted_cores.emplace_back(as_int(core[0]), as_int(core[1]));
  }
  f.cores_x = static_cast<int64_t>(xs.size());
  f.cores_y = static_cast<int64_t>(ys.size());
  std::vector<std::pair<int64_t, int64_t>> rect;
  for (int64_t x = 0; x < f.cores_x; ++x) {
    for (int64_t y = 0; y < f.cores_y; ++y) rect.emplace_back(x, y);
  }
  std::sort(sorted_cores.begin(), sorted_cores.end());
  f.uniform = counts.size() == 1 && sorted_cores == rect;
  return f;
}

// ------------------------------------------------------------------------------------------------ verify

using Totals = std::map<std::pair<int64_t, std::string>, int64_t>;  // (cb, op) -> pages

int64_t total(const Totals& totals, int64_t cb, const std::string& op) {
  auto it = totals.find({cb, op});
  return it == totals.end() ? 0 : it->second;
}

void balanced_or_raise(const Totals& totals, const List& pairs, const std::string& where) {
  std::set<int64_t> cbs;
  for (const auto& kv : totals) cbs.insert(kv.first.first);
  for (int64_t cb : cbs) {
    for (const Any& pair : pairs) {
      List p = as_list(pair);
      std::string give = as_str(p[0]), take = as_str(p[1]);
      int64_t a = total(totals, cb, give), b = total(totals, cb, take);
      if (a != b) {
        fail(where + ": CB " + std::to_string(cb) + " is unbalanced per iteration: " + give + " " +
             std::to_string(a) + " page(s), " + take + " " + std::to_string(b));
      }
    }
  }
}

bool in_pairs(const std::string& name, const List& pairs) {
  for (const Any& pair : pairs) {
    if (contains(as_list(pair), str(name))) return true;
  }
  return false;
}

void count_pages(const Any& stmt, int64_t scale, Totals& totals, const List& pairs, const std::string& kernel) {
  if (is_a(stmt, "tirx.SeqStmt")) {
    for (const Any& s : as_list(field(stmt, "seq"))) count_pages(s, scale, totals, pairs, kernel);
  } else if (is_a(stmt, "tirx.For")) {
    Totals inner;
    count_pages(field(stmt, "body"), 1, inner, pairs, kernel);
    balanced_or_raise(inner, pairs, kernel + ": loop over '" + py_str(field(stmt, "loop_var")) + "'");
    Any extent = field(stmt, "extent");
    if (is_a(extent, "ir.IntImm")) {
      for (const auto& [key, value] : inner) totals[key] += value * as_int(extent) * scale;
    }
  } else if (is_a(stmt, "tirx.IfThenElse")) {
    for (const char* branch : {"then_case", "else_case"}) {
      Any b = field(stmt, branch);
      if (!is_none(b)) count_pages(b, scale, totals, pairs, kernel);
    }
  } else if (is_a(stmt, "tirx.Evaluate")) {
    Any value = field(stmt, "value");
    const Intrinsic* record = intrinsic_of(value);
    if (record != nullptr && in_pairs(record->name, pairs)) {
      List args = as_list(field(value, "args"));
      if (args.size() != 2) {
        fail_kind("ValueError", args.size() > 2 ? "too many values to unpack (expected 2)"
                                                : "not enough values to unpack (expected 2, got " +
                                                      std::to_string(args.size()) + ")");
      }
      if (is_a(args[0], "ir.IntImm") && is_a(args[1], "ir.IntImm")) {
        totals[{as_int(args[0]), record->name}] += as_int(args[1]) * scale;
      }
    }
  }
}

// engines._cb_balance: only loop bodies are checked (the kernel as a whole runs once).
void cb_balance(const Any& func, const List& pairs) {
  std::string kernel = py_str(get_attr(func, "global_symbol"));
  Totals totals;
  count_pages(field(func, "body"), 1, totals, pairs, kernel);
}

// engines.kernel_facts: whether compute results accumulate in fp32, the profile and the device.
Ctx kernel_facts(const Any& func) {
  List acc_dtypes;  // a set in Python: only membership matters
  for (const Any& cb : attr_list(func, "tt.cbs")) {
    if (as_str(item(cb, str("class"))) != "input" && as_str(item(cb, str("producer"))) == "compute") {
      Any d = item(cb, str("buffer_dtype"));
      if (!contains(acc_dtypes, d)) acc_dtypes.push_back(d);
    }
  }
  bool fp32 = false;
  for (const Any& d : acc_dtypes) {
    if (truthy(fn::supported_dtype(d)) && as_int(fn::dtype_bytes(d)) == 4) fp32 = true;
  }
  Ctx facts;
  facts.set("fp32_acc", Any(fp32)).set("profile", str(profile())).set("device", device());
  return facts;
}

Ctx merge(Ctx ctx, const Ctx& more, std::initializer_list<const char*> names) {
  for (const char* n : names) ctx.set(n, more.get(n));
  return ctx;
}

}  // namespace

namespace engines {

// -------------------------------------------------------------------------------------------------- split

Any split(const std::string& name, const Dict& options, const Any& roles) {
  List role_list = as_list(roles);
  return module_pass(name, [role_list](const Any& mod) -> Any {
    std::vector<std::pair<std::string, Any>> out;  // name -> func, a Python dict keyed by name
    auto assign = [&](const std::string& key, const Any& func) {
      for (auto& kv : out) {
        if (kv.first == key) {
          kv.second = func;
          return;
        }
      }
      out.emplace_back(key, func);
    };
    for (const auto& [gvar, func] : as_dict(field(mod, "functions"))) {
      std::string gname = as_str(field(gvar, "name_hint"));
      if (!is_a(func, "tirx.PrimFunc") || truthy(get_attr(func, "tt.kernel_role"))) {
        assign(gname, func);
        continue;
      }
      for (const Any& role : role_list) {
        std::string r = as_str(role);
        auto kept = keep(field(func, "body"), r);
        std::string kernel_name = gname + "_" + r;
        Any kernel = with_body(func, kept ? *kept : evaluate(int_imm(0)));
        assign(kernel_name, with_attrs(kernel, {{"global_symbol", str(kernel_name)}, {"tt.kernel_role", str(r)}}));
      }
    }
    Dict functions;  // tvm.IRModule(dict): string keys become new GlobalVars
    for (const auto& [key, func] : out) functions.Set(call("ir.GlobalVar", String(key)), func);
    return call("ir.IRModule", functions, Any(nullptr), Dict());
  });
}

// ---------------------------------------------------------------------------------------------- multicast

Any multicast(const std::string& name, const Dict& options, const Any& op, const Any& tensor, const Any& index,
              const Any& emit, const Expr& when, const ExprMap& runtime_args, const Any& semaphores,
              const ExprMap& args) {
  std::string op_name = as_str(op), tensor_arg = as_str(tensor), index_arg = as_str(index), emit_name = as_str(emit);
  const Intrinsic* target = &intrinsic(emit_name);  // a static record
  List sem_names = as_list(semaphores);
  auto body = [=](const Any& func) -> Any {
    CoreFacts f = core_facts(attr_list(func, "tt.work_partition"));
    Dict launch = attr_dict(func, "tt.launch_vars");
    Ctx facts;
    facts.set("partition_mode", get_attr(func, "tt.partition_mode"))
        .set("uniform", Any(f.uniform))
        .set("cores_x", Any(f.cores_x))
        .set("cores_y", Any(f.cores_y))
        .set("device", device())
        .set("options", options_ns(options));
    std::vector<std::pair<Any, Any>> replaced;  // old call -> new call (Python dict keyed by object)
    List new_args, sems;
    std::vector<Dict> values;
    for (const Any& v : attr_list(func, "tt.work_values")) values.push_back(as_dict(v));
    std::vector<BlockRead> reads;
    block_reads(field(func, "body"), op_name, {}, reads);
    for (const auto& [call_expr, loops] : reads) {
      const Intrinsic& record = *intrinsic_of(call_expr);
      auto named = named_args(record, call_expr);
      Ctx ctx;
      Dict named_map;
      for (const auto& [k, v] : named) {
        ctx.set(k, v);
        named_map.Set(String(k), v);
      }
      std::set<std::string> step_vars(loops.begin(), loops.end());
      std::string along = shared_along(item(named_map, str(index_arg)), launch, step_vars);
      int64_t receivers = along == "row" ? f.cores_x - 1 : along == "column" ? f.cores_y - 1 : 0;
      ctx = merge(ctx, facts, {"partition_mode", "uniform", "cores_x", "cores_y", "device", "options"});
      ctx.set("along", str(along)).set("receivers", Any(receivers));
      if (!truthy(when(ctx))) continue;
      std::string source = as_str(field(item(named_map, str(tensor_arg)), "name"));
      std::vector<std::pair<std::string, Any>> bound;
      auto bind_value = [&](const std::string& key, const Any& value) {
        for (auto& kv : bound) {
          if (kv.first == key) {
            kv.second = value;
            return;
          }
        }
        bound.emplace_back(key, value);
      };
      for (const auto& [arg, expr] : runtime_args) {
        std::string var_name = source + "_" + arg;
        bind_value(arg, var(var_name, "int32"));
        new_args.push_back(str(var_name));
        strict_zip(values.size(), f.cores.size());
        for (size_t i = 0; i < values.size(); ++i) {
          List core = as_list(f.cores[i]);
          Ctx at = ctx;
          at.set("x", core[0]).set("y", core[1]);
          values[i].Set(String(var_name), fn::runtime_value(expr(at)));
        }
      }
      for (const Any& sem : sem_names) {
        std::string var_name = source + "_" + as_str(sem);
        bind_value(as_str(sem), var(var_name, "int32"));
        new_args.push_back(str(var_name));
        sems.push_back(dict({{str("name"), str(var_name)}, {str("initial_value"), Any(int64_t(0))}}));
        for (Dict& core_values : values) core_values.Set(String(var_name), dict({{str("semaphore"), str(var_name)}}));
      }
      for (const auto& [key, expr] : args) bind_value(key, expr(ctx));
      auto lookup = [&](const std::string& key) -> std::optional<Any> {
        for (const auto& kv : bound) {
          if (kv.first == key) return kv.second;
        }
        auto found = named_map.Get(String(key));
        return found.has_value() ? std::optional<Any>(*found) : std::nullopt;
      };
      std::vector<std::string> missing;
      std::vector<Any> call_args;
      for (const auto& a : target->args) {
        auto v = lookup(a.first);
        if (!v) missing.push_back(a.first);
        call_args.push_back(v ? *v : Any(nullptr));
      }
      if (!missing.empty()) {
        fail(name + ": no value for argument(s) " + join(missing) + " of tt." + emit_name);
      }
      put(replaced, call_expr, tt_call(emit_name, call_args));
    }
    if (replaced.empty()) return func;
    Any new_body = map_evaluates(field(func, "body"), [&](const Any& ev) -> std::optional<Any> {
      Any value = field(ev, "value");
      for (const auto& [old, repl] : replaced) {
        if (value.same_as(old)) return evaluate(repl);
      }
      return std::nullopt;
    });
    List work_args = attr_list(func, "tt.work_args");
    for (const Any& a : new_args) work_args.push_back(a);
    List value_list;
    for (const Dict& v : values) value_list.push_back(v);
    return with_attrs(with_body(func, new_body),
                      {{"tt.work_args", work_args}, {"tt.work_values", value_list}, {"tt.semaphores", sems}});
  };
  return role_pass(name, list({str("reader")}), body);
}

// ---------------------------------------------------------------------------------------------- accessors

Any accessors(const std::string& name, const Dict& options, const Any& protocol, const ExprMap& args,
              const Expr& address_arg) {
  std::string protocol_name = as_str(protocol);
  auto body = [=](const Any& func) -> Any {
    std::vector<BufferInfo> params = tensor_params(func);
    auto tensor_index = [&](const std::string& n) -> const BufferInfo* {
      const BufferInfo* found = nullptr;  // a dict comprehension: the last parameter of a name wins
      for (const BufferInfo& t : params) {
        if (t.name == n) found = &t;
      }
      return found;
    };
    Dict layouts = attr_dict(func, "tt.accessors");
    struct Used {
      std::string tensor;
      Any var;
      int64_t cb;
    };
    std::vector<Used> used;  // in first-use order
    auto is_used = [&](const std::string& n) {
      return std::any_of(used.begin(), used.end(), [&](const Used& u) { return u.tensor == n; });
    };
    for (const auto& [record, call_expr] : tt_calls(field(func, "body"))) {
      List values = as_list(field(call_expr, "args"));
      strict_zip(record->args.size(), values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        if (record->args[i].second != "handle") continue;
        std::string n = as_str(field(values[i], "name"));
        if (tensor_index(n) == nullptr || is_used(n)) continue;
        int64_t cb = -1;
        for (const auto& [k, v] : named_args(*record, call_expr)) {
          if (k == "cb") cb = as_int(v);
        }
        used.push_back({n, values[i], cb});
      }
    }
    std::vector<Used> order = used;
    std::stable_sort(order.begin(), order.end(), [&](const Used& a, const Used& b) {
      return tensor_index(a.tensor)->index < tensor_index(b.tensor)->index;
    });
    Builder b(profile());
    std::vector<std::pair<std::string, Any>> swap;  // tensor -> accessor
    List compile_args;
    Dict tensor_args;
    for (size_t position = 0; position < order.size(); ++position) {
      const Used& u = order[position];
      Any addr = var(py_str(address_arg(Ctx{{"name", str(u.tensor)}})), "uint32");
      Any layout = item(layouts, str(u.tensor));
      Ctx ctx{{"tensor", layout},
              {"position", Any(static_cast<int64_t>(position))},
              {"address", addr},
              {"cb", Any(u.cb)},
              {"device", device()}};
      Dict bound = run_protocol(protocol_name, b, eval_args(args, ctx));
      swap.emplace_back(u.tensor, item(bound, str("accessor")));
      if (truthy(item(layout, str("compile_time_args")))) {
        compile_args.push_back(dict({{str("tensor"), str(u.tensor)},
                                     {str("offset"), Any(as_int(expr_of(args, "cta_offset")(ctx)))}}));
      }
      tensor_args.Set(field(addr, "name"), str(u.tensor));
    }
    Any new_body = map_evaluates(field(func, "body"), [&](const Any& ev) -> std::optional<Any> {
      const Intrinsic* record = intrinsic_of(field(ev, "value"));
      if (record == nullptr) return std::nullopt;
      std::vector<Any> call_args;
      for (const Any& value : as_list(field(field(ev, "value"), "args"))) {
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
      return evaluate(tt_call(record->name, call_args));
    });
    std::vector<Any> stmts = used.empty() ? std::vector<Any>() : flatten(b.finish());
    for (const Any& s : flatten(new_body)) stmts.push_back(s);
    return with_attrs(with_body(func, seq(stmts)),
                      {{"tt.compile_time_args", compile_args}, {"tt.tensor_args", tensor_args}});
  };
  return role_pass(name, list({str("reader"), str("writer")}), body);
}

// ------------------------------------------------------------------------------------------------ rewrite

Any rewrite(const std::string& name, const Dict& options, const Cases& cases, const Any& roles) {
  List role_list = is_none(roles) ? all_roles() : as_list(roles);
  auto body = [cases](const Any& func) -> Any {
    Ctx facts = kernel_facts(func);
    Any new_body = map_evaluates(field(func, "body"), [&](const Any& ev) -> std::optional<Any> {
      Any value = field(ev, "value");
      const Intrinsic* record = intrinsic_of(value);
      if (record == nullptr) return std::nullopt;
      const std::vector<Case>* options_of_op = cases_of(cases, record->name);
      if (options_of_op == nullptr) return std::nullopt;
      Ctx ctx = merge(named_ctx(*record, value), facts, {"fp32_acc", "profile", "device"});
      const Case* c = choose_case(*options_of_op, ctx, "tt." + record->name + ":");
      if (c == nullptr) return std::nullopt;
      if (c->set) {
        List raw = as_list(field(value, "args"));
        strict_zip(record->args.size(), raw.size());
        std::vector<Any> call_args(raw.begin(), raw.end());
        for (const auto& [key, expr] : *c->set) {
          Any v = fn::expr(expr(ctx));
          for (size_t i = 0; i < record->args.size(); ++i) {  // keys that name no argument are dropped
            if (record->args[i].first == key) call_args[i] = v;
          }
        }
        return evaluate(tt_call(record->name, call_args));
      }
      if (!c->args) fail_kind("KeyError", "'args'");
      if (!c->emit.empty()) {
        const Intrinsic& target = intrinsic(c->emit);
        std::vector<Any> call_args;
        for (const auto& a : target.args) call_args.push_back(expr_of(*c->args, a.first)(ctx));
        return evaluate(tt_call(c->emit, call_args));
      }
      Builder b(profile());
      run_protocol(c->protocol, b, eval_args(*c->args, ctx));
      return b.finish();
    });
    return with_body(func, new_body);
  };
  return role_pass(name, role_list, body);
}

// ------------------------------------------------------------------------------------------- compute_init

Any compute_init(const std::string& name, const Dict& options, const Any& protocol,
                 const std::vector<std::pair<std::string, Expr>>& families,
                 const std::vector<std::pair<std::string, ExprMap>>& operands) {
  std::string protocol_name = as_str(protocol);
  auto family_of = [families](const std::string& op) -> const Expr* {
    for (const auto& [k, e] : families) {
      if (k == op) return &e;
    }
    return nullptr;
  };
  auto body = [=](const Any& func) -> Any {
    std::vector<std::pair<const Intrinsic*, Any>> ops;
    for (const auto& rc : tt_calls(field(func, "body"))) {
      if (family_of(rc.first->name) != nullptr) ops.push_back(rc);
    }
    if (ops.empty()) return func;
    const auto& [record, first] = ops[0];
    Ctx ctx = named_ctx(*record, first);
    const ExprMap* operand_exprs = nullptr;
    for (const auto& [k, m] : operands) {
      if (k == record->name) operand_exprs = &m;
    }
    if (operand_exprs == nullptr) fail_kind("KeyError", py_repr(str(record->name)));
    Ctx protocol_args;
    protocol_args.set("family", (*family_of(record->name))(ctx));
    Builder b(profile());
    run_protocol(protocol_name, b, eval_args(*operand_exprs, ctx, protocol_args));
    List kinds;  // a set of family values in Python
    for (const auto& [r, c] : ops) {
      Any k = (*family_of(r->name))(named_ctx(*r, c));
      if (!contains(kinds, k)) kinds.push_back(k);
    }
    bool mixed = kinds.size() > 1;
    Any marked = map_evaluates(field(func, "body"), [&](const Any& ev) -> std::optional<Any> {
      Any value = field(ev, "value");
      const Intrinsic* rec = intrinsic_of(value);
      if (!mixed || rec == nullptr || family_of(rec->name) == nullptr) return std::nullopt;
      List raw = as_list(field(value, "args"));
      strict_zip(rec->args.size(), raw.size());
      std::vector<Any> call_args;
      for (size_t i = 0; i < raw.size(); ++i) call_args.push_back(rec->args[i].first == "init" ? int_imm(1) : raw[i]);
      return evaluate(tt_call(rec->name, call_args));
    });
    std::vector<Any> stmts = flatten(b.finish());
    for (const Any& s : flatten(marked)) stmts.push_back(s);
    return with_body(func, seq(stmts));
  };
  return role_pass(name, list({str("compute")}), body);
}

// ----------------------------------------------------------------------------------------------- finalize

Any finalize(const std::string& name, const Dict& options, const Any& order) {
  List groups_order = as_list(order);
  auto body = [groups_order](const Any& func) -> Any {
    std::vector<std::pair<std::string, Any>> free;  // name -> var, first position kept, last var wins
    for (const Any& v : as_list(call("tirx.analysis.UndefinedVars", field(func, "body"), List()))) {
      std::string n = as_str(field(v, "name"));
      auto it = std::find_if(free.begin(), free.end(), [&](const auto& kv) { return kv.first == n; });
      if (it != free.end()) {
        it->second = v;
      } else {
        free.emplace_back(n, v);
      }
    }
    auto free_var = [&](const std::string& n) -> const Any* {
      for (const auto& kv : free) {
        if (kv.first == n) return &kv.second;
      }
      return nullptr;
    };
    Dict tensor_args = attr_dict(func, "tt.tensor_args");
    List work_args = attr_list(func, "tt.work_args");
    std::vector<std::string> names;
    for (const Any& group : groups_order) {
      std::string g = as_str(group);
      if (g == "tensors") {
        for (const auto& kv : tensor_args) {
          if (free_var(as_str(kv.first))) names.push_back(as_str(kv.first));
        }
      } else if (g == "work") {
        for (const Any& a : work_args) {
          if (free_var(as_str(a))) names.push_back(as_str(a));
        }
      } else {
        fail_kind("KeyError", py_repr(group));
      }
    }
    std::set<std::string> unknown;
    for (const auto& kv : free) {
      if (std::find(names.begin(), names.end(), kv.first) == names.end()) unknown.insert(kv.first);
    }
    if (!unknown.empty()) {
      fail(py_str(get_attr(func, "global_symbol")) + ": value(s) " +
           join(std::vector<std::string>(unknown.begin(), unknown.end())) +
           " are neither runtime arguments nor defined in the kernel");
    }
    std::vector<Any> stmts;
    for (size_t index = 0; index < names.size(); ++index) {
      Any value = tt_call("get_arg_val", {Any(static_cast<int64_t>(index))});
      const Any& v = *free_var(names[index]);
      std::string dtype = py_str(field(field(v, "ty"), "dtype"));
      stmts.push_back(tl::bind(v, dtype == "uint32" ? value : cast(dtype, value)));
    }
    List per_core;
    for (const Any& work : attr_list(func, "tt.work_values")) {
      List values;
      for (const std::string& a : names) {
        auto t = tensor_args.Get(String(a));
        values.push_back(t.has_value() ? Any(dict({{str("tensor"), *t}})) : item(work, str(a)));
      }
      per_core.push_back(values);
    }
    List cores;
    for (const Any& w : attr_list(func, "tt.work_partition")) cores.push_back(item(w, str("core")));
    for (const Any& s : flatten(field(func, "body"))) stmts.push_back(s);
    Any attrs = field(func, "attrs");
    if (is_none(attrs)) attrs = call("ir.DictAttrs", Dict());
    Any fresh = prim_func(List(), seq(stmts), call("ir.TypeMissing"), attrs);
    strict_zip(cores.size(), per_core.size());
    List arg_values;
    for (size_t i = 0; i < cores.size(); ++i) {
      arg_values.push_back(dict({{str("core"), cores[i]}, {str("args"), per_core[i]}}));
    }
    List name_list;
    for (const std::string& n : names) name_list.push_back(str(n));
    return with_attrs(fresh, {{"tt.runtime_args", name_list}, {"tt.runtime_arg_values", arg_values}});
  };
  return role_pass(name, all_roles(), body);
}

// ------------------------------------------------------------------------------------------------- verify

Any verify(const std::string& name, const Dict& options, const Any& structural, const Any& balance,
           const Checks& checks) {
  List wanted = as_list(structural);
  List pairs = is_none(balance) ? List() : as_list(balance);
  auto body = [=](const Any& func) -> Any {
    Any role = get_attr(func, "tt.kernel_role");
    std::string kernel = py_str(get_attr(func, "global_symbol"));
    bool no_abstract = contains(wanted, str("no_abstract_ops"));
    bool role_legal = contains(wanted, str("role_legal_calls"));
    for (const auto& [record, c] : tt_calls(field(func, "body"))) {
      if (no_abstract && record->level == "abstract") {
        fail(kernel + ": abstract op tt." + record->name + " was not lowered");
      }
      if (role_legal && !record->has_role(py_str(role))) {
        fail(kernel + ": tt." + record->name + " is not legal in a " + py_str(role) + " kernel (roles: " +
             join(record->roles) + ")");
      }
    }
    if (contains(wanted, str("cb_balance"))) cb_balance(func, pairs);
    List cbs = attr_list(func, "tt.cbs");
    int64_t l1 = 0, best = 0;
    Any biggest(nullptr);
    for (const Any& cb : cbs) {
      int64_t bytes = as_int(item(cb, str("depth"))) * as_int(item(cb, str("page_bytes")));
      l1 += bytes;
      if (is_none(biggest) || bytes > best) {  // max() keeps the first of equal keys
        biggest = cb;
        best = bytes;
      }
    }
    std::string largest = "none";
    if (!is_none(biggest)) {
      largest = "'" + py_str(item(biggest, str("buffer"))) + "' (CB " + py_str(item(biggest, str("index"))) +
                "): " + py_str(item(biggest, str("depth"))) + " pages x " + py_str(item(biggest, str("page_bytes"))) +
                " B";
    }
    Ctx ctx{{"cbs", Any(static_cast<int64_t>(cbs.size()))},
            {"l1_bytes", Any(l1)},
            {"largest_cb", str(largest)},
            {"runtime_args", Any(static_cast<int64_t>(attr_list(func, "tt.runtime_args").size()))},
            {"device", device()},
            {"kernel", str(kernel)}};
    check(checks, kernel + ":", ctx);
    return func;
  };
  return role_pass(name, all_roles(), body);
}

}  // namespace engines

// Code generation asks the same question as the rewrite rules: does the compute kernel accumulate in fp32?
TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef().def("tl.tt.KernelAccumulatesFp32",
                                        [](const Any& func) { return truthy(kernel_facts(func).get("fp32_acc")); });
}

}  // namespace tl
