// The hook bind_cuda_threads (pass BindCudaThreads, specs/passes/bind_cuda_threads.yaml): a CUDA block's element
// loop nests strided over T.Kernel's threads, its fragments partitioned the same way, barriers between nests that
// share a shared buffer, and the threadIdx.x launch. Blocks where that is not correct by construction are kept.
#include "cuda_threads.h"

#include <attr_keys.h>

#include <algorithm>

namespace tl {
namespace cuda {

using cpu::op_add;
using cpu::op_lt;
using cpu::op_mul;

bool is_const_zero(const Any& e) {
  auto imm = ir::IntImm::from(e);
  return imm && imm->value() == 0;
}

int64_t const_int(const Any& e) { return ir::IntImm(e).value(); }

bool is_fragment(const std::string& scope) { return scope == "local.fragment" || scope == "local"; }
bool is_shared(const std::string& scope) { return scope == "shared" || scope == "shared.dyn"; }

std::optional<Nest> element_nest(const Any& stmt) {
  Nest nest;
  Any s = stmt;
  while (auto loop = ir::For::from(s)) {
    if (loop->kind() != 0 || !ir::IntImm::matches(loop->extent()) || !is_const_zero(loop->min())) return std::nullopt;
    nest.loops.push_back(*loop);
    nest.elements *= const_int(loop->extent());
    s = loop->body();
  }
  Any store = s;
  if (auto guard = ir::IfThenElse::from(s)) {
    if (!is_none(guard->else_case())) return std::nullopt;
    store = guard->then_case();
  }
  if (nest.loops.empty() || !ir::BufferStore::matches(store)) return std::nullopt;
  nest.inner = s;
  ir::BufferStore st(store);
  nest.writes.add(st.buffer());
  // Iterations must be independent: the store takes every non-unit loop variable (no element written twice, as by
  // a reduction), and the stored buffer is read only at the stored element (no carried dependence, as a scan has).
  for (const ir::For& l : nest.loops) {
    if (const_int(l.extent()) == 1) continue;
    bool used = false;
    walk(Any(st.indices()), {ir::visit<ir::Var>([&](const ir::Var& v) { used = used || v.same_as(l.loop_var()); })});
    if (!used) return std::nullopt;
  }
  bool independent = true;
  walk(s, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& load) {
         nest.reads.add(load.source());
         if (load.source().same_as(st.buffer())) {
           independent = independent && call("ffi.StructuralEqual", Any(load.indices()), Any(st.indices()), false, false)
                                            .cast<bool>();
         }
       })});
  if (!independent) return std::nullopt;
  return nest;
}

/*! \brief Whether `indices` of a fragment of `shape` address the nest's own element: the nest's non-unit loops index
 * the fragment's non-unit dims in order over the same extents, unit dims at 0. */
bool at_own_element(const Nest& nest, const List& indices, const std::vector<int64_t>& shape) {
  std::vector<const ir::For*> loops;
  for (const ir::For& l : nest.loops) {
    if (const_int(l.extent()) != 1) loops.push_back(&l);
  }
  size_t next = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) {
      if (!is_const_zero(indices[d])) return false;
      continue;
    }
    if (next >= loops.size() || !indices[d].same_as(loops[next]->loop_var()) ||
        const_int(loops[next]->extent()) != shape[d]) {
      return false;
    }
    ++next;
  }
  return next == loops.size();
}


Any part_of(const Parts& parts, const Any& buffer) {
  for (const auto& [frag, part] : parts) {
    if (frag.same_as(buffer)) return part;
  }
  return Any(nullptr);
}

/*! \brief The block's fragments (buffer -> partitioned local buffer) when every access of each is at its nest's
 * own element, else nullopt. */
