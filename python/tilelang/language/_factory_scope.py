"""`T.dynamic` inside a classic kernel factory (a `@tilelang.jit` function that returns a prim_func).

`tilelang.jit.kernel.KernelFactory` calls the factory inside a `scope`: the first time with nothing bound, so that
each `T.dynamic(name)` is a `tirx.Var` that the prim_func's tensor shapes carry; then, once a call's tensors have
bound every such name from their shapes, again with those values, so that the kernel is compiled for static shapes
(as eager kernels are, per distinct shape and cached). Backends whose kernels are per-shape (Tenstorrent) and the
CPU see the same static prim_func.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tvm import tirx

from ..errors import TileLangError


@dataclass
class FactoryScope:
    bound: dict[str, int]
    declared: dict[str, Any] = field(default_factory=dict)  # T.dynamic name -> its tirx.Var (when not bound)


_state = threading.local()


@contextlib.contextmanager
def scope(bound: dict[str, int]) -> Iterator[FactoryScope]:
    previous = getattr(_state, "scope", None)
    _state.scope = FactoryScope(dict(bound))
    try:
        yield _state.scope
    finally:
        _state.scope = previous


def current() -> FactoryScope | None:
    return getattr(_state, "scope", None)


def declare_dynamic(active: FactoryScope, name: Any, dtype: str) -> Any:
    if not isinstance(name, str) or not name.strip().isidentifier():
        raise TileLangError(f"T.dynamic: the name must be an identifier string, got {name!r}")
    name = name.strip()
    if name in active.bound:
        return active.bound[name]
    return active.declared.setdefault(name, tirx.Var(name, dtype))
