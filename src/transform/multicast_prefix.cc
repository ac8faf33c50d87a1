// Loops whose trip count differs across the cores of a multicast group (multicast.h): causal attention's key loop
// runs bx + 1 blocks, and the cores of a core row hold different bx. Every core of the row runs the first
// min-over-the-row iterations, so those reads are multicast as in a loop of constant trip count; the rest of each
// core's iterations read alone. The least trip count is computed in the kernel: the loop's extent with the let values
// it reads inlined and each work argument it reads (col0) replaced, core by core of the group, by that core's value,
// which the partition makes affine in the core's position in the group (checked against every core's values); a
// loop whose extent reads anything else (another core's data, a value the cores do not share) is left alone.
#include "multicast.h"

namespace tl::mcast {
namespace {

Any substitute_vars(const Any& node, const std::vector<std::pair<Any, Any>>& pairs) {
  return map(node, {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any {
               for (const auto& [from, to] : pairs) {
                 if (v.same_as(from)) return to;
               }
               return v.any();
             })});
}

// The value of work argument `name` on core (x, y), or nullopt.
std::optional<int64_t> work_value(const Planner& p, int64_t x, int64_t y, const std::string& name) {
  for (size_t i = 0; i < p.values.size() && i < p.cores.cores.size(); ++i) {
    List core = as_list(p.cores.cores[i]);
    if (as_int(core[0]) != x || as_int(core[1]) != y) continue;
    Any v = get(p.values[i], name);
    return is_int(v) ? std::optional<int64_t>(as_int(v)) : std::nullopt;
  }
  return std::nullopt;
}

// (c0, step) such that the core at position g of every group (a core row when `row`, else a core column) holds
// c0 + g * step of work argument `name`, or nullopt.
std::optional<std::pair<int64_t, int64_t>> affine(const Planner& p, bool row, const std::string& name) {
  int64_t n = row ? p.cores.cores_x : p.cores.cores_y, groups = row ? p.cores.cores_y : p.cores.cores_x;
  auto at = [&](int64_t g, int64_t group) { return work_value(p, row ? g : group, row ? group : g, name); };
  auto first = at(0, 0);
  auto second = n > 1 ? at(1, 0) : first;
  if (!first || !second) return std::nullopt;
  int64_t step = *second - *first;
  for (int64_t group = 0; group < groups; ++group) {
    for (int64_t g = 0; g < n; ++g) {
      auto v = at(g, group);
      if (!v || *v != *first + g * step) return std::nullopt;
    }
  }
  return std::make_pair(*first, step);
}

Any simplify(const Any& expr) {
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  return call("sym.AnalyzerSimplify", analyzer, expr, int64_t(2));
}

struct Splitter {
  Planner& p;
  const std::string& op;
  std::set<std::string> work_args;
  std::set<int64_t>& single;                 // CBs whose reads were split (multicast.h)
  std::vector<std::pair<Any, Any>> binds;    // let var -> value, in program order
  std::vector<Any> lockstep;                 // loop variables every core of a group steps alike
  std::vector<std::string> loops;            // the constant-extent loops around (step loops)

