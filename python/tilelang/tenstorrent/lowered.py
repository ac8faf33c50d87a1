"""Reading the lowered IR for code generation: function attributes as plain values, intrinsic calls."""

from __future__ import annotations

from typing import Any

import tvm
import tvm_ffi
from tvm import tirx

from .._intrinsic_table import Intrinsic
from . import intrinsics

# Intrinsic records by the TVM op their calls invoke.
_BY_OP = {record.op_name: record for record in intrinsics.INTRINSICS.values()}


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


def intrinsic_of(expr: Any) -> Intrinsic | None:
    """The intrinsic record a call expression invokes, or None for any other expression."""
    if isinstance(expr, tvm.ir.Call) and isinstance(expr.op, tvm.ir.Op):
        return _BY_OP.get(str(expr.op.name))
    return None
