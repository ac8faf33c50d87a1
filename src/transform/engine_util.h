// Helpers shared by the engine sources (engines_a.cc, engines_b.cc): the rule-case choice and the
// options namespace, twins of engines._cases and engines._ns.
#pragma once

#include "engines.h"

namespace tl {

/*! \brief The first case whose `when` holds (a case without `when` always applies), after raising its
 * `require` checks as "<where> <message>"; nullptr when none applies (engines._cases). */
const Case* choose_case(const std::vector<Case>& cases, const Ctx& ctx, const std::string& where);

/*! \brief The cases of `subject` in a Cases table, or nullptr (Python: cases.get(subject)). */
const std::vector<Case>* cases_of(const Cases& cases, const std::string& subject);

/*! \brief The options as spec expressions see them (engines._ns): a Dict with String keys already reads like
 * a SimpleNamespace through attr(), so nested dicts are kept as they are. */
Dict options_ns(const Dict& options);

/*! \brief The option `key` (Python: options[key]); a KeyError when missing. */
Any option(const Dict& options, const char* key);

}  // namespace tl

namespace tl {

/*! \brief An attribute value as Python's with_attr stores it (tvm.runtime.convert): tuples become Arrays like
 * lists, recursively through lists and dicts. */
Any attr_value(const Any& value);

/*! \brief ir.with_attrs: set each (key, value) in order, values through attr_value. */
Any with_attrs(Any func, const std::vector<std::pair<std::string, Any>>& values);

}  // namespace tl