  Any visit(const Any& stmt);
  std::optional<Any> split(const ir::For& loop);
  std::optional<Any> shared_extent(const Any& extent, bool row);
};

Any Splitter::visit(const Any& stmt) {
  if (auto s = ir::SeqStmt::from(stmt)) {
    List out;
    bool changed = false;
    for (const Any& x : s->seq()) {
      if (auto b = ir::Bind::from(x)) binds.emplace_back(b->var().any(), b->value().any());
      Any y = visit(x);
      changed = changed || !y.same_as(x);
      out.push_back(y);
    }
    return changed ? seq_stmt(out) : stmt;
  }
  auto loop = ir::For::from(stmt);
  if (!loop) return stmt;
  bool persistent = loop->annotations().count(String(keys::kTtPersistentLoop)) != 0;
  if (!persistent && !ir::IntImm::matches(loop->extent())) return split(*loop).value_or(stmt);
  if (!persistent && !ir::IntImm::matches(loop->min())) return stmt;  // a per-core start: never shared (multicast.cc)
  lockstep.push_back(loop->loop_var().any());
  if (!persistent) loops.push_back(loop->loop_var().name());
  Any body = visit(loop->body());
  if (!persistent) loops.pop_back();
  if (body.same_as(loop->body())) return stmt;
  return for_loop(loop->loop_var().any(), loop->min().any(), loop->extent().any(), static_cast<int>(loop->kind()), body,
                  loop->annotations());
}

// The least trip count over the group, or nullopt when the extent reads what the group's cores do not share.
std::optional<Any> Splitter::shared_extent(const Any& extent, bool row) {
  Any e = extent;
  for (auto it = binds.rbegin(); it != binds.rend(); ++it) e = substitute_vars(e, {{it->first, it->second}});
  std::vector<std::pair<Any, std::pair<int64_t, int64_t>>> varying;  // work argument var -> (c0, step)
  bool ok = true;
  walk(e, {ir::visit<ir::Var>([&](const ir::Var& v) {
         for (const Any& l : lockstep) {
           if (v.same_as(l)) return;
         }
         for (const auto& known : varying) {
           if (v.same_as(known.first)) return;
         }
         auto form = work_args.count(v.name()) ? affine(p, row, v.name()) : std::nullopt;
         if (form) varying.emplace_back(v.any(), *form);
         ok = ok && form.has_value();
       })});
  if (!ok) return std::nullopt;
  Any common;
  for (int64_t g = 0, n = row ? p.cores.cores_x : p.cores.cores_y; g < n; ++g) {
    std::vector<std::pair<Any, Any>> at;
    for (const auto& [v, form] : varying) at.emplace_back(v, int_imm(form.first + g * form.second));
    Any trips = substitute_vars(e, at);
    common = g == 0 ? trips : call("prim._OpMin", common, trips, Any(nullptr));
  }
  return simplify(common);
}

std::optional<Any> Splitter::split(const ir::For& loop) {
  if (!ir::IntImm::matches(loop.min())) return std::nullopt;  // the cores' first iterations differ
  std::vector<std::string> inner = loops;
  inner.push_back(loop.loop_var().name());
  std::vector<BlockRead> reads;
  block_reads(loop.body(), op, inner, reads);
  if (reads.empty()) return std::nullopt;
  std::string dir = p.along(reads[0].first, reads[0].second);
  for (const auto& [read, step_loops] : reads) {
    Ctx ctx = p.context(read, step_loops);
    if (p.along(read, step_loops) != dir || !truthy(p.when(ctx)) || !truthy((*p.prefix)(ctx))) return std::nullopt;
  }
  auto common = shared_extent(loop.extent().any(), dir == "row");
  if (!common) return std::nullopt;
  std::vector<std::pair<Any, Any>> replaced;
  for (const auto& [read, step_loops] : reads) {
    replaced.emplace_back(read, *p.replace(read, step_loops));
    single.insert(as_int(named_ctx(*intrinsic_of(read), read).get("cb")));
  }
  Any shared = map_evaluates(loop.body(), [&](const ir::Evaluate& ev) -> std::optional<Any> {
    for (const auto& [old, repl] : replaced) {
      if (ev.value().same_as(old)) return evaluate(repl);
    }
    return std::nullopt;
  });
  Any k = loop.loop_var().any();
  Any rest_k = call("ir.Var", String(loop.loop_var().name()), loop.loop_var().ty().any(), Any(nullptr));
  int kind = static_cast<int>(loop.kind());
  Any first = for_loop(k, loop.min().any(), *common, kind, shared, loop.annotations());
  Any rest = for_loop(rest_k, call("prim._OpAdd", loop.min().any(), *common, Any(nullptr)),
                      call("prim._OpSub", loop.extent().any(), *common, Any(nullptr)), kind,
                      substitute_vars(loop.body(), {{k, rest_k}}), loop.annotations());
  return seq_stmt(List{first, rest});
}

}  // namespace

Any split_prefix_loops(const Any& body, Planner& p, const std::string& op, const List& work_args,
                       std::set<int64_t>& single) {
  std::set<std::string> names;
  for (const Any& a : work_args) names.insert(as_str(a));
  Splitter s{p, op, names, single};
  return s.visit(body);
}

}  // namespace tl::mcast
