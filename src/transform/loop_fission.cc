// Element-wise nests of several stores (loop_blocks.h). TileLang's layernorm computes its row statistics in one
// T.Parallel(blk_m) body: `mean_row[i] = sum_row[i] * inv_D; rstd_row[i] = T.rsqrt(...mean_row[i]...);
// Mean[bx * blk_m + i] = mean_row[i]; Rstd[bx * blk_m + i] = rstd_row[i]`. Each store becomes a nest of its own, in
// body order, where that keeps the body's meaning: every buffer the body writes is written and read there at one
// index, which names each iteration's own element (every loop of more than one iteration steps some dim alone), so
// no iteration touches another's elements and running each store over all iterations before the next computes what
// the body did. Values the body binds (`norm = ...`) are substituted into the stores that read them. Each piece is
// then a copy, an element-wise store or a staged store like any one-store nest; a body that breaks the rule is left
// whole (and refused where it is recognised, naming the loop). A body item may itself be a nest of loops around one
// store (SerializeThreads sinks a thread loop to the store that reads the thread index: gemv's `for tk: A_shared[tk]
// = A[...]; for tn: B_shared[tn, tk] = B[...]`): its store's loops are then the outer ones and its own, for the rule
// and for the nest it becomes.
#include <functional>

#include "loop_blocks.h"

namespace tl::loops {
namespace {

// Whether distinct iterations of `loops` reach distinct elements at `indices`: every loop of more than one iteration
// steps exactly one index, with a constant stride, and the loops of each index step it injectively (mixed radix:
// sorted by stride, each stride exceeds the span of the smaller ones, as `tk * 10 + k` with k < 10); or, with
// `repeats`, names no index (the store repeats the same element and value; drop_idle later runs it once).
bool own_element(const List& indices, const std::vector<ir::For>& loops,
                 const std::function<bool(const Any&)>& repeats) {
  List vars;
  for (const ir::For& l : loops) vars.push_back(l.loop_var());
  std::vector<std::vector<int64_t>> coefs;
  for (const Any& index : indices) {
    List form = call("sym.DetectLinearEquation", index, vars).cast<List>();
    if (form.size() != vars.size() + 1) return false;
    std::vector<int64_t> c;
    for (size_t w = 0; w < vars.size(); ++w) {
      auto coef = ir::IntImm::from(form[w]);
      if (!coef) return false;
      c.push_back(coef->value() < 0 ? -coef->value() : coef->value());
    }
    coefs.push_back(c);
  }
  auto extent = [&](size_t v) {
    auto e = ir::IntImm::from(loops[v].extent());
    return e ? e->value() : -1;
  };
  for (size_t v = 0; v < loops.size(); ++v) {
    if (extent(v) == 1) continue;
    if (extent(v) < 1) return false;
    size_t steps = 0;
    for (const auto& c : coefs) steps += c[v] != 0 ? 1 : 0;
    if (steps == 0 && !repeats(vars[v])) return false;
    if (steps > 1) return false;
  }
  for (const auto& c : coefs) {  // mixed radix per index
    std::vector<size_t> order;
    for (size_t v = 0; v < c.size(); ++v) {
      if (c[v] != 0 && extent(v) > 1) order.push_back(v);
    }
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return c[x] < c[y]; });
    int64_t span = 0;
    for (size_t v : order) {
      if (c[v] <= span) return false;
      span += c[v] * (extent(v) - 1);
    }
  }
  return true;
}

// Whether every store and load of `buffer` among `stores` is at `indices`.
bool one_index(const Any& buffer, const List& indices, const std::vector<ir::BufferStore>& stores) {
  bool ok = true;
  for (const ir::BufferStore& st : stores) {
    if (st.buffer().same_as(buffer)) ok = ok && same(st.indices(), indices);
    walk(st.value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
           if (l.source().same_as(buffer)) ok = ok && same(l.indices(), indices);
         })});
  }
  return ok;
}

// `node` with the variables of `from` replaced by the values of `to`.
Any substitute(const Any& node, const std::vector<Any>& from, const std::vector<Any>& to) {
  return map(node, {ir::rewrite<ir::Var>([&](const ir::Var& v) -> Any {
               for (size_t n = 0; n < from.size(); ++n) {
                 if (v.same_as(from[n])) return to[n];
               }
               return v.any();
             })});
}

}  // namespace

Any split_nest(const Any& stmt) {
  std::vector<ir::For> loops;
  Any body = stmt;
  while (auto loop = ir::For::from(body)) {
    loops.push_back(*loop);
    body = loop->body();
  }
  auto seq = ir::SeqStmt::from(body);
  if (loops.empty() || !seq) return stmt;
  std::vector<Any> let_vars, let_values;
  std::vector<ir::BufferStore> stores;
  std::vector<std::vector<ir::For>> inner_loops;  // per store, the loops of its own around it
  for (const Any& item : seq->seq()) {
    if (auto b = ir::Bind::from(item)) {
      let_vars.push_back(b->var().any());
      let_values.push_back(substitute(b->value().any(), let_vars, let_values));
      continue;
    }
    std::vector<ir::For> own;
    Any inner = item;
    while (auto loop = ir::For::from(inner)) {
      own.push_back(*loop);
      inner = loop->body();
    }
    if (!ir::BufferStore::matches(inner)) return stmt;
    stores.emplace_back(substitute(inner, let_vars, let_values));
    inner_loops.push_back(own);
  }
  if (stores.size() < 2) return stmt;
  for (size_t s = 0; s < stores.size(); ++s) {
    std::vector<ir::For> all = loops;
    all.insert(all.end(), inner_loops[s].begin(), inner_loops[s].end());
    const ir::BufferStore& st = stores[s];
    auto repeats = [&](const Any& v) {  // the store's value neither names the loop nor reads what the body writes
      bool ok = true;
      walk(st.value(), {ir::visit<ir::Var>([&](const ir::Var& x) { ok = ok && !x.same_as(v); }),
                        ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                          for (const ir::BufferStore& w : stores) ok = ok && !w.buffer().same_as(l.source());
                        })});
      return ok;
    };
    if (!own_element(st.indices(), all, repeats) || !one_index(st.buffer().any(), st.indices(), stores)) return stmt;
  }
  std::vector<Any> nests;
  for (size_t s = 0; s < stores.size(); ++s) {
    std::vector<Any> old_vars, new_vars;  // the first nest keeps the loop variables, the others get their own
    for (const ir::For& l : loops) {
      old_vars.push_back(l.loop_var().any());
      Any v = l.loop_var().any();
      if (s > 0) v = call("ir.Var", String(ir::Var(v).name()), ir::Var(v).ty().any(), Any(nullptr));
      new_vars.push_back(v);
    }
    Any nest = substitute(stores[s].any(), old_vars, new_vars);
    for (size_t l = inner_loops[s].size(); l-- > 0;) {
      const ir::For& f = inner_loops[s][l];
      nest = for_loop(f.loop_var(), substitute(f.min(), old_vars, new_vars), substitute(f.extent(), old_vars, new_vars),
                      static_cast<int>(f.kind()), nest, f.annotations());
    }
    for (size_t l = loops.size(); l-- > 0;) {
      const ir::For& f = loops[l];
      nest = for_loop(new_vars[l], f.min(), f.extent(), static_cast<int>(f.kind()), nest, f.annotations());
    }
    nests.push_back(nest);
  }
  return seq_stmt(cpu::to_list(nests));
}

}  // namespace tl::loops
