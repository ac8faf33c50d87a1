// TVM pass objects (passes.h).
#include "passes.h"

namespace tl {

static Any pass_info(const std::string& name) { return call("transform.PassInfo", 0, String(name), List(), false); }

Any prim_func_pass(const std::string& name, FuncBody body) {
  Function run = Function::FromTyped([body](Any func, Any mod, Any ctx) -> Any { return body(func); });
  return call("tirx.transform.CreatePrimFuncPass", run, pass_info("tl." + name));
}

Any module_pass(const std::string& name, ModuleBody body) {
  Function run = Function::FromTyped([body](Any mod, Any ctx) -> Any { return body(mod); });
  return call("transform.MakeModulePass", run, pass_info("tl." + name));
}

Any sequential(const List& passes, const std::string& name) {
  return call("transform.Sequential", passes, 0, String(name), List(), false);
}

}  // namespace tl
