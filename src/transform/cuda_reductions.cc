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

/*! \brief How many leading loops of `loops` index dst (its non-unit dims in order, over their extents; unit dims at
 * 0), else nullopt. */
static std::optional<size_t> kept_loops(const std::vector<ir::For>& loops, const List& indices,
                                        const std::vector<int64_t>& shape) {
  size_t next = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) {
      if (!is_const_zero(indices[d])) return std::nullopt;
      continue;
    }
    if (next >= loops.size() || !indices[d].same_as(loops[next].loop_var()) ||
        const_int(loops[next].extent()) != shape[d]) {
      return std::nullopt;
    }
    ++next;
  }
  return next;
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
  if (!is_fragment(info.scope)) return std::nullopt;
  auto kept = kept_loops(nest.loops, st.indices(), info.shape);
  int64_t rows = elements_of(info.shape);
  if (!kept || *kept >= nest.loops.size() || rows > kMaxReducedRows) return std::nullopt;
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
    return load && load->source().same_as(st.buffer()) &&
           call("ffi.StructuralEqual", Any(load->indices()), Any(st.indices()), false, false).cast<bool>();
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
  return std::make_pair(nest, Reduction{kind, st, b, *kept, rows});
}

std::vector<Any> split_row_reduction(const Any& stmt) {
  std::vector<ir::For> loops;
  Any s = stmt;
  while (auto loop = ir::For::from(s)) {
    loops.push_back(*loop);
    s = loop->body();
  }
  std::vector<Any> body = flatten(s);
  if (loops.empty() || body.size() != 2 || !ir::BufferStore::matches(body[0])) return {stmt};
  Any reduction = body[1];
  for (size_t l = loops.size(); l-- > 0;) {
    reduction = for_loop(Any(loops[l].loop_var()), loops[l].min(), loops[l].extent(), loops[l].kind(), reduction);
  }
  auto red = reduction_nest(reduction);
  if (!red || red->second.kept != loops.size() || !ir::BufferStore(body[0]).buffer().same_as(red->second.store.buffer())) {
    return {stmt};
  }
  std::vector<std::pair<Any, Any>> fresh;  // the initialization's own loop variables
  for (const ir::For& l : loops) fresh.emplace_back(Any(l.loop_var()), var(l.loop_var().name(), cpu::dtype_of(l.loop_var())));
  Any init = map(body[0], {ir::rewrite<ir::Var>([&fresh](const ir::Var& v) -> Any {
                   for (const auto& [old_var, new_var] : fresh) {
                     if (v.same_as(old_var)) return new_var;
                   }
                   return v.any();
                 })},
                 "post");
  for (size_t l = loops.size(); l-- > 0;) {
    init = for_loop(fresh[l].second, loops[l].min(), loops[l].extent(), loops[l].kind(), init);
  }
  return {init, reduction};
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

static Any local_buffer(const std::string& name, const std::string& dtype, int64_t elements = 1) {
  Any type = call("tirx.BufferType", String("local"), String(dtype), List{int_imm(elements)}, List(), int_imm(0), -1,
                  0, Any(nullptr), List(), Any(nullptr));
  return call("tirx.BufferVar", String(name), type, Any(nullptr));
}

static Any load_at(const Any& buffer, int64_t i) {
  return call("tirx.BufferLoad", buffer, List{int_imm(i)}, Any(nullptr));
}
static Any store_at(const Any& buffer, int64_t i, const Any& value) {
  return call("tirx.BufferStore", buffer, value, List{int_imm(i)}, Any(nullptr));
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

/*! \brief The row of a reduction's element: its kept loop variables flattened (0 for one row). */
static Any row_of(const Nest& nest, const Reduction& red) {
  Any row = int_imm(0);
  for (size_t l = 0; l < red.kept; ++l) {
    row = op_add(cpu::op_mul(row, nest.loops[l].extent()), Any(nest.loops[l].loop_var()));
  }
  return row;
}

/*! \brief dst's indices at row `q`: the kept loop variables at their values for q. */
static Any indices_at_row(const Nest& nest, const Reduction& red, int64_t q) {
  std::vector<std::pair<Any, int64_t>> values;
  for (size_t l = red.kept; l-- > 0;) {
    int64_t extent = const_int(nest.loops[l].extent());
    values.emplace_back(Any(nest.loops[l].loop_var()), q % extent);
    q /= extent;
  }
  return map(Any(red.store.indices()), {ir::rewrite<ir::Var>([&values](const ir::Var& v) -> Any {
               for (const auto& [loop_var, value] : values) {
                 if (v.same_as(loop_var)) return int_imm(value, cpu::dtype_of(v).c_str());
               }
               return v.any();
             })},
             "post");
}

/*! \brief A reduction on `threads` threads: each thread combines its own elements (the nest strided as an element
 * nest, runs serial) into a local accumulator per row, TVM's tvm_thread_allreduce combines the threads'
 * accumulators of each row in turn (LowerThreadAllreduce: warp shuffles, then shared memory across warps; every
 * thread gets the result), and every thread combines the result into its copy of the fragment. */
std::vector<Any> thread_reduction(const Nest& nest, const Reduction& red, const Parts& parts, const Any& tx,
                                  int64_t threads, int64_t width, bool barrier_first) {
  std::string dtype = buffer_info(red.store.buffer()).dtype;
  Any acc = local_buffer("acc", dtype, red.rows);
  Nest partial = nest;
  Any row = row_of(nest, red);
  partial.inner = call("tirx.BufferStore", acc,
                       combine(red.kind, call("tirx.BufferLoad", acc, List{row}, Any(nullptr)), red.value),
                       List{row}, Any(nullptr));
  std::vector<Any> out;
  out.push_back(call("tirx.AllocBuffer", acc, ffi::Map<String, Any>(), Any(nullptr)));
  for (int64_t q = 0; q < red.rows; ++q) out.push_back(store_at(acc, q, identity_of(red.kind, dtype)));
  out.push_back(strided_nest(partial, parts, tx, threads, width, 0));
  Any x = var("x", dtype), y = var("y", dtype);
  Any reducer = call("te.CommReducer", List{x}, List{y}, List{combine(red.kind, x, y)},
                     List{identity_of(red.kind, dtype)}, Any(nullptr));
  Any handle = call("ir.PointerType", call("ir.PrimType", String("void")), String("global"));  // T.handle().ty
  Any scope = call("tirx.reinterpret", handle, make_const(Any(int64_t(0)), "uint64"), Any(nullptr));
  for (int64_t q = 0; q < red.rows; ++q) {
    // the allreduce writes shared memory of its own and every thread then reads its result there: a barrier
    // separates it from the previous row's reads
    if (barrier_first || q > 0) out.push_back(barrier());
    Any result = local_buffer("red", dtype);  // one a row: LowerThreadAllreduce places each in shared memory
    out.push_back(call("tirx.AllocBuffer", result, ffi::Map<String, Any>(), Any(nullptr)));
    Any allreduce = call_intrin("void", "tirx.tvm_thread_allreduce",
                                List{make_const(Any(int64_t(1)), "uint32"), load_at(acc, q),
                                     make_const(Any(true), "bool"), load_at(result, 0), tx});
    out.push_back(call("tirx.AttrStmt", reducer, String("reduce_scope"), scope, evaluate(allreduce), Any(nullptr)));
    Any indices = red.rows == 1 ? Any(red.store.indices()) : indices_at_row(nest, red, q);
    Any dst = call("tirx.BufferLoad", red.store.buffer().any(), indices, Any(nullptr));
    out.push_back(call("tirx.BufferStore", red.store.buffer().any(), combine(red.kind, dst, load_at(result, 0)),
                       indices, Any(nullptr)));
  }
  return out;
}

}  // namespace tl::cuda
