// The shapes of per-thread arrays (loop_thread_arrays.cc): dims every thread fills alike are dropped, 2-D arrays a
// DRAM copy fills in the other dim order are transposed (with the arrays stored together with them).
#include <functional>

#include "loop_blocks.h"

namespace tl::loops {

// `body` with `from` replaced by `to`, every access's indices (a fill's ranges) mapped by `f`.
Any remap(const Any& body, const Any& from, const Any& to, const IndexMap& f) {
  return map(body, {ir::rewrite<ir::AllocBuffer>([&](const ir::AllocBuffer& a) -> Any {
                      if (!a.buffer().same_as(from)) return a.any();
                      return call("tirx.AllocBuffer", to, ffi::Map<String, Any>(), Any(nullptr));
                    }),
                    ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& s) -> Any {
                      if (!s.buffer().same_as(from)) return s.any();
                      return call("tirx.BufferStore", to, Any(s.value()), f(s.indices()), Any(nullptr));
                    }),
                    ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& l) -> Any {
                      if (!l.source().same_as(from)) return l.any();
                      return call("tirx.BufferLoad", to, f(l.indices()), Any(nullptr));
                    }),
                    ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& t) -> Any {
                      List args;
                      bool touched = false;
                      for (const Any& arg : t.args()) {
                        auto r = ir::TensorRegion::from(arg);
                        touched |= r && r->source().same_as(from);
                        args.push_back(r && r->source().same_as(from) ? call("tirx.BufferRegion", to, f(r->region()))
                                                                      : arg);
                      }
                      return touched ? tile_call(t.op().name().c_str(), args) : t.any();
                    })},
             "post");
}

namespace {

// The local arrays a kernel allocates that only element accesses and whole fills touch.
std::vector<Any> arrays(const Any& body, size_t min_rank) {
  std::vector<Any> out, fixed;
  walk(body, {ir::visit<ir::AllocBuffer>([&](const ir::AllocBuffer& a) {
                BufferInfo info = buffer_info(a.buffer());
                if (info.scope == "local.fragment" && info.shape.size() >= min_rank) out.push_back(a.buffer());
              }),
              ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& t) {
                if (t.op().name() == "tirx.tile.fill") return;
                for (const Any& arg : t.args()) {
                  if (auto r = ir::TensorRegion::from(arg)) fixed.push_back(r->source());
                }
              })});
  std::vector<Any> kept;
  for (const Any& b : out) {
    if (std::none_of(fixed.begin(), fixed.end(), [&](const Any& f) { return f.same_as(b); })) kept.push_back(b);
  }
  return kept;
}

Any with_shape(const Any& buffer, const List& shape) {
  BufferInfo info = buffer_info(buffer);
  return onchip_buffer(info.name, info.dtype, shape, info.scope.c_str());
}

// The loop of `loops` whose variable is `v`, or end.
std::vector<ir::For>::const_iterator loop_of(const std::vector<ir::For>& loops, const Any& v) {
  return std::find_if(loops.begin(), loops.end(), [&](const ir::For& f) { return f.loop_var().same_as(v); });
}

std::vector<ir::For> all_loops(const Any& body) {
  std::vector<ir::For> out;
  walk(body, {ir::visit<ir::For>([&](const ir::For& f) { out.push_back(f); })});
  return out;
}

// Whether every store of `buffer` fills dim `d` whole with a value loaded from DRAM that does not depend on it (every
// thread loading the same element): index d is a loop's variable (from 0 over the dim) that no other index and not
// the value names, and the loop reads nothing of buffer. (A constant store is a fill, which keeps its shape.)
bool replicated(const Any& body, const Any& buffer, size_t d, const std::vector<ir::For>& loops) {
  int64_t extent = buffer_info(buffer).shape[d];
  bool any = false, ok = true;
  walk(body, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
         if (!s.buffer().same_as(buffer)) return;
         any = true;
         List idx = s.indices();
         auto loop = loop_of(loops, idx[d]);
         auto e = loop == loops.end() ? std::nullopt : ir::IntImm::from(loop->extent());
         bool loads = false;
         walk(s.value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                loads |= !buffer_info(l.source()).on_chip();
              })});
         ok = ok && loads && e && e->value() == extent && tileops::is_zero(loop->min()) && !names(s.value(), idx[d]) &&
              !reads(loop->body(), buffer);
         for (size_t o = 0; ok && o < idx.size(); ++o) ok = o == d || !names(idx[o], idx[d]);
       })});
  return any && ok;
}

