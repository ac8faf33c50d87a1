# Copied unchanged from templates/runtime/tilelang/tenstorrent/fn.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/tenstorrent/fn.py and run `make generate`.
"""Runtime of the spec expression language (generator/expressions.py renders calls into this module).

Every function works on Python values and on TIR expressions: constant operands fold to Python values, so
a `when` whose condition is known at lowering time disappears, and symbolic ones build TIR.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

from tvm import tirx

from . import device


def _const(value: Any) -> Any:
    """The Python value of a constant (int, float, bool, str or an IntImm/FloatImm), else None."""
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tirx.IntImm, tirx.FloatImm)):
        return value.value
    return None


def is_const(value: Any) -> bool:
    return _const(value) is not None


def _binary(py_op: Any, tir_op: Any, a: Any, b: Any) -> Any:
    ca, cb = _const(a), _const(b)
    if ca is not None and cb is not None:
        return py_op(ca, cb)
    return tir_op(_expr(a), _expr(b))


def _expr(value: Any) -> Any:
    if isinstance(value, bool):
        return tirx.const(value, "bool")
    if isinstance(value, int):
        return tirx.const(value, "int32")
    return value


def eq(a: Any, b: Any) -> Any:
    return _binary(lambda x, y: x == y, tirx.EQ, a, b)


def ne(a: Any, b: Any) -> Any:
    return _binary(lambda x, y: x != y, tirx.NE, a, b)


def lt(a: Any, b: Any) -> Any:
    return _binary(lambda x, y: x < y, tirx.LT, a, b)


def le(a: Any, b: Any) -> Any:
    return _binary(lambda x, y: x <= y, tirx.LE, a, b)


def gt(a: Any, b: Any) -> Any:
    return _binary(lambda x, y: x > y, tirx.GT, a, b)


def ge(a: Any, b: Any) -> Any:
    return _binary(lambda x, y: x >= y, tirx.GE, a, b)


def and_(*values: Any) -> Any:
    out: Any = True
    for v in values:
        c = _const(v)
        if c is not None:
            if not c:
                return False
            continue
        out = v if out is True else tirx.And(out, v)
    return out


def or_(*values: Any) -> Any:
    out: Any = False
    for v in values:
        c = _const(v)
        if c is not None:
            if c:
                return True
            continue
        out = v if out is False else tirx.Or(out, v)
    return out


def not_(value: Any) -> Any:
    c = _const(value)
    return (not c) if c is not None else tirx.Not(value)


def select(cond: Any, a: Any, b: Any) -> Any:
    c = _const(cond)
    if c is not None:
        return a if c else b
    return tirx.Select(cond, _expr(a), _expr(b))


def ceildiv(a: Any, b: Any) -> Any:
    ca, cb = _const(a), _const(b)
    if ca is not None and cb is not None:
        return -(-ca // cb)
    return (a + b - 1) // b


def min(a: Any, b: Any) -> Any:  # noqa: A001 - the spec function's name
    return _binary(lambda x, y: x if x <= y else y, tirx.Min, a, b)


def max(a: Any, b: Any) -> Any:  # noqa: A001
    return _binary(lambda x, y: x if x >= y else y, tirx.Max, a, b)


def prod(values: Sequence[Any]) -> Any:
    return math.prod(values)


def len(values: Sequence[Any]) -> int:  # noqa: A001
    return builtins.len(values)


def largest_divisor(n: int, cap: int) -> int:
    """The largest divisor of n that is at most cap (DST sub-block sizes)."""
    return builtins.max(d for d in range(1, builtins.min(n, cap) + 1) if n % d == 0)


def aligned(value: Any, n: int) -> bool:
    """Whether `value` is provably a multiple of `n` (block offsets such as by * 128)."""
    c = _const(value)
    if c is not None:
        return c % n == 0
    from tvm.sym import Analyzer

    return bool(Analyzer().can_prove(tirx.floormod(value, n) == 0))


def supported_dtype(dtype: str) -> bool:
    return str(dtype) in device.DATA_FORMATS


def data_format(dtype: str) -> str:
    return device.DATA_FORMATS[str(dtype)][0]


def dtype_bytes(dtype: str) -> int:
    return device.DATA_FORMATS[str(dtype)][1]


def check_choice(name: str, value: Any, choices: Sequence[str]) -> None:
    if value not in choices:
        raise ValueError(f"protocol parameter '{name}' is {value!r}; expected one of {', '.join(choices)}")


def noc_x(x: int, y: int) -> dict[str, list[int]]:
    """The NoC x coordinate of logical core (x, y): only the host knows it (worker_core_from_logical_core)."""
    return {"noc_x": [int(x), int(y)]}


def noc_y(x: int, y: int) -> dict[str, list[int]]:
    """The NoC y coordinate of logical core (x, y)."""
    return {"noc_y": [int(x), int(y)]}


def runtime_value(value: Any) -> Any:
    """A per-core runtime argument value for the plan: an int, or a host-side value (noc_x/noc_y)."""
    return value if isinstance(value, dict) else int(value)
