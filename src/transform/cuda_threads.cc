// The hook bind_cuda_threads (pass BindCudaThreads, specs/passes/bind_cuda_threads.yaml): a CUDA block's element
// loop nests strided over T.Kernel's threads, its fragments partitioned the same way, barriers between nests that
// share a shared buffer, and the threadIdx.x launch. Blocks where that is not correct by construction are kept.
#include "cpu_loops.h"

#include <attr_keys.h>

#include <algorithm>
#include <limits>

namespace tl {
namespace {

using cpu::op_add;
using cpu::op_lt;
using cpu::op_mul;

/*! \brief Buffer variables by identity (a block has a handful). */
struct VarSet {
  std::vector<Any> items;
  bool has(const Any& v) const {
    return std::any_of(items.begin(), items.end(), [&v](const Any& x) { return x.same_as(v); });
  }
  void add(const Any& v) {
    if (!has(v)) items.push_back(v);
  }
  void clear() { items.clear(); }
};

bool is_const_zero(const Any& e) {
  auto imm = ir::IntImm::from(e);
  return imm && imm->value() == 0;
}

int64_t const_int(const Any& e) { return ir::IntImm(e).value(); }

bool is_fragment(const std::string& scope) { return scope == "local.fragment" || scope == "local"; }
bool is_shared(const std::string& scope) { return scope == "shared" || scope == "shared.dyn"; }

/*! \brief A perfect nest of serial loops from 0 over constant extents around one store (guarded or not). */
struct Nest {
  std::vector<ir::For> loops;
  Any inner;  // the loops' body: a BufferStore or an IfThenElse (no else) around one
  int64_t elements = 1;
  VarSet reads, writes;  // buffer variables
};

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

/*! \brief Fragment buffer -> its partitioned local buffer. */
using Parts = std::vector<std::pair<Any, Any>>;

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
                 int run_kind = 2) {
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

int64_t dtype_bytes(const std::string& dtype) {
  std::string digits;
  for (char c : dtype) {
    if (c >= '0' && c <= '9') digits += c;
  }
  return digits.empty() ? 1 : std::max<int64_t>(1, std::stoll(digits) / 8);
}

/*! \brief Whether every global or shared access of the nest starts `width`-aligned when its innermost loop variable
 * is: its flattened offset with that variable at 0 is provably a multiple of `width` (a vector access at a
 * misaligned address faults). */
bool aligned(const Nest& nest, const Parts& parts, int64_t width) {
  cpu::Analyzer analyzer;
  Any j = nest.loops.back().loop_var();
  bool ok = true;
  auto check = [&](const Any& buffer, const List& indices) {
    if (!is_none(part_of(parts, buffer))) return;  // a partitioned fragment: local, aligned by construction
    std::vector<int64_t> shape = buffer_info(buffer).shape;
    Any offset = int_imm(0);
    for (size_t d = 0; d < indices.size(); ++d) {
      int64_t stride = 1;
      for (size_t e = d + 1; e < shape.size(); ++e) stride *= shape[e];
      offset = op_add(offset, op_mul(indices[d], int_imm(stride)));
    }
    offset = map(offset, {ir::rewrite<ir::Var>([&j](const ir::Var& x) -> Any {
                   return x.same_as(j) ? int_imm(0, cpu::dtype_of(x).c_str()) : x.any();
                 })},
                 "post");
    Any rem = call("prim._OpFloorMod", offset, int_imm(width), Any(nullptr));
    ok = ok && analyzer.can_prove(call("prim._OpEQ", rem, int_imm(0), Any(nullptr)));
  };
  walk(nest.inner, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { check(l.source(), l.indices()); }),
                    ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) { check(st.buffer(), st.indices()); })});
  return ok;
}

/*! \brief Elements a thread takes at a time (one vector access of at most 16 bytes of the widest dtype the block
 * touches): the widest power of two that divides every nest's innermost extent and its elements into whole runs of
 * N threads, with every access aligned (one width for the block, so every nest partitions a fragment alike), else
 * 1. */
int64_t vector_width(const std::vector<Nest>& nests, const Parts& parts, int64_t threads) {
  int64_t widest = 1;
  for (const Nest& n : nests) {
    for (const VarSet* set : {&n.reads, &n.writes}) {
      for (const Any& b : set->items) widest = std::max(widest, dtype_bytes(buffer_info(b).dtype));
    }
  }
  for (int64_t width = std::max<int64_t>(1, 16 / widest); width > 1; width /= 2) {
    bool fits = std::all_of(nests.begin(), nests.end(), [&](const Nest& n) {
      return n.elements % (threads * width) == 0 && const_int(n.loops.back().extent()) % width == 0 &&
             aligned(n, parts, width);
    });
    if (fits) return width;
  }
  return 1;
}

