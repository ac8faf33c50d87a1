// A CUDA block's T.gemm on tensor cores (the hook bind_cuda_threads): which blocks qualify. A block qualifies when
// its statements are allocations, gemm nests, whole-tile copies from global tensors into the gemm operands,
// element nests on the accumulators (each at its own element: the clear, the copy out) and serial loops of these;
// every fragment is a float32 gemm accumulator whose shape the block's warps tile in 16x16 pieces, every shared
// buffer a fp16/bf16 gemm operand written only by the tile copies, and no global tensor both written and read.
// Any other block keeps the binding of cuda_threads.cc (or one thread).
#include "cuda_gemm.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace tl::cuda {

namespace {

bool uses(const Any& expr, const Any& v) {
  bool found = false;
  walk(expr, {ir::visit<ir::Var>([&](const ir::Var& x) { found = found || x.same_as(v); })});
  return found;
}

bool is_16bit_float(const std::string& dtype) { return dtype == "float16" || dtype == "bfloat16"; }

/*! \brief The loads of a product's factor `float(X[...])` (a cast to float32 of a 16-bit load). */
std::optional<ir::TensorLoad> factor(const Any& e) {
  auto c = ir::Cast::from(e);
  if (!c || cpu::dtype_of(e) != "float32") return std::nullopt;
  auto load = ir::TensorLoad::from(c->value());
  if (!load || !is_16bit_float(buffer_info(load->source()).dtype)) return std::nullopt;
  return load;
}

bool at(const ir::TensorLoad& load, const Any& x, const Any& y) {
  List idx = load.indices();
  return idx.size() == 2 && idx[0].same_as(x) && idx[1].same_as(y);
}

std::optional<Gemm> gemm_nest(const Any& stmt) {
  std::vector<ir::For> loops;
  Any s = stmt;
  while (auto loop = ir::For::from(s)) {
    if (loop->kind() != 0 || !ir::IntImm::matches(loop->extent()) || !is_const_zero(loop->min())) return std::nullopt;
    loops.push_back(*loop);
    s = loop->body();
  }
  auto store = ir::BufferStore::from(s);
  if (loops.size() != 3 || !store || store->indices().size() != 2) return std::nullopt;
  BufferInfo c = buffer_info(store->buffer());
  auto sum = ir::Add::from(store->value());
  if (!is_fragment(c.scope) || c.dtype != "float32" || !sum) return std::nullopt;
  Any i = store->indices()[0], j = store->indices()[1];
  auto acc = ir::TensorLoad::from(sum->a());
  auto mul = ir::Mul::from(sum->b());
  if (!acc || !mul || !acc->source().same_as(store->buffer()) || !at(*acc, i, j)) return std::nullopt;
  auto x = factor(mul->a()), y = factor(mul->b());
  if (!x || !y) return std::nullopt;
  Any k;
  std::vector<int64_t> ext;
  for (const ir::For& l : loops) {
    if (!l.loop_var().same_as(i) && !l.loop_var().same_as(j)) k = l.loop_var();
  }
  if (is_none(k) || i.same_as(j)) return std::nullopt;
  auto extent = [&](const Any& v) {
    for (const ir::For& l : loops) {
      if (l.loop_var().same_as(v)) return const_int(l.extent());
    }
    return int64_t{-1};
  };
  if (!(at(*x, i, k) || at(*x, k, i))) std::swap(x, y);
  Gemm g{x->source(), y->source(), store->buffer(), extent(i), extent(j), extent(k), at(*x, k, i), at(*y, j, k)};
  if (!(at(*x, i, k) || g.ta) || !(at(*y, k, j) || g.tb)) return std::nullopt;
  BufferInfo a = buffer_info(g.a), b = buffer_info(g.b);
  if (!is_shared(a.scope) || !is_shared(b.scope) || a.dtype != b.dtype || g.a.same_as(g.b)) return std::nullopt;
  std::vector<int64_t> a_shape = g.ta ? std::vector<int64_t>{g.k, g.m} : std::vector<int64_t>{g.m, g.k};
  std::vector<int64_t> b_shape = g.tb ? std::vector<int64_t>{g.n, g.k} : std::vector<int64_t>{g.k, g.n};
  if (c.shape != std::vector<int64_t>{g.m, g.n} || a.shape != a_shape || b.shape != b_shape) return std::nullopt;
  return g;
}

/*! \brief Whether `index` is `start + v` (or `v`) with `start` free of the nest's loop variables; the start. */
std::optional<Any> offset_of(const Any& index, const Any& v, const Nest& nest) {
  auto free_of_loops = [&](const Any& e) {
    return std::none_of(nest.loops.begin(), nest.loops.end(), [&](const ir::For& l) { return uses(e, l.loop_var()); });
  };
  if (index.same_as(v)) return int_imm(0, cpu::dtype_of(v).c_str());
  auto add = ir::Add::from(index);
  if (!add) return std::nullopt;
  if (add->b().same_as(v) && free_of_loops(add->a())) return Any(add->a());
  if (add->a().same_as(v) && free_of_loops(add->b())) return Any(add->b());
  return std::nullopt;
}

std::optional<TileCopy> tile_copy(const Nest& nest) {
  auto store = ir::BufferStore::from(nest.inner);
  if (nest.loops.size() != 2 || !store) return std::nullopt;
  BufferInfo s = buffer_info(store->buffer());
  auto load = ir::TensorLoad::from(store->value());
  Any i = nest.loops[0].loop_var(), j = nest.loops[1].loop_var();
  if (!is_shared(s.scope) || !load || s.shape.size() != 2 || !is_16bit_float(s.dtype)) return std::nullopt;
  List sidx = store->indices();
  if (!sidx[0].same_as(i) || !sidx[1].same_as(j) || const_int(nest.loops[0].extent()) != s.shape[0] ||
      const_int(nest.loops[1].extent()) != s.shape[1]) {
    return std::nullopt;
  }
  BufferInfo g = buffer_info(load->source());
  List gidx = load->indices();
  size_t rank = gidx.size();
  if (g.scope != "global" || g.dtype != s.dtype || rank < 2) return std::nullopt;
  TileCopy copy{store->buffer(), load->source(), List(), s.shape[0], s.shape[1], g.shape[rank - 1], false};
  for (size_t d = 0; d < rank; ++d) {
    std::optional<Any> start = d + 2 < rank ? std::optional<Any>(gidx[d]) : offset_of(gidx[d], d + 2 == rank ? i : j,
                                                                                        nest);
    if (!start || uses(*start, i) || uses(*start, j)) return std::nullopt;
    copy.start.push_back(*start);
  }
  // 16-byte pieces: the tile's first element and every row 8-element aligned (a misaligned vector access faults)
  Any offset = int_imm(0);
  for (size_t d = 0; d < rank; ++d) {
    int64_t stride = 1;
    for (size_t e = d + 1; e < rank; ++e) stride *= g.shape[e];
    offset = cpu::op_add(offset, cpu::op_mul(copy.start[d], int_imm(stride)));
  }
  Any rem = call("prim._OpFloorMod", offset, int_imm(8), Any(nullptr));
  copy.vec = copy.ld % 8 == 0 && cpu::Analyzer().can_prove(call("prim._OpEQ", rem, int_imm(0), Any(nullptr)));
  return copy;
}

/*! \brief The warp grid of an M x N accumulator on `warps` warps: whole 16x16 pieces a warp, the squarest warp
 * tile (more warp rows on a tie), else nullopt. */
std::optional<WarpGrid> warp_grid(int64_t m, int64_t n, int64_t warps) {
  std::optional<WarpGrid> best;
  for (int64_t wm = warps; wm >= 1; --wm) {
    if (warps % wm != 0 || m % (wm * 16) != 0 || n % ((warps / wm) * 16) != 0) continue;
    auto skew = [&](const WarpGrid& g) { return std::llabs(m / g.wm - n / g.wn); };
    WarpGrid grid{wm, warps / wm};
    if (!best || skew(grid) < skew(*best)) best = grid;
  }
  return best;
}

/*! \brief Whether a shared operand's rows are whole 16-byte chunks, a power of two of them (the swizzle). */
bool swizzles(const Any& buffer) {
  int64_t chunks = buffer_info(buffer).shape[1] / 8;
  return buffer_info(buffer).shape[1] % 8 == 0 && chunks > 0 && (chunks & (chunks - 1)) == 0;
}

std::optional<std::vector<GemmItem>> items_of(const Any& body, bool in_loop);

std::optional<GemmItem> item_of(const Any& s, bool in_loop) {
  GemmItem item;
  item.stmt = s;
  if (ir::AllocBuffer::matches(s)) {
    if (in_loop) return std::nullopt;
    return item;
  }
  if (auto g = gemm_nest(s)) {
    item.role = GemmRole::kGemm;
    item.gemm = *g;
    return item;
  }
  if (auto nest = element_nest(s)) {
    auto copy = tile_copy(*nest);
    item.role = copy ? GemmRole::kCopy : GemmRole::kAccNest;
    if (copy) item.copy = *copy;
    item.nest = nest;
    return item;
  }
  auto loop = ir::For::from(s);
  if (!loop || in_loop || loop->kind() != 0) return std::nullopt;
  auto body = items_of(loop->body(), true);
  if (!body) return std::nullopt;
  item.role = GemmRole::kLoop;
  item.body = *body;
  return item;
}

std::optional<std::vector<GemmItem>> items_of(const Any& body, bool in_loop) {
  std::vector<GemmItem> items;
  for (const Any& s : flatten(body)) {
    auto item = item_of(s, in_loop);
    if (!item) return std::nullopt;
    items.push_back(*item);
  }
  return items;
}

void each_item(const std::vector<GemmItem>& items, const std::function<void(const GemmItem&)>& f) {
  for (const GemmItem& item : items) {
    f(item);
    each_item(item.body, f);
  }
}

bool check_plan(GemmPlan& plan);

/*! \brief Whether every buffer `body` reads or writes has a static shape (this engine's arithmetic needs one). */
bool static_shapes(const Any& body) {
  bool ok = true;
  auto check = [&ok](const Any& buffer) {
    for (const Any& dim : ir::BufferType(ir::Var(buffer).ty()).shape()) ok = ok && ir::IntImm::matches(dim);
  };
  walk(body, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { check(l.source()); }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) { check(s.buffer()); }),
              ir::visit<ir::AllocBuffer>([&](const ir::AllocBuffer& a) { check(a.buffer()); })});
  return ok;
}

}  // namespace

