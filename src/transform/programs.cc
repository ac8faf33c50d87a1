// The hook split_tt_programs (pass SplitTTPrograms, specs/passes/split_tt_programs.yaml): a function with several
// T.Kernel launches one after another is several Tenstorrent programs run in order on the same DRAM tensors. Each
// launch becomes a PrimFunc of its own, so that every later pass sees one program (one grid, one set of
// reader/compute/writer kernels) and applies unchanged.
#include "engine_common.h"
#include "ir.h"

namespace tl {
namespace {

bool launches_blocks(const Any& stmt) {
  bool found = false;
  walk(stmt, {ir::visit<ir::AttrStmt>([&found](const ir::AttrStmt& a) {
         auto launch = launch_of(a);
         found = found || (launch && launch->thread_tag().rfind("blockIdx.", 0) == 0);
       })});
  return found;
}

bool program_uses(const Any& stmt, const Any& v) {
  bool found = false;
  walk(stmt, {ir::visit<ir::Var>([&](const ir::Var& x) { found = found || x.same_as(v); })});
  return found;
}

// One program per launch: the function's parameters, then the workspaces its launch uses.
Any program(const ir::PrimFunc& func, const std::string& name, const std::vector<Any>& prelude, const Any& launch,
            const std::vector<Any>& workspaces, int64_t index, int64_t count) {
  List params;
  for (const Any& p : func.params()) params.push_back(p);
  List names;
  std::vector<Any> body = prelude;
  body.push_back(launch);
  Any stmt = seq(body);
  for (const Any& w : workspaces) {
    if (!program_uses(launch, w)) continue;
    params.push_back(w);
    names.push_back(str(ir::Var(w).name()));
  }
  Any out = prim_func(params, stmt, func.ret_type(), func.attrs());
  std::string symbol = name + "_program" + std::to_string(index);
  return with_attrs(out, {{keys::kGlobalSymbol, str(symbol)}, {keys::kTtProgram, Any(index)},
                          {keys::kTtProgramCount, Any(count)}, {keys::kTtWorkspaces, names}});
}

}  // namespace

namespace hooks {

Any split_tt_programs() {
  return module_pass("SplitTTPrograms", [](const Any& mod) -> Any {
    Dict functions;
    bool changed = false;
    for (const auto& [gvar, func] : ir::IRModule(mod).functions()) {
      std::string name = ir::GlobalVar(gvar).name_hint();
      std::vector<Any> stmts = ir::PrimFunc::matches(func) ? flatten(ir::PrimFunc(func).body()) : std::vector<Any>{};
      int64_t count = 0;
      for (const Any& s : stmts) count += launches_blocks(s) ? 1 : 0;
      if (count < 2) {
        functions.Set(gvar, func);
        continue;
      }
      changed = true;
      std::vector<Any> prelude, workspaces;
      int64_t index = 0;
      for (const Any& s : stmts) {
        if (launches_blocks(s)) {
          Any p = program(ir::PrimFunc(func), name, prelude, s, workspaces, index++, count);
          functions.Set(call("ir.GlobalVar", String(as_str(get_attr(p, keys::kGlobalSymbol)))), p);
        } else if (auto a = ir::AllocBuffer::from(s); a && !buffer_info(a->buffer()).on_chip()) {
          workspaces.push_back(a->buffer());  // T.alloc_global: a DRAM tensor the host allocates for all programs
        } else if (ir::Evaluate::matches(s)) {
          continue;  // nothing to run
        } else {
          prelude.push_back(s);  // a binding or declaration the later launches read
        }
      }
    }
    return changed ? call("ir.IRModule", functions, Any(nullptr), Dict()) : mod;
  });
}

}  // namespace hooks
}  // namespace tl
