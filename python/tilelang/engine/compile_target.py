"""The target a `@tilelang.jit` kernel is being built for, while its Python code runs (an eager function's prelude,
a kernel factory's body): `tilelang.carver.arch.driver.get_num_sms()` asks it how many blocks run at once there."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

_state = threading.local()


@contextlib.contextmanager
def building_for(target: Any) -> Iterator[None]:
    previous = getattr(_state, "target", None)
    _state.target = target
    try:
        yield
    finally:
        _state.target = previous


def current() -> Any:
    """The target being built for; "auto" (the current tvm Target scope's, else llvm) outside a jit build."""
    target = getattr(_state, "target", None)
    return "auto" if target is None else target
