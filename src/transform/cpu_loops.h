// Helpers shared by the CPU lowering engines (cpu_lowering.cc: copy/fill/gemm and the hooks; cpu_tile_ops.cc:
// reductions, cumsum, atomic_add): TVMScript operators, loop nests, the range analyzer and guarded region accesses.
#pragma once

#include "engines.h"

#include <algorithm>
#include <functional>
#include <optional>

namespace tl {
namespace cpu {

// ----------------------------------------------------------------------------- expressions (TVMScript operators)

inline Any op_add(const Any& a, const Any& b) { return call("prim._OpAdd", a, b, Any(nullptr)); }
inline Any op_mul(const Any& a, const Any& b) { return call("prim._OpMul", a, b, Any(nullptr)); }
inline Any op_lt(const Any& a, const Any& b) { return call("prim._OpLT", a, b, Any(nullptr)); }
inline Any op_le(const Any& a, const Any& b) { return call("prim._OpLE", a, b, Any(nullptr)); }
inline Any op_and(const Any& a, const Any& b) { return call("prim.And", a, b, Any(nullptr)); }

/*! \brief The dtype of a scalar expression. */
inline std::string dtype_of(const Any& expr) { return ir::PrimType(ir::Expr(expr).ty()).dtype(); }

/*! \brief The element dtype of a buffer (a Var whose BufferType holds a PrimType). */
inline std::string buffer_dtype(const Any& buf) { return ir::BufferType(ir::Var(buf).ty()).dtype().dtype(); }

inline std::vector<Any> to_vector(const Any& array) {
  std::vector<Any> out;
  for (const Any& x : as_list(array)) out.push_back(x);
  return out;
}

inline List to_list(const std::vector<Any>& items) {
  List out;
  for (const Any& x : items) out.push_back(x);
  return out;
}

inline bool is_unit(const Any& e) {
  auto imm = ir::IntImm::from(e);
  return imm && imm->value() == 1;
}

/*! \brief The value of an IntImm / FloatImm, else nothing. */
inline std::optional<double> const_value(const Any& e) {
  if (ir::FloatImm::matches(e) || ir::IntImm::matches(e)) return as_float(e);
  return std::nullopt;
}

inline Any cast_to(const Any& value, const std::string& dtype) {
  return dtype_of(value) == dtype ? value : cast(dtype, value);
}

/*! \brief tirx.const(0, dtype). */
inline Any zero(const std::string& dtype) { return make_const(Any(int64_t(0)), dtype.c_str()); }

/*! \brief conds[0] && conds[1] && ... (left-nested), or None for no condition. */
inline Any all_of(const std::vector<Any>& conds) {
  if (conds.empty()) return Any(nullptr);
  Any out = conds[0];
  for (size_t i = 1; i < conds.size(); ++i) out = op_and(out, conds[i]);
  return out;
}

using BodyFn = std::function<Any(const std::vector<Any>&)>;

/*! \brief Serial loops over `extents`, innermost last; loop vars take integer extents' dtypes (else int32). */
inline Any loop_nest(const std::vector<Any>& extents, const BodyFn& make_body, const std::string& names = "ijklmn") {
  std::vector<Any> loop_vars;
  for (size_t d = 0; d < extents.size(); ++d) {
    std::string ext_dtype = dtype_of(extents[d]);
    std::string dtype = ext_dtype.rfind("int", 0) == 0 ? ext_dtype : "int32";
    std::string name = d < names.size() ? std::string(1, names[d]) : "i" + std::to_string(d);
    loop_vars.push_back(var(name, dtype));
  }
  Any body = make_body(loop_vars);
  for (size_t d = extents.size(); d-- > 0;) {
    std::string dtype = dtype_of(loop_vars[d]);
    body = for_loop(loop_vars[d], int_imm(0, dtype.c_str()), extents[d], 0, body);
  }
  return body;
}

// ------------------------------------------------------------------------------------------------ analyzer

struct Analyzer {
  Any handle = call("sym.Analyzer");
  bool can_prove(const Any& expr) const { return call("sym.AnalyzerCanProve", handle, expr, 0).cast<bool>(); }
  void bind(const Any& v, const Any& range) const { call("sym.AnalyzerBind", handle, v, range, false); }
};

/*! \brief An analyzer knowing the range of every loop variable and thread-block variable of `body`; a variable
 * found with different ranges stays unbound. Bound in first-seen (walk) order. */
inline Analyzer range_analyzer(const Any& body) {
  std::vector<std::pair<Any, std::vector<std::pair<Any, Any>>>> ranges;
  auto add = [&ranges](const Any& v, const Any& min, const Any& extent) {
    auto it = std::find_if(ranges.begin(), ranges.end(), [&v](const auto& e) { return e.first.same_as(v); });
    if (it == ranges.end()) it = ranges.insert(ranges.end(), {v, {}});
    it->second.emplace_back(min, extent);
  };
  walk(body, {
                 ir::visit<ir::For>([&add](const ir::For& loop) { add(loop.loop_var(), loop.min(), loop.extent()); }),
                 ir::visit<ir::AttrStmt>([&add](const ir::AttrStmt& stmt) {
                   auto launch = launch_of(stmt);
                   if (!launch) return;
                   ir::Var v = launch->var();
                   add(v, int_imm(0, dtype_of(v).c_str()), stmt.value());
                 }),
             });
  Analyzer analyzer;
  for (const auto& [v, found] : ranges) {
    auto equal = [](const Any& a, const Any& b) { return call("ffi.StructuralEqual", a, b, false, false).cast<bool>(); };
    bool same = std::all_of(found.begin(), found.end(), [&](const auto& r) {
      return equal(r.first, found[0].first) && equal(r.second, found[0].second);
    });
    if (same) analyzer.bind(v, call("ir.Range_from_min_extent", found[0].first, found[0].second, Any(nullptr)));
  }
  return analyzer;
}

// --------------------------------------------------------------------------------------------- region access

/*! \brief Element accesses of one region, driven by loop variables mapped onto its non-unit axes (right-aligned);
 * dims where `min + extent <= shape` cannot be proven are guarded. */
struct Access {
  Any buf;
  std::vector<Any> mins, shape;
  std::vector<size_t> axes, unsafe;

