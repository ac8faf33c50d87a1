// The CPU lowering hooks: "tl.LowerTileOpsToLoops" (tile.copy / tile.fill / tile.gemm -> loop nests, guarded
// where an access may leave its buffer) and "tl.BlockIdxToSerial" (thread launches -> serial loops), the passes
// the CPU backends run instead of TileLang's GPU lowering.
//
// Nodes are built with the global functions TVMScript's operators call (prim._OpAdd for `+`, tirx.BufferLoad,
// node._const, ...), so the IR has the shape TVM's own lowering passes expect.
#include "engines.h"

#include <algorithm>

namespace tl {
namespace {

// ----------------------------------------------------------------------------- expressions (TVMScript operators)

Any op_add(const Any& a, const Any& b) { return call("prim._OpAdd", a, b, Any(nullptr)); }
Any op_mul(const Any& a, const Any& b) { return call("prim._OpMul", a, b, Any(nullptr)); }
Any op_lt(const Any& a, const Any& b) { return call("prim._OpLT", a, b, Any(nullptr)); }
Any op_le(const Any& a, const Any& b) { return call("prim._OpLE", a, b, Any(nullptr)); }
Any op_and(const Any& a, const Any& b) { return call("prim.And", a, b, Any(nullptr)); }

/*! \brief The dtype of a scalar expression. */
std::string dtype_of(const Any& expr) { return ir::PrimType(ir::Expr(expr).ty()).dtype(); }

/*! \brief The element dtype of a buffer (a Var whose BufferType holds a PrimType). */
std::string buffer_dtype(const Any& buf) { return ir::BufferType(ir::Var(buf).ty()).dtype().dtype(); }

std::vector<Any> to_vector(const Any& array) {
  std::vector<Any> out;
  for (const Any& x : as_list(array)) out.push_back(x);
  return out;
}

List to_list(const std::vector<Any>& items) {
  List out;
  for (const Any& x : items) out.push_back(x);
  return out;
}

bool is_unit(const Any& e) {
  auto imm = ir::IntImm::from(e);
  return imm && imm->value() == 1;
}

/*! \brief The value of an IntImm / FloatImm, else nothing. */
std::optional<double> const_value(const Any& e) {
  if (ir::FloatImm::matches(e) || ir::IntImm::matches(e)) return as_float(e);
  return std::nullopt;
}

Any cast_to(const Any& value, const std::string& dtype) {
  return dtype_of(value) == dtype ? value : cast(dtype, value);
}

/*! \brief tirx.const(0, dtype). */
Any zero(const std::string& dtype) { return make_const(Any(int64_t(0)), dtype.c_str()); }

/*! \brief conds[0] && conds[1] && ... (left-nested), or None for no condition. */
Any all_of(const std::vector<Any>& conds) {
  if (conds.empty()) return Any(nullptr);
  Any out = conds[0];
  for (size_t i = 1; i < conds.size(); ++i) out = op_and(out, conds[i]);
  return out;
}

using BodyFn = std::function<Any(const std::vector<Any>&)>;

/*! \brief Serial loops over `extents`, innermost last; loop vars take integer extents' dtypes (else int32). */
Any loop_nest(const std::vector<Any>& extents, const BodyFn& make_body, const std::string& names = "ijklmn") {
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
Analyzer range_analyzer(const Any& body) {
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

std::vector<Any> non_unit_extents(const ir::TensorRegion& region) {
  std::vector<Any> out;
  for (const Any& r : region.region()) {
    Any extent = ir::Range(r).extent();
    if (!is_unit(extent)) out.push_back(extent);
  }
  return out;
}

/*! \brief The extents of a region's last two dims (`unpack`: exactly two are needed, else a ValueError). */
std::vector<Any> last_two_extents(const ir::TensorRegion& region, bool unpack) {
  std::vector<Any> all;
  for (const Any& r : region.region()) all.push_back(ir::Range(r).extent());
  std::vector<Any> out(all.size() > 2 ? all.end() - 2 : all.begin(), all.end());
  if (unpack && out.size() != 2) {
    fail_tilelang("CPU lowering: T.gemm operand '" + region.source().name() + "' has " + std::to_string(out.size()) +
                  " dimension(s), expected at least 2");
  }
  return out;
}

// ------------------------------------------------------------------------------------------ tile op -> stmt

/*! \brief tile.copy(dst, src): a loop nest over the non-unit extents, casting to the dst dtype. */
Any lower_copy(const List& args, const Analyzer& analyzer) {
  ir::TensorRegion dst(args[0]), src(args[1]);
  std::vector<Any> exts = non_unit_extents(dst);
  Access d_acc(dst, exts.size(), analyzer), s_acc(src, exts.size(), analyzer);
  std::string dtype = buffer_dtype(dst.source());
  return loop_nest(exts, [&](const std::vector<Any>& lvs) { return d_acc.store(lvs, s_acc.load(lvs, dtype)); });
}

/*! \brief tile.fill(dst, value): a loop nest storing the value (cast to the dst dtype). */
Any lower_fill(const List& args, const Analyzer& analyzer) {
  ir::TensorRegion dst(args[0]);
  std::vector<Any> exts = non_unit_extents(dst);
  Access d_acc(dst, exts.size(), analyzer);
  Any value = cast_to(args[1], buffer_dtype(dst.source()));
  return loop_nest(exts, [&](const std::vector<Any>& lvs) { return d_acc.store(lvs, value); });
}

bool same_mins(const ir::TensorRegion& x, const ir::TensorRegion& y) {
  List a = x.region(), b = y.region();
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    Any a_min = ir::Range(a[i]).min(), b_min = ir::Range(b[i]).min();
    if (!call("ffi.StructuralEqual", a_min, b_min, false, false).cast<bool>()) return false;
  }
  return true;
}

/*! \brief tile.gemm(D, A, B, C, tA, tB, alpha, beta): D = alpha * op(A) @ op(B) + beta * C, loops i, k, j
 * (j innermost). The init loop is skipped in the accumulate case (beta == 1 and D is C). */
Any lower_gemm(const List& args, const Analyzer& analyzer) {
  ir::TensorRegion D(args[0]), A(args[1]), B(args[2]), C(args[3]);
  bool trans_a = as_int(args[4]) != 0, trans_b = as_int(args[5]) != 0;
  std::optional<double> alpha = const_value(args[6]), beta = const_value(args[7]);
  std::vector<Any> mn = last_two_extents(D, true);
  std::vector<Any> a_ext = last_two_extents(A, false);
  size_t k_pos = trans_a ? 0 : 1;
  if (k_pos >= a_ext.size()) {
    fail_tilelang("CPU lowering: T.gemm operand '" + A.source().name() + "' has " + std::to_string(a_ext.size()) +
                  " dimension(s), expected at least 2");
  }
  Any k_ext = a_ext[k_pos];
  std::string acc = buffer_dtype(D.source());
  Access d(D, 2, analyzer), a(A, 2, analyzer), b(B, 2, analyzer), c(C, 2, analyzer);

  auto update = [&](const Any& i, const Any& j, const Any& k) {
    Any prod = op_mul(a.load(trans_a ? std::vector<Any>{k, i} : std::vector<Any>{i, k}, acc),
                      b.load(trans_b ? std::vector<Any>{j, k} : std::vector<Any>{k, j}, acc));
    if (alpha != 1.0) prod = op_mul(cast_to(args[6], acc), prod);
    return d.store({i, j}, op_add(d.load({i, j}, acc, false), prod));
  };

  std::vector<Any> stmts;
  bool same_dc = D.source().same_as(C.source()) && same_mins(D, C);
  if (!(beta == 1.0 && same_dc)) {
    stmts.push_back(loop_nest(mn, [&](const std::vector<Any>& lvs) {
      if (beta == 0.0) return d.store(lvs, zero(acc));
      Any cval = c.load(lvs, acc);
      return d.store(lvs, beta == 1.0 ? cval : op_mul(cast_to(args[7], acc), cval));
    }));
  }
  stmts.push_back(loop_nest(
      {mn[0], k_ext},
      [&](const std::vector<Any>& ik) {
        return loop_nest({mn[1]}, [&](const std::vector<Any>& js) { return update(ik[0], js[0], ik[1]); }, "j");
      },
      "ik"));
  return stmts.size() > 1 ? seq_stmt(to_list(stmts)) : stmts[0];
}

/*! \brief One tile primitive call -> its loop nest (an unsupported op is a TileLangError). */
Any lower_tile_call(const ir::TilePrimitiveCall& tile_call, const Analyzer& analyzer) {
  std::string op = tile_call.op().name();
  List args = tile_call.args();
  if (op == "tirx.tile.copy") return lower_copy(args, analyzer);
  if (op == "tirx.tile.fill") return lower_fill(args, analyzer);
  if (op == "tirx.tile.gemm") return lower_gemm(args, analyzer);
  fail_tilelang("no loop lowering for tile primitive " + op +
                                 "; supported: tirx.tile.copy, tirx.tile.fill, tirx.tile.gemm");
}

/*! \brief A blockIdx / threadIdx launch -> `for var in range(extent)` reusing the launch variable. */
Any launch_to_loop(const ir::AttrStmt& stmt) {
  auto launch = launch_of(stmt);
  if (!launch) return stmt;
  std::string tag = launch->thread_tag();
  if (tag.rfind("blockIdx.", 0) != 0 && tag.rfind("threadIdx.", 0) != 0) return stmt;
  ir::Var v = launch->var();
  return for_loop(v, int_imm(0, dtype_of(v).c_str()), stmt.value(), 0, stmt.body());
}

}  // namespace

namespace hooks {

Any blockidx_to_serial() {
  return prim_func_pass("BlockIdxToSerial", [](const Any& func) {
    return with_body(func, map(ir::PrimFunc(func).body(), {ir::rewrite<ir::AttrStmt>(launch_to_loop)}, "post"));
  });
}

Any lower_tile_primitives() {
  return prim_func_pass("LowerTileOpsToLoops", [](const Any& func) {
    Any body = ir::PrimFunc(func).body();
    Analyzer analyzer = range_analyzer(body);
    auto lower = [analyzer](const ir::TilePrimitiveCall& tile_call) { return lower_tile_call(tile_call, analyzer); };
    return with_body(func, map(body, {ir::rewrite<ir::TilePrimitiveCall>(lower)}, "post"));
  });
}

}  // namespace hooks
}  // namespace tl
