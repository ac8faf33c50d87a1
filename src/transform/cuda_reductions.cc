// Row reductions of a CUDA block on its threads (the hook bind_cuda_threads, cuda_threads.h): per-thread partial
// results combined by TVM's tvm_thread_allreduce.
#include "cuda_threads.h"

#include <algorithm>
#include <limits>

namespace tl::cuda {

using cpu::op_add;

static int64_t elements_of(const std::vector<int64_t>& shape) {
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

static Any local_buffer(const std::string& name, const std::string& dtype) {
  Any type = call("tirx.BufferType", String("local"), String(dtype), List{int_imm(1)}, List(), int_imm(0), -1, 0,
                  Any(nullptr), List(), Any(nullptr));
  return call("tirx.BufferVar", String(name), type, Any(nullptr));
}

static Any load0(const Any& buffer) { return call("tirx.BufferLoad", buffer, List{int_imm(0)}, Any(nullptr)); }
static Any store0(const Any& buffer, const Any& value) {
  return call("tirx.BufferStore", buffer, value, List{int_imm(0)}, Any(nullptr));
}

static Any combine(const std::string& kind, const Any& a, const Any& b) {
  if (kind == "sum") return op_add(a, b);
  return call(kind == "max" ? "prim._OpMax" : "prim._OpMin", a, b, Any(nullptr));
}

static Any identity_of(const std::string& kind, const std::string& dtype) {
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

}  // namespace tl::cuda
