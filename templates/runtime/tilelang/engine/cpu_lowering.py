"""CPU lowering of TileLang kernels (apache-tvm 0.27): tile operations -> loops, thread blocks -> serial loops.

* `lower_tile_primitives` (pass "tl.LowerTileOpsToLoops") rewrites every `tirx.TilePrimitiveCall`
  (`tile.copy`, `tile.fill`, `tile.gemm`) into plain loop nests. It is target independent (llvm, c, and cuda with one
  thread per block). Accesses that may leave their buffer -- a partial tile at the edge of a global buffer whose shape
  is not a multiple of the block -- are guarded: out-of-bounds loads read 0, out-of-bounds stores are skipped
  (TileLang's safe-memory-access semantics).
* `blockidx_to_serial` (pass "tl.BlockIdxToSerial") turns `launch_thread` (`thread_extent` AttrStmts on blockIdx /
  threadIdx) into serial loops; CPU targets have no thread launch (llvm fails with "Unknown device id" otherwise).
* `host_llvm_target()`: llvm for this CPU (generic x86-64 lacks F16C: fp16 casts become libcalls, ~35x slower).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import tvm
import tvm_ffi
from tvm import tirx
from tvm.ir import Range
from tvm.sym import Analyzer
from tvm.tirx import FloatImm, ForKind, IntImm
from tvm.tirx.tile_primitive import TilePrimitiveCall

from ..language._frontend import TileLangError

Expr = Any  # tvm PrimExpr
Stmt = Any  # tvm tirx Stmt

# ------------------------------------------------------------------------------------------------ helpers


def _is_unit(e: Expr) -> bool:
    return isinstance(e, IntImm) and int(e.value) == 1


def _const_value(e: Expr) -> float | None:
    return float(e.value) if isinstance(e, (FloatImm, IntImm)) else None


def _cast(value: Expr, dtype: str) -> Expr:
    return value if str(value.ty.dtype) == dtype else tirx.Cast(dtype, value)


def _loop_nest(extents: Sequence[Expr], make_body: Callable[[list[Expr]], Stmt], names: str = "ijklmn") -> Stmt:
    """`for v0 in range(e0): for v1 in range(e1): ... make_body([v0, v1, ...])` (serial loops)."""
    loop_vars = []
    for d, ext in enumerate(extents):
        dtype = str(ext.ty.dtype) if hasattr(ext, "ty") and str(ext.ty.dtype).startswith("int") else "int32"
        loop_vars.append(tirx.Var(names[d] if d < len(names) else f"i{d}", dtype))
    body = make_body(loop_vars)
    for v, ext in reversed(list(zip(loop_vars, extents, strict=True))):
        body = tirx.For(v, IntImm(v.ty.dtype, 0), ext, ForKind.SERIAL, body)
    return body


def _all(conds: Sequence[Expr]) -> Expr | None:
    if not conds:
        return None
    out = conds[0]
    for c in conds[1:]:
        out = tirx.And(out, c)
    return out


class _Access:
    """Element accesses of one region, driven by loop variables mapped onto its non-unit axes (right-aligned).

    Dims where `min + extent <= shape` cannot be proven (with the ranges of the enclosing loops and thread blocks)
    are guarded.
    """

    def __init__(self, region: Any, n_axes: int, analyzer: Analyzer) -> None:
        self.buf = region.source
        self.mins = [r.min for r in region.region]
        self.shape = list(self.buf.ty.shape)
        axes = [d for d, r in enumerate(region.region) if not _is_unit(r.extent)]
        if len(axes) < n_axes:
            raise TileLangError(f"CPU lowering: region of '{self.buf.name}' has {len(axes)} non-unit dims, "
                                f"expected {n_axes}")
        self.axes = axes[len(axes) - n_axes:] if n_axes else []
        self.unsafe = [d for d, r in enumerate(region.region)
                       if not analyzer.can_prove(r.min + r.extent <= self.shape[d])]

    def indices(self, loop_vars: Sequence[Expr]) -> list[Expr]:
        idx = list(self.mins)
        for d, v in zip(self.axes, loop_vars, strict=True):
            idx[d] = self.mins[d] + v
        return idx

    def condition(self, idx: Sequence[Expr]) -> Expr | None:
        return _all([idx[d] < self.shape[d] for d in self.unsafe])

    def load(self, loop_vars: Sequence[Expr], dtype: str, guard: bool = True) -> Expr:
        idx = self.indices(loop_vars)
        value = _cast(tirx.BufferLoad(self.buf, idx), dtype)
        cond = self.condition(idx) if guard else None
        return value if cond is None else tirx.if_then_else(cond, value, tirx.const(0, dtype))

    def store(self, loop_vars: Sequence[Expr], value: Expr) -> Stmt:
        idx = self.indices(loop_vars)
        stmt = tirx.BufferStore(self.buf, _cast(value, str(self.buf.dtype)), idx)
        cond = self.condition(idx)
        return stmt if cond is None else tirx.IfThenElse(cond, stmt, None)


def _non_unit_extents(region: Any) -> list[Expr]:
    return [r.extent for r in region.region if not _is_unit(r.extent)]


# ------------------------------------------------------------------------------------------ tile op -> stmt


def lower_copy(call: Any, analyzer: Analyzer) -> Stmt:
    """tile.copy(dst, src): a loop nest over the non-unit extents, casting to the dst dtype."""
    dst, src = call.args[0], call.args[1]
    exts = _non_unit_extents(dst)
    d_acc, s_acc = _Access(dst, len(exts), analyzer), _Access(src, len(exts), analyzer)
    dtype = str(dst.source.dtype)
    return _loop_nest(exts, lambda lvs: d_acc.store(lvs, s_acc.load(lvs, dtype)))


def lower_fill(call: Any, analyzer: Analyzer) -> Stmt:
    """tile.fill(dst, value): a loop nest storing the value (cast to the dst dtype)."""
    dst, value = call.args[0], call.args[1]
    exts = _non_unit_extents(dst)
    d_acc = _Access(dst, len(exts), analyzer)
    value = _cast(value, str(dst.source.dtype))
    return _loop_nest(exts, lambda lvs: d_acc.store(lvs, value))


def lower_gemm(call: Any, analyzer: Analyzer) -> Stmt:
    """tile.gemm(D, A, B, C, tA, tB, alpha, beta): D = alpha * op(A) @ op(B) + beta * C, loops i, k, j (j innermost).

    The init loop is skipped in the TileLang accumulate case (beta == 1 and D is C).
    """
    D, A, B, C = call.args[0:4]  # noqa: N806
    trans_a, trans_b = bool(call.args[4]), bool(call.args[5])
    alpha, beta = _const_value(call.args[6]), _const_value(call.args[7])
    m, n = [r.extent for r in D.region][-2:]
    a_ext = [r.extent for r in A.region][-2:]
    k_ext = a_ext[0] if trans_a else a_ext[1]
    acc = str(D.source.dtype)
    d, a, b, c = (_Access(r, 2, analyzer) for r in (D, A, B, C))

    def update(i: Expr, j: Expr, k: Expr) -> Stmt:
        prod = a.load([k, i] if trans_a else [i, k], acc) * b.load([j, k] if trans_b else [k, j], acc)
        if alpha != 1.0:
            prod = _cast(call.args[6], acc) * prod
        return d.store([i, j], d.load([i, j], acc, guard=False) + prod)

    stmts = []
    same_dc = D.source.same_as(C.source) and all(
        tvm_ffi.structural_equal(x.min, y.min) for x, y in zip(D.region, C.region, strict=False))
    if not (beta == 1.0 and same_dc):

        def init(lvs: list[Expr]) -> Stmt:
            if beta == 0.0:
                return d.store(lvs, tirx.const(0, acc))
            cval = c.load(lvs, acc)
            return d.store(lvs, cval if beta == 1.0 else _cast(call.args[7], acc) * cval)

        stmts.append(_loop_nest([m, n], init))
    stmts.append(_loop_nest([m, k_ext], lambda ik: _loop_nest([n], lambda js: update(ik[0], js[0], ik[1]), "j"),
                            names="ik"))
    return tirx.SeqStmt(stmts) if len(stmts) > 1 else stmts[0]


LOWERINGS: dict[str, Callable[[Any, Analyzer], Stmt]] = {
    "tirx.tile.copy": lower_copy,
    "tirx.tile.fill": lower_fill,
    "tirx.tile.gemm": lower_gemm,
}


# ------------------------------------------------------------------------------------------------ passes


def _range_analyzer(body: Stmt) -> Analyzer:
    """An analyzer knowing the range of every loop variable and thread-block variable of `body`."""
    ranges: dict[Any, list[tuple[Expr, Expr]]] = {}

    def on_for(loop: Any) -> None:
        ranges.setdefault(loop.loop_var, []).append((loop.min, loop.extent))

    def on_attr(stmt: Any) -> None:
        if stmt.attr_key == "thread_extent" and isinstance(stmt.node, tirx.IterVar):
            var = stmt.node.var
            ranges.setdefault(var, []).append((IntImm(var.ty.dtype, 0), stmt.value))

    tvm_ffi.structural_walk(body, [(tirx.For, on_for), (tirx.AttrStmt, on_attr)])
    analyzer = Analyzer()
    for var, found in ranges.items():
        first = found[0]
        if all(tvm_ffi.structural_equal(r, first) for r in found):  # a var reused with other ranges stays unbound
            analyzer.bind(var, Range.from_min_extent(*first))
    return analyzer


@tirx.transform.prim_func_pass(opt_level=0, name="tl.LowerTileOpsToLoops")
def lower_tile_primitives(func: Any, mod: Any, ctx: Any) -> Any:
    """Rewrite every tile.copy / tile.fill / tile.gemm of the function into loop nests (with bounds guards)."""
    analyzer = _range_analyzer(func.body)

    def lower(call: Any) -> Stmt:
        fn = LOWERINGS.get(call.op.name)
        if fn is None:
            raise TileLangError(f"no loop lowering for tile primitive {call.op.name}; supported: "
                                f"{', '.join(sorted(LOWERINGS))}")
        return fn(TilePrimitiveCall.downcast(call), analyzer)

    return func.with_body(tvm_ffi.structural_map(func.body, (tirx.TilePrimitiveCall, lower), order="post"))


def _launch_to_loop(stmt: Any) -> Any:
    if stmt.attr_key == "thread_extent" and isinstance(stmt.node, tirx.IterVar):
        iv = stmt.node
        if str(iv.thread_tag).startswith(("blockIdx.", "threadIdx.")):
            return tirx.For(iv.var, IntImm(iv.var.ty.dtype, 0), stmt.value, ForKind.SERIAL, stmt.body)
    return stmt


@tirx.transform.prim_func_pass(opt_level=0, name="tl.BlockIdxToSerial")
def blockidx_to_serial(func: Any, mod: Any, ctx: Any) -> Any:
    """`launch_thread("blockIdx.x", n)` (and threadIdx) -> `for bx in range(n)`, reusing the same variable."""
    return func.with_body(tvm_ffi.structural_map(func.body, (tirx.AttrStmt, _launch_to_loop), order="post"))


def lower_to_cpu_loops(mod: Any) -> Any:
    """PrimFunc or IRModule -> IRModule of plain loops, ready for `tvm.compile` on llvm or c."""
    if isinstance(mod, tirx.PrimFunc):
        mod = tvm.IRModule({"main": mod})
    return tvm.transform.Sequential([lower_tile_primitives, blockidx_to_serial])(mod)


@functools.lru_cache(maxsize=1)
def host_llvm_target() -> Any:
    """llvm target for this CPU; `mcpu="native"` is silently replaced by generic with this wheel, so ask LLVM."""
    from tvm.target import codegen

    return tvm.target.Target({"kind": "llvm", "mcpu": codegen.llvm_get_system_cpu()})
