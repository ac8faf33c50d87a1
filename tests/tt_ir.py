"""Helpers of the Tenstorrent pipeline tests: run the passes up to a stage, list the tt.* calls of a kernel."""

from __future__ import annotations

from typing import Any

import tvm
import tvm_ffi
from tt_kernels import matmul
from tvm import tirx

from tilelang import transform
from tilelang.engine import pipelines
from tilelang.engine.registry import BACKENDS
from tilelang.tenstorrent.lowered import intrinsic_of

STEPS = pipelines.PIPELINE_STEPS["optimize_tenstorrent"]
TARGET = BACKENDS["tenstorrent"].make_target(None)


def run_until(func: Any, last: str | None, **options: Any) -> tvm.IRModule:
    """Legalize, then run the Tenstorrent passes up to and including `last` (None: legalize only)."""
    mod = tvm.IRModule({"main": func})
    with TARGET:
        mod = pipelines.lower_and_legalize_tt(mod, TARGET)
        for name in STEPS:
            if last is None:
                break
            mod = getattr(transform, name)(**options.get(name, {}))(mod)
            if name == last:
                break
    return mod


def gemm(dtype: str = "bfloat16", accum: str = "float") -> Any:
    return matmul(256, 256, 256, 128, 128, 32, dtype=dtype, accum_dtype=accum)


def tt_calls(stmt: Any) -> list[tuple[Any, Any]]:
    """(intrinsic record, call) of every tt.* call in `stmt`, in order."""
    found: list[tuple[Any, Any]] = []

    def visit(call: Any) -> None:
        record = intrinsic_of(call)
        if record is not None:
            found.append((record, call))

    tvm_ffi.structural_walk(stmt, [(tvm.ir.Call, visit)])
    return found


def calls(func: Any) -> list[str]:
    return [record.name for record, _ in tt_calls(func.body)]


def const(expr: Any, values: dict[str, int]) -> int:
    """Evaluate an index expression for the given values of its free variables."""
    free = tirx.analysis.undefined_vars(tirx.Evaluate(expr), [])
    vmap = [(v, tirx.const(values[str(v.name)], "int32")) for v in free]

    def swap(v: Any) -> Any:
        return next((c for var, c in vmap if v.same_as(var)), v)

    result = tvm.sym.Analyzer().simplify(tvm_ffi.structural_map(expr, (tvm.ir.Var, swap)))
    return int(result.value)