Any drop_replicated(Any body) {
  for (const Any& start : arrays(body, 2)) {
    Any buffer = start;
    for (size_t d = 0; d < buffer_info(buffer).shape.size() && buffer_info(buffer).shape.size() > 1;) {
      if (!replicated(body, buffer, d, all_loops(body))) {
        ++d;
        continue;
      }
      List shape;
      for (size_t o = 0; o < buffer_info(buffer).shape.size(); ++o) {
        if (o != d) shape.push_back(int_imm(buffer_info(buffer).shape[o]));
      }
      Any narrow = with_shape(buffer, shape);
      body = remap(body, buffer, narrow, [d](const List& idx) {
        List out;
        for (size_t o = 0; o < idx.size(); ++o) {
          if (o != d) out.push_back(idx[o]);
        }
        return out;
      });
      buffer = narrow;
    }
  }
  return body;
}

// Whether a store of `buffer` copies a DRAM tensor with the loops stepping the two in the other dim order.
bool copied_transposed(const Any& body, const Any& buffer, const std::vector<ir::For>& loops) {
  bool found = false;
  walk(body, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
         auto load = ir::TensorLoad::from(tileops::strip_casts(s.value()));
         if (!s.buffer().same_as(buffer) || !load || buffer_info(load->source()).on_chip()) return;
         std::vector<ir::For> nest;
         for (const Any& index : s.indices()) {
           auto loop = loop_of(loops, index);
           if (loop == loops.end()) return;
           nest.push_back(*loop);
         }
         auto p = place(load->indices(), nest);
         if (auto* placement = std::get_if<Placement>(&p)) found |= dim_order(*placement) == std::vector<int>{1, 0};
       })});
  return found;
}

Any transpose_copied(Any body) {
  std::vector<Any> flat = arrays(body, 2);
  std::vector<Any> candidates;
  for (const Any& b : flat) {
    if (buffer_info(b).shape.size() == 2) candidates.push_back(b);
  }
  auto at = [&](const Any& b) -> int {
    for (size_t n = 0; n < candidates.size(); ++n) {
      if (candidates[n].same_as(b)) return static_cast<int>(n);
    }
    return -1;
  };
  std::vector<int> group(candidates.size());
  for (size_t n = 0; n < group.size(); ++n) group[n] = static_cast<int>(n);
  std::function<int(int)> root = [&](int n) {
    int up = group[static_cast<size_t>(n)];
    return up == n ? n : root(up);
  };
  std::vector<bool> mixed(candidates.size(), false);  // an array read by another at swapped indices: left as it is
  walk(body, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
         int y = at(s.buffer());
         if (y < 0) return;
         walk(s.value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                int x = at(l.source());
                if (x < 0) return;
                if (same(l.indices(), s.indices())) {
                  group[static_cast<size_t>(root(x))] = root(y);
                } else {
                  mixed[static_cast<size_t>(x)] = mixed[static_cast<size_t>(y)] = true;
                }
              })});
       })});
  std::vector<ir::For> loops = all_loops(body);
  std::vector<bool> flip(candidates.size(), false), blocked(candidates.size(), false);
  for (size_t n = 0; n < candidates.size(); ++n) {
    auto r = static_cast<size_t>(root(static_cast<int>(n)));
    if (copied_transposed(body, candidates[n], loops)) flip[r] = true;
    if (mixed[n]) blocked[r] = true;
  }
  for (size_t n = 0; n < candidates.size(); ++n) {
    auto r = static_cast<size_t>(root(static_cast<int>(n)));
    if (!flip[r] || blocked[r]) continue;
    std::vector<int64_t> s = buffer_info(candidates[n]).shape;
    body = remap(body, candidates[n], with_shape(candidates[n], List{int_imm(s[1]), int_imm(s[0])}),
                 [](const List& idx) { return List{idx[1], idx[0]}; });
  }
  return body;
}

// The dim of `buffer` that every reader sums (`Y[J] = Y[J] + X[I]` in a nest with the loop of I[d]'s variable, which
// J and no other index name), when X is cleared to 0 and only accumulated into (`X[I] = X[I] + term`); -1 if none.
// `summed` gets the readers' loops over that dim.
int summed_dim(const Any& body, const Any& buffer, const std::vector<ir::For>& loops, std::vector<Any>* summed) {
  bool ok = true;
  int dim = -1;
  walk(body, {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& t) {
                auto r = ir::TensorRegion::from(t.args()[0]);
                auto v = t.args().size() > 1 ? cpu::const_value(t.args()[1]) : std::nullopt;
                if (r && r->source().same_as(buffer)) ok = ok && v && *v == 0.0;
              }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
                auto add = ir::Add::from(s.value());
                auto acc = add ? ir::TensorLoad::from(add->a()) : std::nullopt;
                bool accumulates = acc && acc->source().same_as(s.buffer()) && same(acc->indices(), s.indices()) &&
                                   !reads(add->b(), s.buffer());
                if (s.buffer().same_as(buffer)) {
                  ok = ok && accumulates;
                  return;
                }
                if (!reads(s.value(), buffer)) return;
                auto x = accumulates ? ir::TensorLoad::from(add->b()) : std::nullopt;
                if (!x || !x->source().same_as(buffer)) {
                  ok = false;
                  return;
                }
                List idx = x->indices();
                int d = -1;
                for (size_t i = 0; i < idx.size(); ++i) {
                  auto loop = loop_of(loops, idx[i]);
                  Any inner = loop == loops.end() ? Any() : Any(loop->body());
                  while (auto f = ir::For::from(inner)) inner = f->body();
                  if (loop == loops.end() || names(s.indices(), idx[i]) || !inner.same_as(s.any()) ||
                      !tileops::is_zero(loop->min()) ||
                      !tileops::is_const_int(loop->extent(), buffer_info(buffer).shape[i])) {
                    continue;
                  }
                  d = static_cast<int>(i);
                  summed->push_back(idx[i]);
                }
                ok = ok && d >= 0 && (dim < 0 || dim == d);
                dim = d;
              })});
  return ok ? dim : -1;
}

