// The values the pass engines take (generated/cpp/engine_decls.h declares the engines): a rule's parameters
// arrive as names (plain ffi values: String, List of String, ...), expressions (Expr lambdas over a Ctx), checks
// (Expr, Message), expression maps, cases and modes.
#pragma once

#include "engine_names.h"
#include "ir.h"
#include "passes.h"

namespace tl {

using ExprMap = std::vector<std::pair<std::string, Expr>>;  // in spec order

/*! \brief One rewrite / lower_tiles case (keys absent in the spec are empty). */
struct Case {
  std::optional<Expr> when;
  Checks require;
  std::string emit;      // intrinsic to emit, or ""
  std::string protocol;  // protocol to insert, or ""
  std::optional<ExprMap> args;
  std::optional<ExprMap> set;
};
using Cases = std::vector<std::pair<std::string, std::vector<Case>>>;  // subject (op) -> its cases

/*! \brief One partition mode of the persistent engine. */
struct Mode {
  ExprMap args;
  Expr iterations;
  ExprMap bindings;
};

/*! \brief A protocol function (generated: protocols.cc): appends to the builder, returns what it bound. */
Dict run_protocol(const std::string& name, Builder& b, const Ctx& args);

}  // namespace tl
