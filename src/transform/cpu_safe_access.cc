// TileLang's LegalizeSafeMemoryAccess for the loop-based backends (part of the "tl.LowerTileOpsToLoops" hook,
// cpu_lowering.cc): an element access the kernel writes itself (`B[by * block_M + i, j] = ...` in a T.Parallel or
// T.serial loop) on a global tensor, at an index the range analyzer cannot prove inside the tensor, is guarded: the
// store runs under `if index < extent` (and `0 <= index` where that is not proven either), the load reads 0 outside.
// TileLang's examples rely on this for grids that overhang their tensor (`T.ceildiv(M, block_M)` blocks over a
// ragged M); unguarded, the last block would read and write past the tensor's memory. The tile primitives' own
// accesses are guarded by their lowering (cpu_loops.h `Access`), which runs after this.
#include "cpu_loops.h"

namespace tl {
namespace cpu {
namespace {

inline Any op_ge(const Any& a, const Any& b) { return call("prim._OpGE", a, b, Any(nullptr)); }

/*! \brief The global tensors of a function: its buffer parameters in global (DRAM) scope. */
std::vector<Any> global_tensors(const ir::PrimFunc& func) {
  std::vector<Any> out;
  for (const Any& p : func.params()) {
    auto type = ir::BufferType::from(Any(ir::Var(p).ty()));
    if (!ir::Var::matches(p) || !type) continue;
    std::string scope = type->storage_scope();
    if (scope.empty() || scope == "global") out.push_back(p);
  }
  return out;
}

/*! \brief The condition under which `indices` lie inside `buf`, leaving out what the analyzer proves; None when
 * everything is proven. */
Any in_bounds(const Any& buf, const List& indices, const Analyzer& analyzer) {
  std::vector<Any> shape = to_vector(ir::BufferType(ir::Var(buf).ty()).shape());
  std::vector<Any> conds;
  for (size_t d = 0; d < indices.size() && d < shape.size(); ++d) {
    Any idx = indices[d];
    Any lower = op_ge(idx, zero(dtype_of(idx)));
    if (!analyzer.can_prove(lower)) conds.push_back(lower);
    Any upper = op_lt(idx, shape[d]);
    if (!analyzer.can_prove(upper)) conds.push_back(upper);
  }
  return all_of(conds);
}

}  // namespace

Any guard_global_accesses(const Any& func, const Any& body, const Analyzer& analyzer) {
  std::vector<Any> globals = global_tensors(ir::PrimFunc(func));
  if (globals.empty()) return body;
  auto is_global = [&globals](const Any& buf) {
    return std::any_of(globals.begin(), globals.end(), [&buf](const Any& g) { return g.same_as(buf); });
  };
  return map(body,
             {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                if (!is_global(load.source())) return load.any();
                Any cond = in_bounds(load.source(), load.indices(), analyzer);
                if (is_none(cond)) return load.any();
                return call("prim._OpIfThenElse", cond, load.any(), zero(buffer_dtype(load.source())), Any(nullptr));
              }),
              ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                if (!is_global(store.buffer())) return store.any();
                Any cond = in_bounds(store.buffer(), store.indices(), analyzer);
                return is_none(cond) ? store.any() : if_then_else(cond, store.any());
              })},
             "post");
}

}  // namespace cpu
}  // namespace tl
