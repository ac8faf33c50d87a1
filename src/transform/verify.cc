// The verify engine: structural rules every kernel must satisfy (no abstract op left, every call legal in its
// kernel's role, every CB balanced per loop iteration) and the rule's checks over the kernel's resources.
#include <map>
#include <set>

#include "engine_common.h"
#include "records.h"

namespace tl {
namespace {

using Totals = std::map<std::pair<int64_t, std::string>, int64_t>;  // (cb, op) -> pages

int64_t total(const Totals& totals, int64_t cb, const std::string& op) {
  auto it = totals.find({cb, op});
  return it == totals.end() ? 0 : it->second;
}

void balanced_or_raise(const Totals& totals, const List& pairs, const std::string& where) {
  std::set<int64_t> cbs;
  for (const auto& kv : totals) cbs.insert(kv.first.first);
  for (int64_t cb : cbs) {
    for (const Any& pair : pairs) {
      List p = as_list(pair);
      std::string give = as_str(p[0]), take = as_str(p[1]);
      int64_t a = total(totals, cb, give), b = total(totals, cb, take);
      if (a != b) {
        fail(where + ": CB " + std::to_string(cb) + " is unbalanced per iteration: " + give + " " +
             std::to_string(a) + " page(s), " + take + " " + std::to_string(b));
      }
    }
  }
}

bool in_pairs(const std::string& name, const List& pairs) {
  for (const Any& pair : pairs) {
    if (contains(as_list(pair), str(name))) return true;
  }
  return false;
}

// The pages of a (cb, pages) call of one of the balance pairs' intrinsics, added to `totals`.
void count_call(const Any& value, int64_t scale, Totals& totals, const List& pairs) {
  const Intrinsic* record = intrinsic_of(value);
  if (record == nullptr || !in_pairs(record->name, pairs)) return;
  List args = ir::Call(value).args();
  if (args.size() != 2) {
    internal_error(record->op_name + " is counted as a (cb, pages) call but has " + std::to_string(args.size()) +
                   " arguments");
  }
  if (ir::IntImm::matches(args[0]) && ir::IntImm::matches(args[1])) {
    totals[{ir::IntImm(args[0]).value(), record->name}] += ir::IntImm(args[1]).value() * scale;
  }
}

void count_pages(const Any& stmt, int64_t scale, Totals& totals, const List& pairs, const std::string& kernel);

// (give - take) pages per CB and pair.
std::map<std::pair<int64_t, std::string>, int64_t> net(const Totals& totals, const List& pairs) {
  std::map<std::pair<int64_t, std::string>, int64_t> out;
  for (const auto& [key, pages] : totals) {
    for (const Any& pair : pairs) {
      List p = as_list(pair);
      if (key.second == as_str(p[0])) out[{key.first, as_str(p[0])}] += pages;
      if (key.second == as_str(p[1])) out[{key.first, as_str(p[0])}] -= pages;
    }
  }
  for (auto it = out.begin(); it != out.end();) it = it->second == 0 ? out.erase(it) : std::next(it);
  return out;
}

// Each arm of an if balances its CBs on its own, or all arms leave the same pages behind (a value made before the
// if, freed in every arm): then they count as one arm in the statement around the if.
void count_branches(const ir::IfThenElse& branch, int64_t scale, Totals& totals, const List& pairs,
                    const std::string& kernel) {
  std::vector<Totals> arms(2);
  Any cases[2] = {branch.then_case().any(), branch.else_case()};
  for (size_t a = 0; a < 2; ++a) {
    if (!is_none(cases[a])) count_pages(cases[a], 1, arms[a], pairs, kernel);
  }
  std::string where = kernel + ": branch of (if " + format_value(branch.condition()) + ")";
  if (net(arms[0], pairs) != net(arms[1], pairs) || net(arms[0], pairs).empty()) {
    for (const Totals& arm : arms) balanced_or_raise(arm, pairs, where);
    return;
  }
  for (const auto& [key, value] : arms[0]) totals[key] += value * scale;
}

// Pages per CB and op of `stmt`; every loop body is checked on its own (the kernel as a whole runs once).
void count_pages(const Any& stmt, int64_t scale, Totals& totals, const List& pairs, const std::string& kernel) {
  if (auto s = ir::SeqStmt::from(stmt)) {
    for (const Any& x : s->seq()) count_pages(x, scale, totals, pairs, kernel);
  } else if (auto loop = ir::For::from(stmt)) {
    Totals inner;
    count_pages(loop->body(), 1, inner, pairs, kernel);
    balanced_or_raise(inner, pairs, kernel + ": loop over '" + format_value(loop->loop_var()) + "'");
    if (auto extent = ir::IntImm::from(loop->extent())) {
      for (const auto& [key, value] : inner) totals[key] += value * extent->value() * scale;
    }
  } else if (auto w = ir::While::from(stmt)) {  // a run-time trip count: its body is checked on its own
    Totals inner;
    count_pages(w->body(), 1, inner, pairs, kernel);
    balanced_or_raise(inner, pairs, kernel + ": while loop (while " + format_value(w->condition()) + ")");
  } else if (auto branch = ir::IfThenElse::from(stmt)) {  // every kernel takes the same arm
    count_branches(*branch, scale, totals, pairs, kernel);
  } else if (auto ev = ir::Evaluate::from(stmt)) {
    count_call(ev->value(), scale, totals, pairs);
  }
}

// 'name' (CB i): depth pages x page bytes, of the CB taking most L1 (the first of equal ones), or "none".
std::string largest_cb(const List& cbs, int64_t* l1) {
  int64_t best = 0;
  Any biggest(nullptr);
  for (const Any& cb : cbs) {
    int64_t bytes = as_int(item(cb, str(records::cb::kDepth))) * as_int(item(cb, str(records::cb::kPageBytes)));
    *l1 += bytes;
    if (is_none(biggest) || bytes > best) {
      biggest = cb;
      best = bytes;
    }
  }
  if (is_none(biggest)) return "none";
  return "'" + format_value(item(biggest, str(records::cb::kBuffer))) + "' (CB " +
         format_value(item(biggest, str(records::cb::kIndex))) + "): " +
         format_value(item(biggest, str(records::cb::kDepth))) + " pages x " +
         format_value(item(biggest, str(records::cb::kPageBytes))) + " B";
}

void check_calls(const Any& func, const List& wanted, const std::string& kernel) {
  Any role = get_attr(func, keys::kTtKernelRole);
  bool no_abstract = contains(wanted, str("no_abstract_ops"));
  bool role_legal = contains(wanted, str("role_legal_calls"));
  for (const auto& [record, c] : tt_calls(ir::PrimFunc(func).body())) {
    if (no_abstract && record->level == "abstract") {
      fail(kernel + ": abstract op " + record->op_name + " was not lowered");
    }
    if (role_legal && !record->has_role(format_value(role))) {
      fail(kernel + ": " + record->op_name + " is not legal in a " + format_value(role) + " kernel (roles: " +
           join(record->roles) + ")");
    }
  }
}

}  // namespace

namespace engines {

Any verify(const std::string& name, const Dict& options, const VerifyParams& params) {
  const Any& structural = params.structural;
  const Any& balance = params.balance;
  const Checks& checks = params.checks;
  List wanted = as_list(structural);
  List pairs = is_none(balance) ? List() : as_list(balance);
  auto body = [=](const Any& func) -> Any {
    std::string kernel = format_value(get_attr(func, keys::kGlobalSymbol));
    check_calls(func, wanted, kernel);
    if (contains(wanted, str("cb_balance"))) {
      Totals totals;
      count_pages(ir::PrimFunc(func).body(), 1, totals, pairs, kernel);
    }
    List cbs = attr_list(func, keys::kTtCbs);
    int64_t l1 = 0;
    std::string largest = largest_cb(cbs, &l1);
    Ctx ctx{{names::kCbs, Any(static_cast<int64_t>(cbs.size()))},
            {names::kL1Bytes, Any(l1)},
            {names::kLargestCb, str(largest)},
            {names::kRuntimeArgs, Any(static_cast<int64_t>(attr_list(func, keys::kTtRuntimeArgs).size()))},
            {names::kKernel, str(kernel)}};
    check(checks, kernel + ":", ctx);
    return func;
  };
  return role_pass(name, all_roles(), body);
}

}  // namespace engines
}  // namespace tl