std::optional<GemmPlan> plan_gemm_block(const Any& body, int64_t threads) {
  if (threads % 32 != 0 || !static_shapes(body)) return std::nullopt;
  auto items = items_of(body, false);
  if (!items) return std::nullopt;
  GemmPlan plan{*items, {}, threads};
  bool any_gemm = false;
  each_item(plan.items, [&](const GemmItem& item) { any_gemm = any_gemm || item.role == GemmRole::kGemm; });
  if (!any_gemm || !check_plan(plan)) return std::nullopt;
  plan_pipelines(plan);
  return plan;
}

namespace {

/*! \brief The block's buffers play their parts: accumulators with a warp grid, operands written by tile copies
 * only, accumulator nests touching accumulators (at their own element) and global tensors only. */
bool check_plan(GemmPlan& plan) {
  VarSet operands, accs, allocated, written_global, read_global;
  bool ok = true;
  each_item(plan.items, [&](const GemmItem& item) {
    if (item.role == GemmRole::kAlloc) allocated.add(ir::AllocBuffer(item.stmt).buffer());
    if (item.role != GemmRole::kGemm) return;
    const Gemm& g = item.gemm;
    operands.add(g.a);
    operands.add(g.b);
    ok = ok && swizzles(g.a) && swizzles(g.b) && g.k % 16 == 0;
    if (accs.has(g.c)) return;
    accs.add(g.c);
    auto grid = warp_grid(g.m, g.n, plan.threads / 32);
    if (!grid) ok = false;
    if (grid) plan.accumulators.emplace_back(g.c, *grid);
  });
  for (const Any& b : allocated.items) {
    BufferInfo info = buffer_info(b);
    ok = ok && (is_shared(info.scope) ? operands.has(b) : accs.has(b));
  }
  each_item(plan.items, [&](const GemmItem& item) {
    if (item.role == GemmRole::kCopy) {
      ok = ok && operands.has(item.copy.shared);
      read_global.add(item.copy.global);
    }
    if (item.role != GemmRole::kAccNest) return;
    const Nest& n = *item.nest;
    bool touches = false;
    for (const VarSet* set : {&n.reads, &n.writes}) {
      for (const Any& b : set->items) {
        BufferInfo info = buffer_info(b);
        if (info.scope == "global") {
          (set == &n.writes ? written_global : read_global).add(b);
          continue;
        }
        ok = ok && accs.has(b) && info.shape[0] * info.shape[1] == n.elements;
        touches = true;
      }
    }
    ok = ok && touches;  // a nest of global tensors alone has no layout to run by
    walk(n.inner, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                     if (accs.has(l.source())) ok = ok && at_own_element(n, l.indices(), buffer_info(l.source()).shape);
                   }),
                   ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
                     if (accs.has(s.buffer())) ok = ok && at_own_element(n, s.indices(), buffer_info(s.buffer()).shape);
                   })});
  });
  for (const Any& b : written_global.items) ok = ok && !read_global.has(b);
  return ok;
}

}  // namespace

std::optional<Any> bind_gemm_block(const Any& body, int64_t threads) {
  auto plan = plan_gemm_block(body, threads);
  if (!plan) return std::nullopt;
  return emit_gemm_block(*plan);
}

}  // namespace tl::cuda