  Access(const ir::TensorRegion& region, size_t n_axes, const Analyzer& analyzer) : buf(region.source()) {
    std::vector<ir::Range> ranges;
    for (const Any& r : region.region()) ranges.emplace_back(r);
    shape = to_vector(ir::BufferType(ir::Var(buf).ty()).shape());
    std::vector<size_t> non_unit;
    for (size_t d = 0; d < ranges.size(); ++d) {
      mins.push_back(ranges[d].min());
      if (!is_unit(ranges[d].extent())) non_unit.push_back(d);
    }
    if (non_unit.size() < n_axes) {
      fail_tilelang("CPU lowering: region of '" + ir::Var(buf).name() + "' has " + std::to_string(non_unit.size()) +
                    " non-unit dims, expected " + std::to_string(n_axes));
    }
    axes.assign(non_unit.end() - n_axes, non_unit.end());
    for (size_t d = 0; d < ranges.size(); ++d) {
      Any end = op_add(ranges[d].min(), ranges[d].extent());
      if (!analyzer.can_prove(op_le(end, shape.at(d)))) unsafe.push_back(d);
    }
  }

  std::vector<Any> indices(const std::vector<Any>& loop_vars) const {
    std::vector<Any> idx = mins;
    for (size_t i = 0; i < axes.size(); ++i) idx[axes[i]] = op_add(mins[axes[i]], loop_vars.at(i));
    return idx;
  }

  Any condition(const std::vector<Any>& idx) const {
    std::vector<Any> conds;
    for (size_t d : unsafe) conds.push_back(op_lt(idx[d], shape[d]));
    return all_of(conds);
  }

  /*! \brief The element cast to `dtype`; out-of-bounds reads give 0 when guarded. */
  Any load(const std::vector<Any>& loop_vars, const std::string& dtype, bool guard = true) const {
    std::vector<Any> idx = indices(loop_vars);
    Any value = cast_to(call("tirx.BufferLoad", buf, to_list(idx), Any(nullptr)), dtype);
    Any cond = guard ? condition(idx) : Any(nullptr);
    if (is_none(cond)) return value;
    return call("prim._OpIfThenElse", cond, value, zero(dtype), Any(nullptr));
  }

  /*! \brief Store `value` (cast to the buffer dtype); out-of-bounds stores are skipped. */
  Any store(const std::vector<Any>& loop_vars, const Any& value) const {
    std::vector<Any> idx = indices(loop_vars);
    Any stmt = call("tirx.BufferStore", buf, cast_to(value, buffer_dtype(buf)), to_list(idx), Any(nullptr));
    Any cond = condition(idx);
    return is_none(cond) ? stmt : if_then_else(cond, stmt);
  }
};

inline std::vector<Any> non_unit_extents(const ir::TensorRegion& region) {
  std::vector<Any> out;
  for (const Any& r : region.region()) {
    Any extent = ir::Range(r).extent();
    if (!is_unit(extent)) out.push_back(extent);
  }
  return out;
}

// The tile primitives of cpu_tile_ops.cc (tirx.tile.sum/max/min, tl.tile.cumsum/transpose/atomic_add/im2col).
Any lower_reduce(const ir::TilePrimitiveCall& call, const Analyzer& analyzer);
Any lower_cumsum(const ir::TilePrimitiveCall& call, const Analyzer& analyzer);
Any lower_transpose(const ir::TilePrimitiveCall& call, const Analyzer& analyzer);
Any lower_atomic_add(const ir::TilePrimitiveCall& call, const Analyzer& analyzer);
Any lower_im2col(const ir::TilePrimitiveCall& call, const Analyzer& analyzer);

/*! \brief The element accesses `body` makes itself on `func`'s global tensors, guarded where the analyzer cannot
 * prove them in bounds (cpu_safe_access.cc: TileLang's LegalizeSafeMemoryAccess). */
Any guard_global_accesses(const Any& func, const Any& body, const Analyzer& analyzer);

}  // namespace cpu
}  // namespace tl
