"""The eager style's declarations (`T.const`, `T.empty`, `A: T.Tensor(...)` inside a `@tilelang.jit` body).

`tilelang.jit.eager` runs the statements of an eager function before its `with T.Kernel` block (the prelude) in
Python, inside an `EagerScope`: there `T.const` returns the constants' values (or, for a constant not bound yet,
the variable its tensor dimensions are matched against), `T.empty` and the parameter annotations return
`TensorSpec`s that the jit turns into the kernel's buffer parameters.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tvm import tirx

from ..errors import TileLangError


@dataclass
class TensorSpec:
    """A tensor of an eager kernel: a parameter (annotated in the body) or an output (`T.empty`)."""

    shape: tuple[Any, ...]
    dtype: str
    output: bool = False


@dataclass
class EagerScope:
    bound: dict[str, int]  # constants with a value
    consts: list[str] = field(default_factory=list)  # every T.const name, in order of declaration
    shape_vars: dict[str, Any] = field(default_factory=dict)  # unbound constant -> the tirx.Var matched to shapes


_state = threading.local()


@contextlib.contextmanager
def scope(bound: dict[str, int]) -> Iterator[EagerScope]:
    previous = getattr(_state, "scope", None)
    _state.scope = EagerScope(dict(bound))
    try:
        yield _state.scope
    finally:
        _state.scope = previous


def current() -> EagerScope | None:
    return getattr(_state, "scope", None)


def _require(what: str) -> EagerScope:
    active = current()
    if active is None:
        raise TileLangError(f"{what} declares the shapes of an eager kernel: use it at the top of a @tilelang.jit "
                            "function, before its `with T.Kernel(...)` block")
    return active


def declare_consts(names: Any, dtype: str) -> Any:
    active = _require("T.const")
    if not isinstance(names, str) or not names.strip():
        raise TileLangError(f"T.const takes a string of names such as \"M, N, K\", got {names!r}")
    values = []
    for name in (n for n in re.split(r"[,\s]+", names.strip()) if n):
        if not name.isidentifier():
            raise TileLangError(f"T.const: {name!r} is not a valid name")
        if name not in active.consts:
            active.consts.append(name)
        if name in active.bound:
            values.append(active.bound[name])
        else:
            values.append(active.shape_vars.setdefault(name, tirx.Var(name, dtype)))
    return values[0] if len(values) == 1 else tuple(values)


def declare_output(shape: Any, dtype: str) -> TensorSpec:
    _require("T.empty")
    dims = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
    return TensorSpec(dims, dtype, output=True)


def tensor_annotation(shape: Any, dtype: str) -> TensorSpec | None:
    """Inside an eager prelude `T.Tensor(shape, dtype)` describes a parameter; elsewhere None."""
    if current() is None:
        return None
    return TensorSpec(tuple(shape) if isinstance(shape, (list, tuple)) else (shape,), dtype)