Any barrier() {
  // TVMScript's T.tvm_storage_sync("shared") spelt out: (scope, is_load=False, num_blocks=-1); CUDA: __syncthreads()
  return evaluate(call_intrin("void", "tirx.tvm_storage_sync",
                              List{string_imm("shared"), make_const(Any(false), "bool"), int_imm(-1)}));
}

/*! \brief A row reduction LowerTileOpsToLoops made of T.reduce_sum/max/min into a one-element fragment:
 * `for r...: dst[c] = combine(dst[c], value)` (combine +, max or min; value not reading dst). */
struct Reduction {
  std::string kind;  // sum, max, min
  ir::BufferStore store;
  Any value;
};

int64_t elements_of(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  return n;
}

std::optional<std::pair<Nest, Reduction>> reduction_nest(const Any& stmt) {
  Nest nest;
  Any s = stmt;
  while (auto loop = ir::For::from(s)) {
    if (loop->kind() != 0 || !ir::IntImm::matches(loop->extent()) || !is_const_zero(loop->min())) return std::nullopt;
    nest.loops.push_back(*loop);
    nest.elements *= const_int(loop->extent());
    s = loop->body();
  }
  if (nest.loops.empty() || !ir::BufferStore::matches(s)) return std::nullopt;
  ir::BufferStore st(s);
  BufferInfo info = buffer_info(st.buffer());
  if (!is_fragment(info.scope) || elements_of(info.shape) != 1) return std::nullopt;
  std::string kind;
  Any a, b;
  Any value = st.value();
  if (auto add = ir::Add::from(value)) {
    kind = "sum", a = add->a(), b = add->b();
  } else if (auto mx = ir::Max::from(value)) {
    kind = "max", a = mx->a(), b = mx->b();
  } else if (auto mn = ir::Min::from(value)) {
    kind = "min", a = mn->a(), b = mn->b();
  } else {
    return std::nullopt;
  }
  auto is_dst = [&](const Any& e) {
    auto load = ir::TensorLoad::from(e);
    return load && load->source().same_as(st.buffer());
  };
  if (!is_dst(a)) std::swap(a, b);
  if (!is_dst(a)) return std::nullopt;
  bool reads_dst = false;
  walk(b, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& load) {
         nest.reads.add(load.source());
         reads_dst = reads_dst || load.source().same_as(st.buffer());
       })});
  if (reads_dst) return std::nullopt;
  nest.inner = s;
  nest.writes.add(st.buffer());
  return std::make_pair(nest, Reduction{kind, st, b});
}

/*! \brief Whether `stmt` is serial loops (constant extents, or none) around one store into a replicated fragment
 * that reads only replicated fragments: every thread runs it on its own copy alike. */
bool replicated_stmt(const Any& stmt, const VarSet& replicated) {
  Any s = stmt;
  while (auto loop = ir::For::from(s)) {
    if (loop->kind() != 0 || !ir::IntImm::matches(loop->extent())) return false;
    s = loop->body();
  }
  if (!ir::BufferStore::matches(s) || !replicated.has(ir::BufferStore(s).buffer())) return false;
  bool ok = true;
  walk(s, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { ok = ok && replicated.has(l.source()); })});
  return ok;
}

bool writes_any(const Any& stmt, const VarSet& buffers) {
  bool hit = false;
  walk(stmt, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) { hit = hit || buffers.has(st.buffer()); })});
  return hit;
}

Any local_buffer(const std::string& name, const std::string& dtype) {
  Any type = call("tirx.BufferType", String("local"), String(dtype), List{int_imm(1)}, List(), int_imm(0), -1, 0,
                  Any(nullptr), List(), Any(nullptr));
  return call("tirx.BufferVar", String(name), type, Any(nullptr));
}

Any load0(const Any& buffer) { return call("tirx.BufferLoad", buffer, List{int_imm(0)}, Any(nullptr)); }
Any store0(const Any& buffer, const Any& value) {
  return call("tirx.BufferStore", buffer, value, List{int_imm(0)}, Any(nullptr));
}