std::optional<Parts> partition_fragments(const std::vector<Nest>& nests, const std::vector<Any>& allocs,
                                         const VarSet& replicated, int64_t threads) {
  Parts parts;
  std::vector<BufferInfo> infos;
  for (const Any& alloc : allocs) {
    BufferInfo info = buffer_info(ir::AllocBuffer(alloc).buffer());
    if (!is_fragment(info.scope) || replicated.has(info.var)) continue;
    int64_t elements = 1;
    for (int64_t e : info.shape) elements *= e;
    List shape{int_imm((elements + threads - 1) / threads)};
    Any type = call("tirx.BufferType", String("local"), String(info.dtype), shape, List(), int_imm(0), -1, 0,
                    Any(nullptr), List(), Any(nullptr));
    parts.emplace_back(info.var, call("tirx.BufferVar", String(info.name), type, Any(nullptr)));
    infos.push_back(info);
  }
  bool ok = true;
  for (const Nest& nest : nests) {
    auto check = [&](const Any& buffer, const List& indices) {
      auto it = std::find_if(infos.begin(), infos.end(), [&](const BufferInfo& i) { return i.var.same_as(buffer); });
      if (it == infos.end()) return;
      int64_t elements = 1;
      for (int64_t e : it->shape) elements *= e;
      ok = ok && elements == nest.elements && at_own_element(nest, indices, it->shape);
    };
    walk(nest.inner, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { check(l.source(), l.indices()); }),
                      ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) { check(s.buffer(), s.indices()); })});
  }
  if (!ok) return std::nullopt;
  return parts;
}

/*! \brief The nest strided over the threads in runs of `width` elements: `for it in range(ceil(E / (N * width)))`,
 * `for v in vectorized(width)`, element e = (it * N + tx) * width + v (guarded when N does not divide E, width 1
 * then), the loop variables recovered from e, fragment accesses at [it * width + v]. */
Any strided_nest(const Nest& nest, const Parts& parts, const Any& tx, int64_t threads, int64_t width,
                 int run_kind) {
  Any it = var("it", "int32"), v = var("v", "int32");
  Any slot = width == 1 ? it : op_add(op_mul(it, int_imm(width)), v);
  Any body = map(nest.inner, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                                Any part = part_of(parts, load.source());
                                if (is_none(part)) return load.any();
                                return call("tirx.BufferLoad", part, List{slot}, Any(nullptr));
                              }),
                              ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                                Any part = part_of(parts, store.buffer());
                                if (is_none(part)) return store.any();
                                return call("tirx.BufferStore", part, Any(store.value()), List{slot}, Any(nullptr));
                              })},
                 "post");
  Any element = op_add(op_mul(it, int_imm(threads)), tx);
  if (width > 1) element = op_add(op_mul(element, int_imm(width)), v);
  int64_t stride = 1;
  std::vector<std::pair<Any, Any>> values;  // loop variable -> its value from the element
  for (size_t l = nest.loops.size(); l-- > 0;) {
    int64_t extent = const_int(nest.loops[l].extent());
    Any value = stride == 1 ? element : call("prim._OpFloorDiv", element, int_imm(stride), Any(nullptr));
    if (l > 0) value = call("prim._OpFloorMod", value, int_imm(extent), Any(nullptr));
    values.emplace_back(Any(nest.loops[l].loop_var()), value);
    stride *= extent;
  }
  body = map(body, {ir::rewrite<ir::Var>([&values](const ir::Var& var) -> Any {
               for (const auto& [loop_var, value] : values) {
                 if (var.same_as(loop_var)) return value;
               }
               return var.any();
             })},
             "post");
  if (nest.elements % threads != 0) body = if_then_else(op_lt(element, int_imm(nest.elements)), body);
  // kind 2: vectorized (VectorizeLoop); a reduction's runs stay serial (each element updates one accumulator)
  if (width > 1) body = for_loop(v, int_imm(0), int_imm(width), run_kind, body);
  int64_t runs = threads * width;
  return for_loop(it, int_imm(0), int_imm((nest.elements + runs - 1) / runs), 0, body);
}

Any barrier() {
  // TVMScript's T.tvm_storage_sync("shared") spelt out: (scope, is_load=False, num_blocks=-1); CUDA: __syncthreads()
  return evaluate(call_intrin("void", "tirx.tvm_storage_sync",
                              List{string_imm("shared"), make_const(Any(false), "bool"), int_imm(-1)}));
}


}  // namespace cuda

