// The multicast engine: a block read every core of a grid row (or column) makes is replaced by a multicast
// read, one core reading the block once and the NoC delivering it to the others, with the extra runtime
// arguments and semaphores the rule names. The same planning (per-core arguments, semaphores, a replaced
// block op of one kernel) orders the read-modify-writes of a split-K group (PlanTTAtomicOrder).
#include <algorithm>

#include "multicast.h"
#include "records.h"

namespace tl {
namespace mcast {
namespace {

// 'row' / 'column' when the block index depends on one launch variable (and step loops) only.
std::string shared_along(const Any& expr, const Dict& launch, const std::set<std::string>& step_vars) {
  std::set<std::string> used;
  walk(expr, {ir::visit<ir::Var>([&](const ir::Var& v) { used.insert(v.name()); })});
  const char* const table[2][3] = {{"row", "blockIdx.y", "blockIdx.x"}, {"column", "blockIdx.x", "blockIdx.y"}};
  for (const auto& entry : table) {
    Any mine = get(launch, entry[1]);
    Any other = get(launch, entry[2]);
    if (is_none(mine) || !used.count(as_str(mine))) continue;
    if (!is_none(other) && used.count(as_str(other))) continue;
    bool subset = std::all_of(used.begin(), used.end(),
                              [&](const std::string& n) { return n == as_str(mine) || step_vars.count(n); });
    if (subset) return entry[0];
  }
  return "none";
}

}  // namespace

// The loop name block_reads records for a loop of run-time trip count, a while loop or a branch.
const char kIrregular[] = "<irregular>";

void block_reads(const Any& stmt, const std::string& op, const std::vector<std::string>& loops,
                 std::vector<BlockRead>& out) {
  if (auto s = ir::SeqStmt::from(stmt)) {
    for (const Any& x : s->seq()) block_reads(x, op, loops, out);
  } else if (auto loop = ir::For::from(stmt)) {
    if (loop->annotations().count(String(keys::kTtPersistentLoop))) {
      block_reads(loop->body(), op, loops, out);
    } else {
      std::vector<std::string> inner = loops;
      // a loop of constant trip count from a constant start steps alike on every core; one starting at a
      // per-core value (attention sink's sliding window: `T.Pipelined(start, end)`, start from bx) does not
      bool lockstep = ir::IntImm::matches(loop->extent()) && ir::IntImm::matches(loop->min());
      inner.push_back(lockstep ? loop->loop_var().name() : kIrregular);
      block_reads(loop->body(), op, inner, out);
    }
  } else if (auto w = ir::While::from(stmt)) {  // reads of a while loop or a branch: never shared along a row
    std::vector<std::string> inner = loops;
    inner.push_back(kIrregular);
    block_reads(w->body(), op, inner, out);
  } else if (auto branch = ir::IfThenElse::from(stmt)) {
    std::vector<std::string> inner = loops;
    inner.push_back(kIrregular);
    block_reads(branch->then_case(), op, inner, out);
    if (!is_none(branch->else_case())) block_reads(branch->else_case(), op, inner, out);
  } else if (auto ev = ir::Evaluate::from(stmt)) {
    const Intrinsic* record = intrinsic_of(ev->value());
    if (record != nullptr && record->name == op) out.emplace_back(ev->value(), loops);
  }
}

CoreFacts core_facts(const List& work) {
  CoreFacts f;
  std::set<int64_t> xs, ys, counts;
  std::vector<std::pair<int64_t, int64_t>> sorted_cores;
  for (const Any& w : work) {
    List core = as_list(item(w, str(records::work_item::kCore)));
    f.cores.push_back(core);
    xs.insert(as_int(core[0]));
    ys.insert(as_int(core[1]));
    counts.insert(as_int(item(w, str(records::work_item::kCount))));
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

std::string Planner::along(const Any& read, const std::vector<std::string>& loops) const {
  if (std::find(loops.begin(), loops.end(), kIrregular) != loops.end()) return "none";  // trip counts may differ
  const Ctx named = named_ctx(*intrinsic_of(read), read);
  return shared_along(named.get(index_arg.c_str()), launch, std::set<std::string>(loops.begin(), loops.end()));
}

Ctx Planner::context(const Any& read, const std::vector<std::string>& loops) const {
  std::string dir = along(read, loops);
  int64_t receivers = dir == "row" ? cores.cores_x - 1 : dir == "column" ? cores.cores_y - 1 : 0;
  Ctx ctx = merge(named_ctx(*intrinsic_of(read), read), facts,
                  {names::kPartitionMode, names::kUniform, names::kCoresX, names::kCoresY});
  ctx.set(names::kAlong, str(dir)).set(names::kReceivers, Any(receivers));
  return ctx;
}

std::optional<Any> Planner::replace(const Any& read, const std::vector<std::string>& loops) {
  const Ctx named = named_ctx(*intrinsic_of(read), read);
  Ctx ctx = context(read, loops);
  if (!truthy(when(ctx))) return std::nullopt;
  std::string source = ir::Var(named.get(tensor_arg.c_str())).name();
  Ctx bound;  // the emitted call's arguments the rule provides
  add_runtime_args(ctx, source, bound);
  add_semaphores(source, bound);
  for (const auto& [key, e] : args) bound.set(key, e(ctx));
  std::vector<std::string> missing;
  std::vector<Any> call_args;
  for (const auto& [arg, type] : intrinsic(emit).args) {
    const Ctx& from = bound.has(arg) ? bound : named;
    if (!from.has(arg)) missing.push_back(arg);
    call_args.push_back(from.has(arg) ? from.get(arg.c_str()) : Any(nullptr));
  }
  if (!missing.empty()) fail(pass + ": no value for argument(s) " + join(missing) + " of " + intrinsic(emit).op_name);
  return tt_call(emit, call_args);
}

void Planner::add_runtime_args(const Ctx& ctx, const std::string& source, Ctx& bound) {
  for (const auto& [arg, e] : runtime_args) {
    std::string var_name = source + "_" + arg;
    bound.set(arg, var(var_name, "int32"));
    if (!contains(new_args, str(var_name))) new_args.push_back(str(var_name));
    strict_zip(values.size(), cores.cores.size());
    for (size_t i = 0; i < values.size(); ++i) {
      List core = as_list(cores.cores[i]);
      Ctx at = ctx;
      at.set(names::kX, core[0]).set(names::kY, core[1]);
      values[i].Set(String(var_name), fn::runtime_value(e(at)));
    }
  }
}

void Planner::add_semaphores(const std::string& source, Ctx& bound) {
  for (const Any& sem : sem_names) {
    std::string var_name = source + "_" + as_str(sem);
    bound.set(as_str(sem), var(var_name, "int32"));
    if (!contains(new_args, str(var_name))) new_args.push_back(str(var_name));
    bool planned = std::any_of(sems.begin(), sems.end(), [&](const Any& s) { return as_str(item(s, str(records::semaphore::kName))) == var_name; });
    if (!planned) sems.push_back(dict({{str(records::semaphore::kName), str(var_name)},
                                            {str(records::semaphore::kInitialValue), Any(int64_t(0))}}));
    for (Dict& core_values : values) core_values.Set(String(var_name), dict({{str(records::semaphore_id::kSemaphore), str(var_name)}}));
  }
}

List one_block_deep(const List& cbs, const std::set<int64_t>& single) {
  List out;
  for (const Any& cb : cbs) {
    Dict d = as_dict(cb);
    if (single.count(as_int(item(cb, str(records::cb::kIndex))))) {
      d.Set(String(records::cb::kDepth), item(cb, str(records::cb::kBlockPages)));
    }
    out.push_back(d);
  }
  return out;
}

}  // namespace mcast

namespace engines {

Any multicast(const std::string& name, const Dict& options, const MulticastParams& params) {
  const Any& op = params.op;
  const Any& tensor = params.tensor;
  const Any& index = params.index;
  const Any& emit = params.emit;
  const Expr& when = params.when;
  const ExprMap& runtime_args = params.runtime_args;
  const Any& semaphores = params.semaphores;
  const ExprMap& args = params.args;
  std::string op_name = as_str(op);
  mcast::Planner rule{name, as_str(tensor), as_str(index), as_str(emit), when, runtime_args, args, as_list(semaphores),
                      params.prefix};
  intrinsic(rule.emit);  // an unknown intrinsic fails when the pass is made
  auto body = [=](const Any& func, std::set<int64_t>& single) -> Any {
    mcast::Planner p = rule;
    p.cores = mcast::core_facts(attr_list(func, keys::kTtWorkPartition));
    p.launch = attr_dict(func, keys::kTtLaunchVars);
    p.facts.set(names::kPartitionMode, get_attr(func, keys::kTtPartitionMode))
        .set(names::kUniform, Any(p.cores.uniform))
        .set(names::kCoresX, Any(p.cores.cores_x))
        .set(names::kCoresY, Any(p.cores.cores_y));
    for (const Any& v : attr_list(func, keys::kTtWorkValues)) p.values.push_back(as_dict(v));
    for (const Any& s : attr_list(func, keys::kTtSemaphores)) p.sems.push_back(s);  // planned by another rule
    Any old_body = ir::PrimFunc(func).body();
    std::vector<mcast::BlockRead> reads;
    mcast::block_reads(old_body, op_name, {}, reads);
    std::vector<std::pair<Any, Any>> replaced;  // old call -> new call
    for (const auto& [read, loops] : reads) {
      auto repl = p.replace(read, loops);
      if (!repl) continue;
      auto it = std::find_if(replaced.begin(), replaced.end(), [&](const auto& r) { return r.first.same_as(read); });
      if (it == replaced.end()) {
        replaced.emplace_back(read, *repl);
      } else {
        it->second = *repl;
      }
    }
    Any new_body = replaced.empty() ? old_body : map_evaluates(old_body, [&](const ir::Evaluate& ev) -> std::optional<Any> {
      for (const auto& [old, repl] : replaced) {
        if (ev.value().same_as(old)) return evaluate(repl);
      }
      return std::nullopt;
    });
    if (p.prefix) new_body = mcast::split_prefix_loops(new_body, p, op_name, attr_list(func, keys::kTtWorkArgs), single);
    if (new_body.same_as(old_body)) return func;
    List work_args = attr_list(func, keys::kTtWorkArgs);
    for (const Any& a : p.new_args) {
      if (!contains(work_args, a)) work_args.push_back(a);  // another rule of the pass may have added it
    }
    List value_list;
    for (const Dict& v : p.values) value_list.push_back(v);
    return with_attrs(with_body(func, new_body),
                      {{keys::kTtWorkArgs, work_args}, {keys::kTtWorkValues, value_list}, {keys::kTtSemaphores, p.sems}});
  };
  Any role = str(is_none(params.role) ? std::string(roles::kReader) : as_str(params.role));
  // A module pass: the CBs of split loops are one block deep in every kernel's tt.cbs (multicast.h).
  return module_pass(name, [=](const Any& mod) -> Any {
    std::set<int64_t> single;
    std::vector<std::pair<Any, Any>> funcs;  // global var -> function
    bool changed = false;
    for (const auto& [gvar, func] : ir::IRModule(mod).functions()) {
      bool mine = ir::PrimFunc::matches(func) && values_equal(get_attr(func, keys::kTtKernelRole), role);
      funcs.emplace_back(gvar, mine ? body(func, single) : func);
      changed = changed || !funcs.back().second.same_as(func);
    }
    if (!changed) return mod;
    Dict functions;
    for (auto& [gvar, func] : funcs) {
      if (!single.empty() && ir::PrimFunc::matches(func) && !is_none(get_attr(func, keys::kTtCbs))) {
        func = with_attrs(func, {{keys::kTtCbs, mcast::one_block_deep(attr_list(func, keys::kTtCbs), single)}});
      }
      functions.Set(gvar, func);
    }
    return call("ir.IRModule", functions, Any(nullptr), Dict());
  });
}

}  // namespace engines
}  // namespace tl
