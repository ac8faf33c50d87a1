"""The T.* functions of the frontend engine that are not tile operations (specs/language: `functions`).

Their signatures and documentation are stated in the language spec; the generated `tilelang.language` calls them.
"""

from __future__ import annotations

from typing import Any

from tvm import tirx
from tvm.script import tirx as _T

from ..errors import TileLangError
from . import _eager
from ._frontend import normalize_dtype, tensor


def alloc_var(dtype: Any, init: Any = None, scope: Any = "local.var") -> Any:
    """A 0-d local buffer; TVMScript turns the name it is assigned to into a mutable scalar variable."""
    var = _T.alloc_scalar(normalize_dtype(dtype), scope="local")
    if init is not None:
        value = init if hasattr(init, "ty") else tirx.const(init, normalize_dtype(dtype))
        _T.buffer_store(var.source, value, list(var.indices))
    return var


def _as_expr(value: Any, dtype: str) -> Any:
    if hasattr(value, "ty"):
        return value if str(value.ty.dtype) == dtype else _T.cast(value, dtype)
    return tirx.const(value, dtype)


def clamp(value: Any, lo: Any, hi: Any) -> Any:
    if not hasattr(value, "ty"):
        raise TileLangError(f"T.clamp: value must be a scalar expression, got {value!r}")
    dtype = str(value.ty.dtype)
    return tirx.min(tirx.max(value, _as_expr(lo, dtype)), _as_expr(hi, dtype))


def dtype(value: Any) -> str:
    return normalize_dtype(value)


def dynamic(name: Any, dtype: Any = "int32") -> Any:
    raise TileLangError(f"T.dynamic({name!r}): dynamic shapes are not supported by the backends of this project; "
                        "give the dimension a static value (a Python int, or T.const bound at compile time)")


def const(names: Any, dtype: Any = "int32") -> Any:
    return _eager.declare_consts(names, normalize_dtype(dtype))


def empty(shape: Any, dtype: Any = "float32") -> Any:
    return _eager.declare_output(shape, normalize_dtype(dtype))


def SharedBuffer(shape: Any, dtype: Any = "float32") -> Any:  # noqa: N802
    return tensor(shape, dtype)


FragmentBuffer = LocalBuffer = SharedBuffer