namespace {

using namespace cuda;  // NOLINT: the binding's pieces


enum Role { kAlloc, kElement, kReduction, kReplicated };

/*! \brief A block's statements by role: allocations, element nests, row reductions into one-element fragments and
 * statements on those fragments alone (each nest's index in `nests`, -1 for the others). */
struct BlockPlan {
  std::vector<Any> stmts, allocs;
  VarSet replicated;  // one-element fragments T.reduce_* writes: every thread holds the whole fragment
  std::vector<std::optional<std::pair<Nest, Reduction>>> reductions;
  std::vector<Nest> nests;
  std::vector<Role> roles;
  std::vector<int> order;
};

/*! \brief Whether a global tensor is written by one nest and read by another (one thread would read what another
 * wrote: more than this binding orders). */
bool global_written_and_read(const std::vector<Nest>& nests, const std::vector<Any>& allocs) {
  VarSet on_chip;
  for (const Any& alloc : allocs) on_chip.add(buffer_info(ir::AllocBuffer(alloc).buffer()).var);
  for (const Nest& w : nests) {
    for (const Any& b : w.writes.items) {
      if (on_chip.has(b)) continue;
      for (const Nest& r : nests) {
        if (r.reads.has(b)) return true;
      }
    }
  }
  return false;
}

std::optional<BlockPlan> plan_block(const Any& body) {
  BlockPlan plan;
  for (const Any& s : flatten(body)) {
    for (const Any& part : split_row_reduction(s)) plan.stmts.push_back(part);
  }
  for (const Any& s : plan.stmts) {
    plan.reductions.push_back(ir::AllocBuffer::matches(s) ? std::nullopt : reduction_nest(s));
    if (plan.reductions.back()) plan.replicated.add(plan.reductions.back()->second.store.buffer());
  }
  for (size_t i = 0; i < plan.stmts.size(); ++i) {
    const Any& s = plan.stmts[i];
    std::optional<Nest> nest;
    Role role = kElement;
    if (ir::AllocBuffer::matches(s)) {
      plan.allocs.push_back(s);
      role = kAlloc;
    } else if (plan.reductions[i]) {
      nest = plan.reductions[i]->first;
      role = kReduction;
    } else if (writes_any(s, plan.replicated)) {
      if (!replicated_stmt(s, plan.replicated)) return std::nullopt;
      role = kReplicated;
    } else if (!(nest = element_nest(s))) {
      return std::nullopt;
    }
    plan.roles.push_back(role);
    plan.order.push_back(nest ? static_cast<int>(plan.nests.size()) : -1);
    if (nest) plan.nests.push_back(*nest);
  }
  if (global_written_and_read(plan.nests, plan.allocs)) return std::nullopt;
  return plan;
}

/*! \brief An allocation of the bound block: a fragment's partitioned part, a replicated fragment's whole copy per
 * thread (recorded in `copies`), or the allocation as it was. */
Any bound_alloc(const Any& alloc, const Parts& parts, const VarSet& replicated, Parts& copies) {
  Any buf = ir::AllocBuffer(alloc).buffer();
  Any part = part_of(parts, buf);
  if (replicated.has(buf)) {  // a local buffer of the fragment's shape
    BufferInfo info = buffer_info(buf);
    List shape;
    for (int64_t e : info.shape) shape.push_back(int_imm(e));
    Any type = call("tirx.BufferType", String("local"), String(info.dtype), shape, List(), int_imm(0), -1, 0,
                    Any(nullptr), List(), Any(nullptr));
    part = call("tirx.BufferVar", String(info.name), type, Any(nullptr));
    copies.emplace_back(buf, part);
  }
  return is_none(part) ? alloc : call("tirx.AllocBuffer", part, ffi::Map<String, Any>(), Any(nullptr));
}

/*! \brief `body` with every access of a replicated fragment redirected to its per-thread copy. */
Any with_copies(const Any& body, const Parts& copies) {
  return map(body, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                      Any copy = part_of(copies, load.source());
                      if (is_none(copy)) return load.any();
                      return call("tirx.BufferLoad", copy, Any(load.indices()), Any(nullptr));
                    }),
                    ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                      Any copy = part_of(copies, store.buffer());
                      if (is_none(copy)) return store.any();
                      return call("tirx.BufferStore", copy, Any(store.value()), Any(store.indices()), Any(nullptr));
                    })},
             "post");
}

/*! \brief The block body on `threads` threads, or nullopt when it is not a sequence of allocations, element
 * nests, row reductions into one-element fragments and statements on those fragments alone, with partitionable
 * fragments and no global tensor both written and read. */