// Partial sums summed whole (loop_merge.cc's first rule).
Any collapse_partial_sums(Any body) {
  for (const Any& buffer : arrays(body, 2)) {
    std::vector<Any> summed;
    int d = summed_dim(body, buffer, all_loops(body), &summed);
    if (d < 0) continue;
    body = map(body, {ir::rewrite<ir::For>([&](const ir::For& f) -> Any {
                 bool drop = std::any_of(summed.begin(), summed.end(),
                                         [&](const Any& v) { return f.loop_var().same_as(v); });
                 return drop ? Any(f.body()) : f.any();
               })});
    List shape;
    std::vector<int64_t> old = buffer_info(buffer).shape;
    for (size_t o = 0; o < old.size(); ++o) {
      if (static_cast<int>(o) != d) shape.push_back(int_imm(old[o]));
    }
    auto dd = static_cast<size_t>(d);
    body = remap(body, buffer, with_shape(buffer, shape), [dd](const List& idx) {
      List out;
      for (size_t o = 0; o < idx.size(); ++o) {
        if (o != dd) out.push_back(idx[o]);
      }
      return out;
    });
  }
  return body;
}

// Dims (a, b) of `buffer` that its DRAM copy reads as one run, `u * extent_b + w` with u, w its indices there.
std::optional<std::pair<size_t, size_t>> run_dims(const Any& body, const Any& buffer) {
  std::optional<std::pair<size_t, size_t>> found;
  std::vector<int64_t> shape = buffer_info(buffer).shape;
  walk(body, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
         auto load = ir::TensorLoad::from(tileops::strip_casts(s.value()));
         if (found || !s.buffer().same_as(buffer) || !load || buffer_info(load->source()).on_chip()) return;
         List idx = s.indices();
         for (size_t a = 0; a < idx.size(); ++a) {
           for (size_t b = a + 1; b < idx.size(); ++b) {
             if (!ir::Var::matches(idx[a]) || !ir::Var::matches(idx[b])) continue;
             for (const Any& index : load->indices()) {
               List form = call("sym.DetectLinearEquation", index, List{idx[a], idx[b]}).cast<List>();
               if (form.size() != 3) continue;
               auto cu = ir::IntImm::from(form[0]), cw = ir::IntImm::from(form[1]);
               if (!found && cu && cw && cu->value() == shape[b] && cw->value() == 1) found = std::make_pair(a, b);
             }
           }
         }
       })});
  return found;
}

Any fuse_runs(Any body) {
  for (const Any& start : arrays(body, 2)) {
    Any buffer = start;
    while (auto dims = run_dims(body, buffer)) {
      auto [a, b] = *dims;
      std::vector<int64_t> old = buffer_info(buffer).shape;
      List shape;
      for (size_t o = 0; o < old.size(); ++o) {
        if (o != b) shape.push_back(int_imm(o == a ? old[a] * old[b] : old[o]));
      }
      Any fused = with_shape(buffer, shape);
      int64_t eb = old[b];
      body = remap(body, buffer, fused, [a, b, eb](const List& idx) {
        List out;
        for (size_t o = 0; o < idx.size(); ++o) {
          bool region = ir::Range::matches(idx[o]);
          if (o == b) continue;
          if (o != a) {
            out.push_back(idx[o]);
          } else if (region) {  // a whole fill: the fused dim whole
            ir::Range ra(idx[a]), rb(idx[b]);
            Any extent = cpu::op_mul(ra.extent(), rb.extent());
            out.push_back(call("ir.Range_from_min_extent", int_imm(0), extent, Any(nullptr)));
          } else {
            out.push_back(cpu::op_add(cpu::op_mul(idx[a], int_imm(eb)), idx[b]));
          }
        }
        return out;
      });
      buffer = fused;
    }
  }
  return body;
}

}  // namespace

Any reshape_thread_arrays(const Any& body) { return fuse_runs(collapse_partial_sums(drop_replicated(body))); }
Any transpose_thread_arrays(const Any& body) { return transpose_copied(body); }

}  // namespace tl::loops
