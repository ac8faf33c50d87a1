// What the engines share: choosing a rule case, reading and writing function attributes, evaluating the
// expression maps of a rule, and running a body on the kernels of some roles only.
#pragma once

#include "engines.h"

namespace tl {

/*! \brief The first case whose `when` holds (a case without `when` always applies), after raising its
 * `require` checks as "<where> <message>"; nullptr when none applies. */
const Case* choose_case(const std::vector<Case>& cases, const Ctx& ctx, const std::string& where);
/*! \brief The cases of `subject` in a Cases table, or nullptr. */
const std::vector<Case>* cases_of(const Cases& cases, const std::string& subject);
/*! \brief The expression of `key` in a rule's expression map (an internal error when missing). */
const Expr& expr_of(const ExprMap& exprs, const std::string& key);
/*! \brief Every expression of `exprs` evaluated in `ctx`, added to `out` by key. */
Ctx eval_args(const ExprMap& exprs, const Ctx& ctx, Ctx out = Ctx());
/*! \brief The option `key` (an internal error when missing). Options are a Dict with String keys, which spec
 * expressions read like a namespace (`options.stages`). */
Any option(const Dict& options, const char* key);
/*! \brief Whether values of `dtype` accumulate in fp32 (a supported 4-byte dtype): what sizes a DST section. */
bool accumulates_fp32(const Any& dtype);
// A TVM integer or boolean dtype (int*, uint*, bool).
bool is_integer_dtype(const std::string& dtype);

/*! \brief Set each (key, value) in order; tuples are stored as Arrays like lists, recursively. */
Any with_attrs(Any func, const std::vector<std::pair<std::string, Any>>& values);
/*! \brief A list or dict attribute of a function, empty when absent (or empty). */
List attr_list(const Any& func, const char* key);
Dict attr_dict(const Any& func, const char* key);

/*! \brief A pass running `body` on the kernels of the given roles and returning the others unchanged. */
Any role_pass(const std::string& name, const List& roles, FuncBody body);
/*! \brief Every kernel role, in launch order. */
List all_roles();
/*! \brief A Ctx of a call's arguments by the intrinsic's argument names. */
Ctx named_ctx(const Intrinsic& record, const Any& call);
/*! \brief `ctx` with the values of `names` copied from `more`. */
Ctx merge(Ctx ctx, const Ctx& more, std::initializer_list<const char*> names);

// Plain-value helpers.
Any str(const std::string& s);
bool contains(const List& items, const Any& value);
std::string join(const std::vector<std::string>& items, const char* sep = ", ");
/*! \brief The value of `key` in a Dict with String keys, or `fallback`. */
Any get(const Dict& d, const std::string& key, const Any& fallback = Any(nullptr));
/*! \brief A dict built in insertion order (Set on an existing key keeps its position). */
Dict ordered(std::initializer_list<std::pair<const char*, Any>> items);
/*! \brief Iterating two sequences together needs equal lengths (an internal error otherwise). */
void strict_zip(size_t first, size_t second);

}  // namespace tl
