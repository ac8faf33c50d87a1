"""Fixes of TVM 0.27's TVMScript parser that TileLang kernels need, applied when `tilelang.language` is imported."""

from __future__ import annotations

import contextlib
import inspect
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import tvm
from tvm import tirx
from tvm.runtime import DataTypeCode
from tvm.script.parser._core import doc
from tvm.script.parser.core.dispatch import OpVTable
from tvm.tirx.script.parser import entry as _tirx_entry


def _coerce_literal_comparisons() -> None:
    """`x > 0` with a bf16 (or another non-IEEE float) `x` fails in TVM 0.27's script parser ("'int' object has no
    attribute 'expr_ty'"): its operand promotion makes a Python number a FloatImm only for the FLOAT type code, not
    BFLOAT or the float8/float4 codes. The comparison handlers are wrapped to give the number the other operand's
    dtype first, as TVM does for float32."""
    def floating_non_ieee(expr: Any) -> str | None:
        ty = getattr(expr, "ty", None) if tvm.ir.is_prim_expr(expr) else None
        if ty is None or not hasattr(ty, "matches_code") or ty.matches_code(DataTypeCode.FLOAT):
            return None
        dtype = str(ty.dtype)
        return dtype if dtype.startswith(("bfloat", "float")) else None

    def boolean(expr: Any) -> bool:
        return tvm.ir.is_prim_expr(expr) and str(getattr(getattr(expr, "ty", None), "dtype", "")) == "bool"

    def wrap(method: Callable[[Any, Any], Any], equality: bool) -> Callable[[Any, Any], Any]:
        def compare(a: Any, b: Any) -> Any:
            if equality and (boolean(a) or boolean(b)):
                # `mask[k] != 0` with a bool `mask`: TVM 0.27's LLVM codegen compares bools as floats (`fcmp one
                # i1`, which LLVM rejects), so a bool operand is compared as an int8 (0 or 1), as C compares it
                a = tirx.Cast("int8", a) if boolean(a) else int(a) if isinstance(a, bool) else a
                b = tirx.Cast("int8", b) if boolean(b) else int(b) if isinstance(b, bool) else b
            if isinstance(a, (int, float)) and not isinstance(a, bool) and (dtype := floating_non_ieee(b)):
                a = tirx.FloatImm(dtype, float(a))
            elif isinstance(b, (int, float)) and not isinstance(b, bool) and (dtype := floating_non_ieee(a)):
                b = tirx.FloatImm(dtype, float(b))
            return method(a, b)
        return compare

    for ty in (tirx.Expr, tirx.IterVar):
        for op in (doc.Eq, doc.NotEq, doc.Lt, doc.LtE, doc.Gt, doc.GtE):
            for index in (0, 1):
                method = OpVTable.get((ty, op, index))
                if method is not None and not getattr(method, "_tilelang_coerced", False):
                    wrapped = wrap(method, op in (doc.Eq, doc.NotEq))
                    wrapped._tilelang_coerced = True  # type: ignore[attr-defined]
                    OpVTable[(ty, op, index)] = wrapped


_coerce_literal_comparisons()


def _frames_without_source(context: int = 1) -> list[inspect.FrameInfo]:
    """The caller's frames as `inspect.stack()` lists them, without their source lines (`code_context` None)."""
    frames = []
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        frames.append(inspect.FrameInfo(frame, code.co_filename, frame.f_lineno, code.co_name, None, None))
        frame = frame.f_back
    return frames


class _InspectWithoutSource(types.ModuleType):
    """`inspect`, but `stack()` lists frames without their source lines."""

    stack = staticmethod(_frames_without_source)

    def __getattr__(self, name: str) -> Any:
        return getattr(inspect, name)


_INSPECT_WITHOUT_SOURCE = _InspectWithoutSource("inspect")


@contextlib.contextmanager
def light_parser_stack() -> Iterator[None]:
    """While a kernel is parsed through `tilelang.language.prim_func`, TVM's `prim_func` takes `inspect.stack()`, which
    looks up every frame's source file and line: ~0.015-0.03 CPU-s at a test's stack depth, a third of parsing a small
    kernel. It reads the frames only for their locals (closure variables named in postponed annotations) and for the
    source line two frames up (a `class` under `@I.ir_module`), which under this wrapper is always this package's
    parse call, never a class. So frames without source lines give the same parse."""
    saved = _tirx_entry.inspect
    _tirx_entry.inspect = _INSPECT_WITHOUT_SOURCE
    try:
        yield
    finally:
        _tirx_entry.inspect = saved