Any combine(const std::string& kind, const Any& a, const Any& b) {
  if (kind == "sum") return op_add(a, b);
  return call(kind == "max" ? "prim._OpMax" : "prim._OpMin", a, b, Any(nullptr));
}

Any identity_of(const std::string& kind, const std::string& dtype) {
  if (kind == "sum") return make_const(Any(int64_t(0)), dtype.c_str());
  bool is_max = kind == "max";
  if (dtype.rfind("float", 0) == 0 || dtype.rfind("bfloat", 0) == 0) {
    double inf = std::numeric_limits<double>::infinity();
    return make_const(Any(is_max ? -inf : inf), dtype.c_str());
  }
  return call(is_max ? "prim.min_value" : "prim.max_value", String(dtype), Any(nullptr));
}

/*! \brief A reduction on `threads` threads: each thread combines its own elements (the nest strided as an element
 * nest, runs serial) into a local accumulator, TVM's tvm_thread_allreduce combines the threads' accumulators
 * (LowerThreadAllreduce: warp shuffles, then shared memory across warps; every thread gets the result), and every
 * thread combines the result into its copy of the one-element fragment. */
std::vector<Any> thread_reduction(const Nest& nest, const Reduction& red, const Parts& parts, const Any& tx,
                                  int64_t threads, int64_t width, bool barrier_first) {
  std::string dtype = buffer_info(red.store.buffer()).dtype;
  Any acc = local_buffer("acc", dtype), result = local_buffer("red", dtype);
  Nest partial = nest;
  partial.inner = store0(acc, combine(red.kind, load0(acc), red.value));
  std::vector<Any> out;
  out.push_back(call("tirx.AllocBuffer", acc, ffi::Map<String, Any>(), Any(nullptr)));
  out.push_back(store0(acc, identity_of(red.kind, dtype)));
  out.push_back(strided_nest(partial, parts, tx, threads, width, 0));
  if (barrier_first) out.push_back(barrier());
  out.push_back(call("tirx.AllocBuffer", result, ffi::Map<String, Any>(), Any(nullptr)));
  Any x = var("x", dtype), y = var("y", dtype);
  Any reducer = call("te.CommReducer", List{x}, List{y}, List{combine(red.kind, x, y)},
                     List{identity_of(red.kind, dtype)}, Any(nullptr));
  Any handle = call("ir.PointerType", call("ir.PrimType", String("void")), String("global"));  // T.handle().ty
  Any scope = call("tirx.reinterpret", handle, make_const(Any(int64_t(0)), "uint64"), Any(nullptr));
  Any allreduce = call_intrin("void", "tirx.tvm_thread_allreduce",
                              List{make_const(Any(int64_t(1)), "uint32"), load0(acc),
                                   make_const(Any(true), "bool"), load0(result), tx});
  out.push_back(call("tirx.AttrStmt", reducer, String("reduce_scope"), scope, evaluate(allreduce), Any(nullptr)));
  Any dst = call("tirx.BufferLoad", red.store.buffer().any(), Any(red.store.indices()), Any(nullptr));
  out.push_back(call("tirx.BufferStore", red.store.buffer().any(), combine(red.kind, dst, load0(result)),
                     Any(red.store.indices()), Any(nullptr)));
  return out;
}

/*! \brief The block body on `threads` threads, or nullopt when it is not a sequence of allocations, element
 * nests, row reductions into one-element fragments and statements on those fragments alone, with partitionable
 * fragments and no global tensor both written and read. */
