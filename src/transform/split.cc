// The split engine: one kernel per role from the lowered function, each keeping the intrinsic calls its role
// may make (the intrinsic specs' `roles`) and the loops, conditions and bindings around them.
#include <algorithm>

#include "engine_common.h"

namespace tl {
namespace {

bool uses(const Any& stmt, const Any& v) {
  bool found = false;
  walk(stmt, {ir::visit<ir::Var>([&](const ir::Var& x) { found = found || x.same_as(v); })});
  return found;
}

// Whether `stmt` binds the result of an abstract block op, whose protocol moves pages (a branch's flag: the reader
// pushes the page the compute kernel reads, whether or not the reader has ops in the branch).
bool binds_abstract(const Any& stmt) {
  auto b = ir::Bind::from(stmt);
  if (!b) return false;
  Any value = b->value();
  while (auto c = ir::Cast::from(value)) value = c->value();
  const Intrinsic* record = intrinsic_of(value);
  return record != nullptr && record->level == "abstract";
}

// The statements without the bindings nothing after them uses (but those of abstract ops); none when only bindings
// of values are left.
std::optional<Any> drop_unused_binds(const std::vector<Any>& stmts) {
  std::vector<Any> out;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (auto b = ir::Bind::from(stmts[i]); b && !binds_abstract(stmts[i])) {
      bool used = false;
      for (size_t j = i + 1; j < stmts.size() && !used; ++j) used = uses(stmts[j], b->var());
      if (!used) continue;
    }
    out.push_back(stmts[i]);
  }
  bool all_binds = std::all_of(out.begin(), out.end(), [](const Any& s) { return ir::Bind::matches(s) && !binds_abstract(s); });
  if (out.empty() || all_binds) return std::nullopt;
  return seq(out);
}

// What of `stmt` the kernel of `role` keeps (nullopt: nothing).
std::optional<Any> keep(const Any& stmt, const std::string& role) {
  if (auto s = ir::SeqStmt::from(stmt)) {
    std::vector<Any> kept;
    for (const Any& x : s->seq()) {
      if (auto k = keep(x, role)) kept.push_back(*k);
    }
    return drop_unused_binds(kept);
  }
  if (auto loop = ir::For::from(stmt)) {
    auto inner = keep(loop->body(), role);
    if (!inner) return std::nullopt;
    return for_loop(loop->loop_var(), loop->min(), loop->extent(), static_cast<int>(loop->kind()), *inner,
                    loop->annotations());
  }
  if (auto w = ir::While::from(stmt)) {  // a work range walked by index scalars: every kernel runs it alike
    auto inner = keep(w->body(), role);
    if (!inner) return std::nullopt;
    return while_loop(w->condition(), *inner);
  }
  if (auto branch = ir::IfThenElse::from(stmt)) {
    Any else_case = branch->else_case();
    auto then = keep(branch->then_case(), role);
    auto other = is_none(else_case) ? std::nullopt : keep(else_case, role);
    if (!then && !other) return std::nullopt;
    return if_then_else(branch->condition(), then ? *then : evaluate(int_imm(0)), other ? *other : Any(nullptr));
  }
  // A binding of an intrinsic's result stays in the kernels of the intrinsic's roles: a value every kernel reads its
  // own way (a data branch's flag: l1_word in the reader and writer, read_tile_value in the compute kernel) is one
  // variable bound once per role, so each kernel keeps its own binding and tests the same condition.
  if (auto b = ir::Bind::from(stmt)) {
    Any value = b->value();
    while (auto c = ir::Cast::from(value)) value = c->value();  // a uint32 result is bound as int32 (Builder::bind)
    const Intrinsic* record = intrinsic_of(value);
    if (record != nullptr && !record->has_role(role)) return std::nullopt;
    return stmt;
  }
  // Index scalars (loop-carried work ranges): every kernel computes them itself, so each keeps their statements.
  if (auto a = ir::AllocBuffer::from(stmt); a && buffer_info(a->buffer()).index_scalar()) return stmt;
  if (auto st = ir::BufferStore::from(stmt); st && buffer_info(st->buffer()).index_scalar()) return stmt;
  if (auto ev = ir::Evaluate::from(stmt)) {
    ir::Expr value = ev->value();
    if (const Intrinsic* record = intrinsic_of(value)) {
      return record->has_role(role) ? std::optional<Any>(stmt) : std::nullopt;
    }
    if (ir::IntImm::matches(value)) return std::nullopt;
  }
  fail("statement left after tile-op lowering cannot be split into kernels: " + format_value(stmt));
}

}  // namespace

namespace engines {

Any split(const std::string& name, const Dict& options, const SplitParams& params) {
  const Any& roles = params.roles;
  List role_list = as_list(roles);
  return module_pass(name, [role_list](const Any& mod) -> Any {
    std::vector<std::pair<std::string, Any>> out;  // name -> func, in insertion order
    auto assign = [&](const std::string& key, const Any& func) {
      for (auto& kv : out) {
        if (kv.first == key) {
          kv.second = func;
          return;
        }
      }
      out.emplace_back(key, func);
    };
    for (const auto& [gvar, func] : ir::IRModule(mod).functions()) {
      std::string gname = ir::GlobalVar(gvar).name_hint();
      if (!ir::PrimFunc::matches(func) || truthy(get_attr(func, keys::kTtKernelRole))) {
        assign(gname, func);
        continue;
      }
      for (const Any& role : role_list) {
        std::string r = as_str(role);
        auto kept = keep(ir::PrimFunc(func).body(), r);
        std::string kernel_name = gname + "_" + r;
        Any kernel = with_body(func, kept ? *kept : evaluate(int_imm(0)));
        assign(kernel_name, with_attrs(kernel, {{keys::kGlobalSymbol, str(kernel_name)}, {keys::kTtKernelRole, str(r)}}));
      }
    }
    Dict functions;  // string keys become new GlobalVars
    for (const auto& [key, func] : out) functions.Set(call("ir.GlobalVar", String(key)), func);
    return call("ir.IRModule", functions, Any(nullptr), Dict());
  });
}

}  // namespace engines
}  // namespace tl
