// Index-mask conditions (index_masks.h): a condition as the form p * (i // div) + q * (j // div) + r >= 0 (and
// <= width: a band), flags T.if_then_else(c, 1, 0) read as c, and the unswitching of choices made by conditions free
// of the element indices (upstream block_causal_attention's mask helper).
#include <algorithm>

#include "engine_common.h"
#include "index_masks.h"
#include "ir_build.h"
#include "tile_ops_util.h"

namespace tl::masks {

// The operands of a node of type `key` that the IR spec has no view with fields for (prim.FloorDiv, prim.And).
std::optional<std::pair<Any, Any>> operands(const Any& e, const char* key) {
  if (e.type_index() < tvm::ffi::TypeIndex::kTVMFFIStaticObjectBegin || e.GetTypeKey() != std::string(key)) {
    return std::nullopt;
  }
  int32_t type = ir::detail::type_index(key);
  return std::make_pair(ir::detail::get(e, ir::detail::field_info(type, key, "a")),
                        ir::detail::get(e, ir::detail::field_info(type, key, "b")));
}

namespace {

using tileops::constant_of;
using tileops::strip_casts;

bool uses(const Any& expr, const std::vector<Any>& vars) {
  bool found = false;
  walk(expr, {ir::visit<ir::Var>([&](const ir::Var& v) {
         for (const Any& x : vars) found = found || v.same_as(x);
       })});
  return found;
}

bool is_ite(const Any& e) {
  auto c = ir::Call::from(e);
  auto op = c ? ir::Op::from(c->op()) : std::nullopt;
  return op && op->name() == "prim.if_then_else";
}

// An integer expression as ci * (i // div) + cj * (j // div) + rest, where rest does not use i or j; nullopt when it
// is not affine in them (a product of two of them, T.min(i, ...), i // 16 beside j or j // 8). `div` is 0 until an
// element index is met.
struct Affine {
  int64_t ci = 0, cj = 0;
  Any rest = Any(int64_t(0));
};

std::optional<Affine> affine(const Any& e, const Any& i, const Any& j, int64_t& div) {
  Any expr = strip_casts(e);
  Any atom = expr;
  int64_t d = 1;
  if (auto fd = operands(expr, "prim.FloorDiv")) {
    auto c = ir::IntImm::from(strip_casts(fd->second));
    Any x = strip_casts(fd->first);
    if (c && c->value() > 0 && ((i != nullptr && x.same_as(i)) || (j != nullptr && x.same_as(j)))) {
      atom = x, d = c->value();
    }
  }
  bool is_i = i != nullptr && atom.same_as(i), is_j = j != nullptr && atom.same_as(j);
  if (is_i || is_j) {
    if (div != 0 && div != d) return std::nullopt;
    div = d;
    return Affine{is_i ? 1 : 0, is_j ? 1 : 0, Any(int64_t(0))};
  }
  std::vector<Any> ij;
  if (i != nullptr) ij.push_back(i);
  if (j != nullptr) ij.push_back(j);
  if (!uses(expr, ij)) {
    auto c = ir::IntImm::from(expr);
    return Affine{0, 0, c ? Any(c->value()) : expr};
  }
  auto combine = [&](const Any& a, const Any& b, int64_t sign) -> std::optional<Affine> {
    auto x = affine(a, i, j, div), y = affine(b, i, j, div);
    if (!x || !y) return std::nullopt;
    return Affine{x->ci + sign * y->ci, x->cj + sign * y->cj,
                  sign > 0 ? fn::add(x->rest, y->rest) : fn::sub(x->rest, y->rest)};
  };
  if (auto add = ir::Add::from(expr)) return combine(add->a(), add->b(), 1);
  if (auto sub = ir::Sub::from(expr)) return combine(sub->a(), sub->b(), -1);
  if (auto mul = ir::Mul::from(expr)) {
    for (bool left : {true, false}) {
      auto c = ir::IntImm::from(strip_casts(left ? mul->a() : mul->b()));
      if (!c) continue;
      auto x = affine(left ? mul->b() : mul->a(), i, j, div);
      if (!x) return std::nullopt;
      int64_t k = c->value();
      return Affine{k * x->ci, k * x->cj, fn::mul(x->rest, Any(k))};
    }
  }
  return std::nullopt;
}

// A comparison's kind and sides (GE, GT, LE, LT, EQ, NE), or nullopt.
struct Cmp {
  std::string op;
  Any a, b;
};

std::optional<Cmp> cmp_of(const Any& cond) {
  if (auto c = ir::GE::from(cond)) return Cmp{">=", c->a(), c->b()};
  if (auto c = ir::GT::from(cond)) return Cmp{">", c->a(), c->b()};
  if (auto c = ir::LE::from(cond)) return Cmp{"<=", c->a(), c->b()};
  if (auto c = ir::LT::from(cond)) return Cmp{"<", c->a(), c->b()};
  if (auto c = ir::EQ::from(cond)) return Cmp{"==", c->a(), c->b()};
  if (auto c = ir::NE::from(cond)) return Cmp{"!=", c->a(), c->b()};
  return std::nullopt;
}

bool holds(const std::string& op, double x, double y) {
  if (op == ">=") return x >= y;
  if (op == ">") return x > y;
  if (op == "<=") return x <= y;
  if (op == "<") return x < y;
  if (op == "==") return x == y;
  return x != y;
}

Any make_cmp(const std::string& op, const Any& a, const Any& b) {
  static const std::vector<std::pair<std::string, const char*>> ops = {
      {">=", "prim._OpGE"}, {">", "prim._OpGT"}, {"<=", "prim._OpLE"}, {"<", "prim._OpLT"}, {"==", "prim._OpEQ"},
      {"!=", "prim._OpNE"}};
  for (const auto& [name, fn_name] : ops) {
    if (name == op) return call(fn_name, a, b, Any(nullptr));
  }
  internal_error("no comparison " + op);
}

Any truth(bool v) { return int_imm(v ? 1 : 0, "bool"); }

// `cond` with flags folded: T.if_then_else(c, x, y) (x, y constants) compared with a constant reads as c, not c,
// true or false (block-causal attention's `T.if_then_else(allowed > 0, ...)` of `allowed = T.if_then_else(c, 1, 0)`).
Any fold_flags(const Any& e) {
  Any cond = strip_casts(e);
  if (auto a = operands(cond, "prim.And")) return call("prim.And", fold_flags(a->first), fold_flags(a->second), Any(nullptr));
  auto cmp = cmp_of(cond);
  if (!cmp) return cond;
  for (bool left : {true, false}) {
    Any flag = strip_casts(left ? cmp->a : cmp->b);
    auto k = constant_of(left ? cmp->b : cmp->a);
    if (!k || !is_ite(flag)) continue;
    List args = ir::Call(flag).args();
    auto x = constant_of(args[1]), y = constant_of(args[2]);
    if (!x || !y) continue;
    bool t = left ? holds(cmp->op, *x, *k) : holds(cmp->op, *k, *x);
    bool f = left ? holds(cmp->op, *y, *k) : holds(cmp->op, *k, *y);
    if (t == f) return truth(t);
    Any c = fold_flags(args[0]);
    if (t) return c;
    auto inner = cmp_of(c);
    static const std::vector<std::pair<std::string, std::string>> negated = {
        {">=", "<"}, {">", "<="}, {"<=", ">"}, {"<", ">="}, {"==", "!="}, {"!=", "=="}};
    for (const auto& [op, neg] : negated) {
      if (inner && inner->op == op) return make_cmp(neg, inner->a, inner->b);
    }
    return call("prim.Not", c, Any(nullptr));
  }
  return cond;
}

using Refuse = std::function<void(const std::string&)>;

// One comparison lhs CMP rhs (>=, >, <=, <; == as >= with width 0) as a form.
Form half_form(const Cmp& cmp, const Any& i, const Any& j, const Refuse& refuse) {
  Any lhs = cmp.a, rhs = cmp.b;
  int64_t shift = cmp.op == ">" || cmp.op == "<" ? 1 : 0;
  if (cmp.op == "<=" || cmp.op == "<") std::swap(lhs, rhs);
  if (cmp.op == "!=") {
    refuse("compares with != (an element index off a line); the tenstorrent backend lowers index masks that are "
           "comparisons (>=, >, <=, <, ==) or a conjunction of two opposite ones");
  }
  int64_t div = 0;
  auto a = affine(lhs, i, j, div), b = a ? affine(rhs, i, j, div) : std::nullopt;
  if (!a || !b) {
    refuse("is not affine in the element indices " + format_value(i) + (j != nullptr ? ", " + format_value(j) : "") +
           " (the tenstorrent backend lowers index masks p * i + q * j + r >= 0, with r computed from block "
           "indices, loop variables and constants, or the same form in i // d and j // d for one constant d)");
  }
  Form form{a->ci - b->ci, a->cj - b->cj, fn::sub(fn::sub(a->rest, b->rest), Any(shift)), std::max<int64_t>(div, 1)};
  if (cmp.op == "==") form.width = 0;
  return form;
}

Any simplified(const Any& e) {
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  return call("sym.AnalyzerSimplify", analyzer, fn::expr(e), 2);
}

}  // namespace

Form form_of(const Any& cond, const Any& i, const Any& j, const Refuse& refuse) {
  Any c = fold_flags(cond);
  if (auto imm = ir::IntImm::from(c)) return Form{0, 0, Any(int64_t(imm->value() != 0 ? 0 : -1))};
  if (auto both = operands(c, "prim.And")) {
    // A side free of the element indices (the analyzer's `row < 96` as `by < 3`) holds over the whole block or not:
    // the other side's form, with an offset no element reaches where it does not hold.
    std::vector<Any> ij;
    for (const Any& v : {i, j}) {
      if (v != nullptr) ij.push_back(v);
    }
    for (bool first : {true, false}) {
      Any k = first ? both->first : both->second;
      if (uses(k, ij)) continue;
      Form form = form_of(first ? both->second : both->first, i, j, refuse);
      form.r = call("prim.Select", fn::expr(k), fn::expr(form.r), int_imm(-(int64_t(1) << 30)), Any(nullptr));
      return form;
    }
    auto x = cmp_of(strip_casts(both->first)), y = cmp_of(strip_casts(both->second));
    if (!x || !y) refuse("is a conjunction of other than two comparisons");
    Form a = half_form(*x, i, j, refuse), b = half_form(*y, i, j, refuse);
    if (a.div != b.div || a.p != -b.p || a.q != -b.q || a.width >= 0 || b.width >= 0) {
      refuse("is a conjunction of comparisons that do not bound one index expression from both sides; the "
             "tenstorrent backend lowers a band lo <= p * i + q * j <= hi (16 < row < 96)");
    }
    auto width = ir::IntImm::from(simplified(fn::add(a.r, b.r)));
    if (!width) {
      refuse("bounds an index expression from both sides by a band whose width " + format_value(fn::add(a.r, b.r)) +
             " is not a constant; the tenstorrent backend's mask tables hold bands of constant width");
    }
    if (width->value() < 0) return Form{0, 0, Any(int64_t(-1))};
    a.width = width->value();
    return a;
  }
  auto cmp = cmp_of(c);
  if (!cmp) {
    refuse("is not a comparison (>=, >, <=, <, ==) of index expressions; the tenstorrent backend lowers index masks "
           "p * i + q * j + r >= 0 (or >, <, <=, ==, a band lo <= p * i + q * j <= hi) in the store's element "
           "indices (i, j)");
  }
  return half_form(*cmp, i, j, refuse);
}

namespace {

// The nest `loop` with its store's condition simplified, or with its first choice made by a condition free of the
// element indices unswitched: IfThenElse(k, nest with the choice's then value, nest with its else value).
Any unswitch(const Any& loop, const Any& analyzer, bool chosen) {
  auto nest = tileops::eltwise_nest(loop);
  if (!nest) return loop;
  std::vector<Any> lvars;
  for (const ir::For& l : nest->first) lvars.push_back(l.loop_var());
  Any value = strip_casts(nest->second.value());
  if (!is_ite(value)) return loop;
  ir::Call ite(value);
  Any cond = ite.args()[0];
  std::optional<ir::Call> choice;
  walk(cond, {ir::visit<ir::Call>([&](const ir::Call& c) {
         if (choice || !is_ite(c.any()) || uses(c.args()[0], lvars)) return;
         if (uses(c.args()[1], lvars) || uses(c.args()[2], lvars)) choice = c;
       })});
  auto replace = [&](const Any& from, const Any& to) {
    return map(loop, {ir::rewrite<ir::Call>([&](const ir::Call& c) -> Any { return c.same_as(from) ? to : c.any(); })});
  };
  if (choice) {
    // The then copy gets loop variables of its own (one Var in two loops confuses the passes that rename them),
    // bound in the analyzer as the originals are.
    std::vector<Any> fresh;
    for (const ir::For& l : nest->first) {
      fresh.push_back(var(ir::Var(l.loop_var().any()).name(), ir::PrimType(ir::Expr(l.loop_var().any()).ty()).dtype()));
      call("sym.AnalyzerBind", analyzer, fresh.back(),
           call("ir.Range_from_min_extent", l.min().any(), l.extent().any(), Any(nullptr)), false);
    }
    Any then_copy = map(replace(choice->any(), choice->args()[1]), {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any {
                          for (size_t n = 0; n < lvars.size(); ++n) {
                            if (v.same_as(lvars[n])) return fresh[n];
                          }
                          return v.any();
                        })});
    return if_then_else(choice->args()[0], unswitch(then_copy, analyzer, true),
                        unswitch(replace(choice->any(), choice->args()[2]), analyzer, true));
  }
  bool divides = false;
  walk(cond, {ir::visit<ir::FloorDiv>([&](const ir::FloorDiv&) { divides = true; })});  // a view without fields
  if (!chosen && !divides) return loop;
  Any folded = call("sym.AnalyzerSimplify", analyzer, cond, 2);
  if (folded.same_as(cond)) return loop;
  List args = ite.args();
  return replace(ite.any(), call_intrin(ir::PrimType(ir::Expr(ite.any()).ty()).dtype(), "prim.if_then_else",
                                        List{folded, args[1], args[2]}));
}

}  // namespace

Any unswitch_masks(const Any& body, const Any& analyzer) {
  // The outermost loop of each nest: the walk meets inner loops first, so a nest's inner loops are dropped once all
  // nests are known (unswitching an inner loop would leave the nest split by an if: block-causal's dllm = 16).
  std::vector<Any> nests, outer;
  walk(body, {ir::visit<ir::For>([&](const ir::For& loop) {
         if (tileops::eltwise_nest(loop.any())) nests.push_back(loop.any());
       })});
  for (const Any& candidate : nests) {
    bool inner = false;
    for (const Any& o : nests) {
      auto nest = tileops::eltwise_nest(o);
      for (size_t n = 1; n < nest->first.size(); ++n) inner = inner || nest->first[n].same_as(candidate);
    }
    if (!inner) outer.push_back(candidate);
  }
  if (outer.empty()) return body;
  return map(body, {ir::rewrite<ir::For>([&](const ir::For& loop) -> Any {
               for (const Any& o : outer) {
                 if (o.same_as(loop.any())) return unswitch(loop.any(), analyzer, false);
               }
               return loop.any();
             })});
}

}  // namespace tl::masks