std::optional<Any> bind_block(const Any& body, int64_t threads) {
  auto plan = plan_block(body);
  if (!plan) return std::nullopt;
  VarSet shared;
  for (const Any& alloc : plan->allocs) {
    BufferInfo info = buffer_info(ir::AllocBuffer(alloc).buffer());
    if (is_shared(info.scope)) shared.add(info.var);
  }
  auto parts = partition_fragments(plan->nests, plan->allocs, plan->replicated, threads);
  if (!parts) return std::nullopt;
  Any tx = var("tx", "int32");
  int64_t width = vector_width(plan->nests, *parts, threads);
  std::vector<Any> out;
  // All shared memory counts as one buffer: StorageRewrite (optimize_common) may later give two shared buffers
  // the same memory, so a barrier separates every two nests that touch shared memory unless both only read it.
  bool wrote = false, touched = false;  // shared memory since the last barrier
  Parts copies;  // replicated fragment -> its local copy
  auto any_shared = [&](const VarSet& set) {
    return std::any_of(set.items.begin(), set.items.end(), [&](const Any& b) { return shared.has(b); });
  };
  for (size_t i = 0; i < plan->stmts.size(); ++i) {
    const Any& stmt = plan->stmts[i];
    if (plan->roles[i] != kElement && plan->roles[i] != kReduction) {
      out.push_back(plan->roles[i] == kAlloc ? bound_alloc(stmt, *parts, plan->replicated, copies) : stmt);
      continue;
    }
    const Nest& n = plan->nests[plan->order[i]];
    bool reads = any_shared(n.reads), writes = any_shared(n.writes);
    if (((reads || writes) && wrote) || (writes && touched)) {
      out.push_back(barrier());
      wrote = touched = false;
    }
    wrote = wrote || writes;
    touched = touched || reads || writes;
    if (plan->roles[i] == kElement) {
      out.push_back(strided_nest(n, *parts, tx, threads, width));
      continue;
    }
    // the allreduce writes shared memory of its own (which StorageRewrite may place over the block's), ends with
    // a barrier and then every thread reads its result there
    for (Any& s : thread_reduction(n, plan->reductions[i]->second, *parts, tx, threads, width, touched)) {
      out.push_back(s);
    }
    wrote = false;
    touched = true;
  }
  Any iter_var = call("tirx.IterVar", call("ir.Range_from_min_extent", int_imm(0), int_imm(threads), Any(nullptr)),
                      tx, 1, String("threadIdx.x"), Any(nullptr));
  return call("tirx.AttrStmt", iter_var, String(keys::kThreadExtent), int_imm(threads), with_copies(seq(out), copies),
              Any(nullptr));
}

/*! \brief Descend the block launches (blockIdx thread_extent attributes) and bind the innermost body. */
Any bind_launches(const Any& stmt, int64_t threads) {
  auto attr = ir::AttrStmt::from(stmt);
  if (!attr) return stmt;
  auto launch = launch_of(*attr);
  if (!launch) return stmt;
  std::string tag = launch->thread_tag();
  if (tag.rfind("blockIdx.", 0) != 0) return stmt;  // threads already launched: leave the kernel as written
  Any body = attr->body();
  Any inner = ir::AttrStmt::matches(body) ? bind_launches(body, threads) : bind_block(body, threads).value_or(body);
  if (inner.same_as(body)) return stmt;
  return call("tirx.AttrStmt", attr->node(), String(attr->attr_key()), Any(attr->value()), inner, Any(nullptr));
}

}  // namespace

namespace hooks {

Any bind_cuda_threads() {
  return prim_func_pass("BindCudaThreads", [](const Any& func) {
    // a kernel that launches its own threads runs as written, with the barriers TileLang's kernels leave to it
    if (launches_own_threads(ir::PrimFunc(func).body())) return sync_own_threads(func);
    Any threads = get_attr(func, keys::kTlThreads);
    // 1024: the most threads a CUDA block has on every architecture; more could not launch, so it keeps one
    if (!is_int(threads) || threads.cast<int64_t>() <= 1 || threads.cast<int64_t>() > 1024) return func;
    Any body = ir::PrimFunc(func).body();
    Any bound = bind_launches(body, threads.cast<int64_t>());
    return bound.same_as(body) ? func : with_body(func, bound);
  });
}

}  // namespace hooks
}  // namespace tl