std::optional<Any> bind_block(const Any& body, int64_t threads) {
  enum Role { kAlloc, kElement, kReduction, kReplicated };
  std::vector<Any> stmts = flatten(body), allocs;
  VarSet replicated;  // one-element fragments T.reduce_* writes: every thread holds the whole fragment
  std::vector<std::optional<std::pair<Nest, Reduction>>> reductions;
  for (const Any& s : stmts) {
    reductions.push_back(ir::AllocBuffer::matches(s) ? std::nullopt : reduction_nest(s));
    if (reductions.back()) replicated.add(reductions.back()->second.store.buffer());
  }
  std::vector<Nest> nests;
  std::vector<Role> roles;
  std::vector<int> order;  // per statement: its nest, -1 for allocations and replicated statements
  for (size_t i = 0; i < stmts.size(); ++i) {
    const Any& s = stmts[i];
    if (ir::AllocBuffer::matches(s)) {
      allocs.push_back(s);
      roles.push_back(kAlloc);
      order.push_back(-1);
      continue;
    }
    if (reductions[i]) {
      roles.push_back(kReduction);
      order.push_back(static_cast<int>(nests.size()));
      nests.push_back(reductions[i]->first);
      continue;
    }
    if (writes_any(s, replicated)) {
      if (!replicated_stmt(s, replicated)) return std::nullopt;
      roles.push_back(kReplicated);
      order.push_back(-1);
      continue;
    }
    auto nest = element_nest(s);
    if (!nest) return std::nullopt;
    roles.push_back(kElement);
    order.push_back(static_cast<int>(nests.size()));
    nests.push_back(*nest);
  }
  VarSet on_chip, shared;
  for (const Any& alloc : allocs) {
    BufferInfo info = buffer_info(ir::AllocBuffer(alloc).buffer());
    on_chip.add(info.var);
    if (is_shared(info.scope)) shared.add(info.var);
  }
  for (const Nest& w : nests) {  // a global tensor written by one thread and read by another needs more than this
    for (const Any& b : w.writes.items) {
      if (on_chip.has(b)) continue;
      for (const Nest& r : nests) {
        if (r.reads.has(b)) return std::nullopt;
      }
    }
  }
  auto parts = partition_fragments(nests, allocs, replicated, threads);
  if (!parts) return std::nullopt;
  Any tx = var("tx", "int32");
  int64_t width = vector_width(nests, *parts, threads);
  std::vector<Any> out;
  // All shared memory counts as one buffer: StorageRewrite (optimize_common) may later give two shared buffers
  // the same memory, so a barrier separates every two nests that touch shared memory unless both only read it.
  bool wrote = false, touched = false;  // shared memory since the last barrier
  Parts copies;  // replicated fragment -> its local copy
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (roles[i] == kAlloc) {
      Any buf = ir::AllocBuffer(stmts[i]).buffer();
      Any part = part_of(*parts, buf);
      if (replicated.has(buf)) {  // a whole copy per thread: a local buffer of the fragment's shape
        BufferInfo info = buffer_info(buf);
        List shape;
        for (int64_t e : info.shape) shape.push_back(int_imm(e));
        Any type = call("tirx.BufferType", String("local"), String(info.dtype), shape, List(), int_imm(0), -1, 0,
                        Any(nullptr), List(), Any(nullptr));
        part = call("tirx.BufferVar", String(info.name), type, Any(nullptr));
        copies.emplace_back(buf, part);
      }
      out.push_back(is_none(part) ? stmts[i] : call("tirx.AllocBuffer", part, ffi::Map<String, Any>(), Any(nullptr)));
      continue;
    }
    if (roles[i] == kReplicated) {
      out.push_back(stmts[i]);
      continue;
    }
    const Nest& n = nests[order[i]];
    bool reads = std::any_of(n.reads.items.begin(), n.reads.items.end(), [&](const Any& b) { return shared.has(b); });
    bool writes = std::any_of(n.writes.items.begin(), n.writes.items.end(), [&](const Any& b) { return shared.has(b); });
    if (((reads || writes) && wrote) || (writes && touched)) {
      out.push_back(barrier());
      wrote = touched = false;
    }
    wrote = wrote || writes;
    touched = touched || reads || writes;
    if (roles[i] == kElement) {
      out.push_back(strided_nest(n, *parts, tx, threads, width));
      continue;
    }
    // the allreduce writes shared memory of its own (which StorageRewrite may place over the block's), ends with
    // a barrier and then every thread reads its result there
    for (Any& s : thread_reduction(n, reductions[i]->second, *parts, tx, threads, width, touched)) {
      out.push_back(s);
    }
    wrote = false;
    touched = true;
  }
  Any iter_var = call("tirx.IterVar", call("ir.Range_from_min_extent", int_imm(0), int_imm(threads), Any(nullptr)),
                      tx, 1, String("threadIdx.x"), Any(nullptr));
  Any bound = map(seq(out), {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                                Any copy = part_of(copies, load.source());
                                if (is_none(copy)) return load.any();
                                return call("tirx.BufferLoad", copy, Any(load.indices()), Any(nullptr));
                              }),
                              ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                                Any copy = part_of(copies, store.buffer());
                                if (is_none(copy)) return store.any();
                                return call("tirx.BufferStore", copy, Any(store.value()), Any(store.indices()),
                                            Any(nullptr));
                              })},
                  "post");
  return call("tirx.AttrStmt", iter_var, String(keys::kThreadExtent), int_imm(threads), bound, Any(nullptr));
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
