# Copied unchanged from templates/runtime/tilelang/tenstorrent/ir.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/tenstorrent/ir.py and run `make generate`.
"""Small IR helpers shared by the Tenstorrent pass engines: attributes as Python values, buffers, calls."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import tvm
import tvm_ffi
from tvm import tirx
from tvm.tirx import is_buffer_var

from ..language._frontend import TileLangError
from . import intrinsics

TT_PREFIX = "tt."


@tvm_ffi.register_error
class TTLoweringError(TileLangError):
    """A kernel the Tenstorrent backend cannot lower; the message names the buffer/op and the limit."""


def to_py(value: Any) -> Any:
    """TVM attribute values (Map, Array, IntImm, String, ...) -> plain Python values."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tirx.IntImm):
        return bool(value.value) if str(value.ty.dtype) == "bool" else int(value.value)
    if isinstance(value, tirx.FloatImm):
        return float(value.value)
    if isinstance(value, tvm.ir.StringImm):
        return str(value.value)
    if hasattr(value, "items"):
        return {str(k): to_py(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "Array":
        return [to_py(v) for v in value]
    return str(value) if isinstance(value, tvm_ffi.core.String) else value


def get_attr(func: tirx.PrimFunc, key: str, default: Any = None) -> Any:
    attrs = func.attrs
    if attrs is None or key not in attrs:
        return default
    return to_py(attrs[key])


def with_attrs(func: tirx.PrimFunc, values: dict[str, Any]) -> tirx.PrimFunc:
    for key, value in values.items():
        func = func.with_attr(key, value)
    return func


@dataclass(frozen=True)
class BufferInfo:
    """What the passes know of one buffer (a TVM 0.27 buffer is a Var with a BufferType)."""

    var: Any
    name: str
    shape: tuple[int, ...]
    dtype: str
    scope: str
    index: int  # position among the function's tensor parameters (-1 for on-chip buffers)

    @property
    def on_chip(self) -> bool:
        return self.scope != "global"


def buffer_info(var: Any, index: int = -1) -> BufferInfo:
    shape = []
    for dim in var.ty.shape:
        if not isinstance(dim, tirx.IntImm):
            raise TTLoweringError(f"buffer '{var.name}' has a dynamic shape ({dim}); the tenstorrent backend needs "
                                  "static shapes")
        shape.append(int(dim.value))
    scope = str(var.ty.storage_scope) or "global"
    return BufferInfo(var, str(var.name), tuple(shape), str(var.ty.dtype), scope, index)


def tensor_params(func: tirx.PrimFunc) -> list[BufferInfo]:
    return [buffer_info(p, i) for i, p in enumerate(p for p in func.params if is_buffer_var(p))]


def onchip_buffers(func: tirx.PrimFunc) -> list[BufferInfo]:
    out: list[BufferInfo] = []
    tvm_ffi.structural_walk(func.body, [(tirx.AllocBuffer, lambda s: out.append(buffer_info(s.buffer)))])
    names = [b.name for b in out]
    for name in names:
        if names.count(name) > 1:
            raise TTLoweringError(f"two on-chip buffers are named '{name}'; CB descriptors are keyed by buffer name")
    return out


def intrinsic_of(expr: Any) -> intrinsics.Intrinsic | None:
    """The intrinsic record a call expression invokes, or None for any other expression."""
    if isinstance(expr, tvm.ir.Call) and isinstance(expr.op, tvm.ir.Op):
        name = str(expr.op.name)
        if name.startswith(TT_PREFIX):
            return intrinsics.INTRINSICS.get(name[len(TT_PREFIX):])
    return None


def tt_calls(stmt: Any) -> Iterator[tuple[intrinsics.Intrinsic, Any]]:
    found: list[tuple[intrinsics.Intrinsic, Any]] = []

    def visit(call: Any) -> None:
        record = intrinsic_of(call)
        if record is not None:
            found.append((record, call))

    tvm_ffi.structural_walk(stmt, [(tvm.ir.Call, visit)])
    yield from found


def named_args(record: intrinsics.Intrinsic, call: Any) -> dict[str, Any]:
    """Call arguments by the intrinsic's argument names (constants as Python values)."""
    out = {}
    for arg, value in zip(record.args, call.args, strict=True):
        if isinstance(value, (tirx.IntImm, tirx.FloatImm, tvm.ir.StringImm)):
            value = to_py(value)
        out[arg.name] = value
    return out


def map_evaluates(stmt: Any, rewrite: Callable[[Any], Any]) -> Any:
    """Rewrite every Evaluate statement (post-order); `rewrite` returns a replacement statement or None."""

    def visit(ev: Any) -> Any:
        new = rewrite(ev)
        return ev if new is None else new

    return tvm_ffi.structural_map(stmt, (tirx.Evaluate, visit), order="post")


def seq(stmts: list[Any]) -> Any:
    from .builder import seq as _seq

    return _seq(stmts)


def flatten(stmt: Any) -> list[Any]:
    return list(stmt.seq) if isinstance(stmt, tirx.SeqStmt) else [stmt]
