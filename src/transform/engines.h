// The generic pass engines of the Tenstorrent pipeline and the CPU lowering hooks.
//
// The generated pass sources (passes/*.cc) call one engine per rule of a pass spec with the rule's
// parameters: names as plain ffi values (String, List of String, ...), expressions as Expr lambdas over a Ctx,
// checks as (Expr, Message). Each engine returns a TVM pass object.
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

namespace engines {

Any annotate(const std::string& name, const Dict& options, const Any& attr, const Any& foreach, const ExprMap& fields,
             const Checks& require = {});
Any partition(const std::string& name, const Dict& options, const Checks& require = {},
              const std::optional<Expr>& auto_shard = std::nullopt);
Any persistent(const std::string& name, const Dict& options, const std::vector<std::pair<std::string, Mode>>& modes);
Any dataflow(const std::string& name, const Dict& options, const ExprMap& depth);
Any lower_tiles(const std::string& name, const Dict& options, const Cases& cases);
Any split(const std::string& name, const Dict& options, const Any& roles);
Any multicast(const std::string& name, const Dict& options, const Any& op, const Any& tensor, const Any& index,
              const Any& emit, const Expr& when, const ExprMap& runtime_args, const Any& semaphores,
              const ExprMap& args);
Any accessors(const std::string& name, const Dict& options, const Any& protocol, const ExprMap& args,
              const Expr& address_arg);
Any rewrite(const std::string& name, const Dict& options, const Cases& cases,
            const Any& roles = Any(nullptr));  // None: all kernel roles
/*! \brief families: op -> family expression; operands: op -> operand expressions. */
Any compute_init(const std::string& name, const Dict& options, const Any& protocol,
                 const std::vector<std::pair<std::string, Expr>>& families,
                 const std::vector<std::pair<std::string, ExprMap>>& operands);
Any finalize(const std::string& name, const Dict& options, const Any& order);
Any verify(const std::string& name, const Dict& options, const Any& structural, const Any& balance = Any(nullptr),
           const Checks& checks = {});

}  // namespace engines

namespace hooks {
// The hand-written passes pass specs name in `hook` rules (cpu_lowering.cc).
Any blockidx_to_serial();
Any lower_tile_primitives();
}  // namespace hooks

}  // namespace tl
