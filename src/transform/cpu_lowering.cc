// The CPU lowering hooks: "tl.LowerTileOpsToLoops" (tile.copy / tile.fill / tile.gemm here, the reductions, cumsum,
// atomic_add and im2col in cpu_tile_ops.cc -> loop nests, guarded
// where an access may leave its buffer) and "tl.BlockIdxToSerial" (thread launches -> serial loops), the passes
// the CPU backends run instead of TileLang's GPU lowering.
//
// Nodes are built with the global functions TVMScript's operators call (prim._OpAdd for `+`, tirx.BufferLoad,
// node._const, ...), so the IR has the shape TVM's own lowering passes expect.
#include "cpu_loops.h"

namespace tl {
namespace cpu {
// cpu_tile_ops.cc: T.atomic_add as CUDA's atomicAdd (only this pass calls it).
Any lower_atomic_add_cuda(const ir::TilePrimitiveCall& call, const Analyzer& analyzer);
}  // namespace cpu
namespace {

using namespace cpu;  // NOLINT(build/namespaces)

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
Any lower_tile_call(const ir::TilePrimitiveCall& tile_call, const Analyzer& analyzer, bool device_atomics) {
  std::string op = tile_call.op().name();
  List args = tile_call.args();
  if (op == "tirx.tile.copy") return lower_copy(args, analyzer);
  if (op == "tirx.tile.fill") return lower_fill(args, analyzer);
  if (op == "tirx.tile.gemm") return lower_gemm(args, analyzer);
  if (op == "tirx.tile.sum" || op == "tirx.tile.max" || op == "tirx.tile.min") return lower_reduce(tile_call, analyzer);
  if (op == "tl.tile.cumsum") return lower_cumsum(tile_call, analyzer);
  if (op == "tl.tile.transpose") return lower_transpose(tile_call, analyzer);
  if (op == "tl.tile.atomic_add") {
    return device_atomics ? lower_atomic_add_cuda(tile_call, analyzer) : lower_atomic_add(tile_call, analyzer);
  }
  if (op == "tl.tile.im2col") return lower_im2col(tile_call, analyzer);
  fail_tilelang("no loop lowering for tile primitive " + op + "; supported: tirx.tile.copy, fill, gemm, sum, max, "
                "min, tl.tile.cumsum, tl.tile.transpose, tl.tile.atomic_add, tl.tile.im2col");
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
    body = guard_global_accesses(func, body, analyzer);
    // CUDA (kDLCUDA, 2): blocks and threads run in parallel, so T.atomic_add is CUDA's atomicAdd
    Any target = get_attr(func, "target");
    bool device_atomics = !is_none(target) && call("target.TargetGetDeviceType", target).cast<int64_t>() == 2;
    auto lower = [analyzer, device_atomics](const ir::TilePrimitiveCall& tile_call) {
      return lower_tile_call(tile_call, analyzer, device_atomics);
    };
    return with_body(func, map(body, {ir::rewrite<ir::TilePrimitiveCall>(lower)}, "post"));
  });
}

}  // namespace hooks
}  // namespace tl
