// The persistent engine: the grid launches of a kernel become one loop per core over its assigned blocks
// (tt-metal kernels run once per core; the block indices are computed from the core's work arguments).
#include <algorithm>

#include "engine_common.h"

namespace tl {
namespace {

const Mode& mode_of(const std::vector<std::pair<std::string, Mode>>& modes, const std::string& key) {
  for (const auto& [name, m] : modes) {
    if (name == key) return m;
  }
  internal_error("the rule has no partition mode '" + key + "'");
}

// The body without its launches, and the launch variable of each thread tag in the order they are met (a tag
// launched twice keeps its first position and its last variable).
std::pair<Any, std::vector<std::pair<std::string, ir::Var>>> strip_launches(const Any& body) {
  std::vector<std::pair<std::string, ir::Var>> launches;
  Any inner = map(body, {ir::rewrite<ir::AttrStmt>([&](const ir::AttrStmt& stmt) -> Any {
                    auto launch = launch_of(stmt);
                    if (!launch) return stmt.any();
                    std::string tag = launch->thread_tag();
                    auto it = std::find_if(launches.begin(), launches.end(),
                                           [&](const auto& l) { return l.first == tag; });
                    if (it == launches.end()) {
                      launches.emplace_back(tag, launch->var());
                    } else {
                      it->second = launch->var();
                    }
                    return stmt.body();
                  })},
                  "post");
  return {inner, launches};
}

// The per-core work arguments of the mode, evaluated for every core with work.
List work_values(const Mode& spec, const Any& func) {
  List values;
  for (const Any& w : as_list(get_attr(func, keys::kTtWorkPartition))) {
    Dict row;
    for (const auto& [arg, e] : spec.args) row.Set(String(arg), Any(as_int(e(Ctx{{names::kWork, w}}))));
    values.push_back(row);
  }
  return values;
}

}  // namespace

namespace engines {

Any persistent(const std::string& name, const Dict& options, const PersistentParams& params) {
  const std::vector<std::pair<std::string, Mode>>& modes = params.modes;
  return prim_func_pass(name, [=](const Any& func) -> Any {
    const Mode& spec = mode_of(modes, as_str(get_attr(func, keys::kTtPartitionMode)));
    Any blocks = get_attr(func, keys::kTtGridBlocks);
    List arg_names;
    Ctx ctx;
    for (const auto& [arg, e] : spec.args) {
      arg_names.push_back(String(arg));
      ctx.set(arg, var(arg, "int32"));
    }
    List values = work_values(spec, func);
    Any i = var("i", "int32");
    auto [inner, launches] = strip_launches(ir::PrimFunc(func).body());
    ctx.set(names::kI, i)
        .set(names::kGridX, item(blocks, Any(int64_t(0))))
        .set(names::kGridY, item(blocks, Any(int64_t(1))))
        .set(names::kGridZ, item(blocks, Any(int64_t(2))));
    auto sorted = launches;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Any> stmts;
    for (const auto& [tag, v] : sorted) stmts.push_back(bind(v, fn::expr(expr_of(spec.bindings, tag)(ctx))));
    for (const Any& s : flatten(inner)) stmts.push_back(s);
    Dict annotations = dict({{String(keys::kTtPersistentLoop), Any(int64_t(1))}});
    Any loop = for_loop(i, int_imm(0), spec.iterations(ctx), 0, seq(stmts), annotations);
    Dict launch_vars;
    for (const auto& [tag, v] : launches) launch_vars.Set(String(tag), String(v.name()));
    return with_attrs(with_body(func, loop), {{keys::kTtWorkArgs, arg_names},
                                              {keys::kTtWorkValues, values},
                                              {keys::kTtLaunchVars, launch_vars}});
  });
}

}  // namespace engines
}  // namespace tl
