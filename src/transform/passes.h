// TVM pass objects, made through the registered pass constructors (tvm-ffi has no pass headers).
#pragma once

#include <tvm/ffi/reflection/registry.h>  // the generated passes register themselves with GlobalDef

#include "ffi_values.h"

namespace tl {

using FuncBody = std::function<Any(const Any& func)>;
using ModuleBody = std::function<Any(const Any& mod)>;
/*! \brief A PrimFunc pass named tl.<name> (opt_level 0) running `body` on every PrimFunc. */
Any prim_func_pass(const std::string& name, FuncBody body);
/*! \brief A module pass named tl.<name>. */
Any module_pass(const std::string& name, ModuleBody body);
/*! \brief The passes in order, as one pass. */
Any sequential(const List& passes, const std::string& name);

}  // namespace tl
