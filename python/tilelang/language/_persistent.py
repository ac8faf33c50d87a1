"""`for bx, by in T.Persistent(domain, wave_size, index, group_size=8)`: TileLang's persistent tile loop.

A persistent kernel launches `wave_size` blocks (one per SM on a GPU: `T.Kernel(sm_num) as block_id`) and each block
walks the tiles of `domain` assigned to it: in wave `w` it takes tile number `w * wave_size + index`. Tiles are
numbered in TileLang's grouped order (upstream tilelang/src/ir.cc, PersistentFor): the last dimension is cut into
groups of `group_size`, and the number decomposes, outermost first, as (group, domain[0], ..., domain[-2],
position in the group); the last coordinate is `group * group_size + position`. The loop this builds is upstream's:

    for w in T.serial(ceildiv(padded, wave_size)):        # padded = the grouped domain's size
        v0 = ...; v1 = group * group_size + position       # (T.bind of the decomposed tile number)
        if v1 < domain[-1]:                                # the tail group's and the last wave's surplus
            body

Every tile of `domain` is visited by exactly one block (the numbering is a bijection onto the padded grouped domain
and each number is `w * wave_size + index` for one (w, index)), so the kernel computes what a grid over `domain`
computes when the body's tiles are independent. Upstream also breaks out of the wave loop once the tile number
passes the padded size (`loop_break`); here the guard already skips those tiles, and the wave loop's extent is
unchanged, so the break only saves empty iterations and is left out.

TVM's parser takes a `for` only over its own ForFrame; `install()` wraps its `For` visitor so that a
`PersistentLoop` is entered as a context manager (the wave loop, the coordinate bindings and the guard).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from tvm import tirx
from tvm.script import tirx as _T
from tvm.script.parser.core import dispatch
from tvm.tirx.script.parser.parser import bind_for_value

from ..errors import TileLangError


def _ceildiv(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return -(-a // b)
    return (a + b - 1) // b


def _static(value: Any) -> int | None:
    if isinstance(value, int):
        return value
    return int(value.value) if isinstance(value, tirx.IntImm) else None


class PersistentLoop:
    """The frames of one T.Persistent loop (see the module doc); entered by the patched `For` visitor."""

    def __init__(self, domain: Sequence[Any], wave_size: Any, index: Any, group_size: Any = 8) -> None:
        domain = list(domain) if isinstance(domain, (list, tuple)) else [domain]
        if not domain:
            raise TileLangError("T.Persistent: the domain must list at least one extent")
        for what, value, least in [*(("domain extent", d, 1) for d in domain), ("wave_size", wave_size, 1),
                                   ("group_size", group_size, 1)]:
            static = _static(value)
            if static is not None and static < least:
                raise TileLangError(f"T.Persistent: {what} must be positive, got {static}")
        self.domain = [_static(d) if _static(d) is not None else d for d in domain]
        self.wave_size = _static(wave_size) if _static(wave_size) is not None else wave_size
        self.index = index
        last = self.domain[-1]
        group = _static(group_size) if _static(group_size) is not None else group_size
        if isinstance(last, int) and isinstance(group, int):
            self.group_size: Any = max(1, min(group, last))
        else:
            self.group_size = tirx.max(1, tirx.min(group, last))
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> Any:
        last = self.domain[-1]
        grouped = [_ceildiv(last, self.group_size), *self.domain[:-1], self.group_size]
        padded: Any = 1
        for extent in grouped:
            padded = padded * extent
        wave = self._stack.enter_context(_T.serial(_ceildiv(padded, self.wave_size)))
        rem = wave * self.wave_size + self.index
        parts: list[Any] = [None] * len(grouped)
        for i in range(len(grouped) - 1, 0, -1):
            parts[i] = rem % grouped[i]
            rem = rem // grouped[i]
        parts[0] = rem
        coords = [_T.bind(parts[i + 1]) for i in range(len(self.domain) - 1)]
        coords.append(_T.bind(parts[0] * self.group_size + parts[-1]))
        self._stack.enter_context(_T.If(coords[-1] < last))
        self._stack.enter_context(_T.Then())
        return coords[0] if len(coords) == 1 else coords

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        return bool(self._stack.__exit__(exc_type, exc, tb))


def persistent(domain: Any, wave_size: Any, index: Any, group_size: Any = 8) -> PersistentLoop:
    return PersistentLoop(domain, wave_size, index, group_size)


def install() -> None:
    """Wrap TVMScript's tirx `For` visitor: a `for` over a PersistentLoop enters it; any other loop is TVM's."""
    original = dispatch.get(token="tirx", type_name="For")
    if original is None or getattr(original, "_tilelang_persistent", False):
        return

    def visit_for(self: Any, node: Any) -> None:
        iterator = node.iter
        call = getattr(iterator, "func", None)
        name = getattr(call, "attr", None) or getattr(call, "id", None)
        if type(iterator).__name__ != "Call" or name != "Persistent":
            original(self, node)
            return
        loop = self.eval_expr(iterator)
        if not isinstance(loop, PersistentLoop):
            original(self, node)  # another `X.Persistent`: TVM's own handling (evaluated again there)
            return
        with self.var_table.with_frame(), loop as iters:
            self.eval_assign(target=node.target, source=iters, bind_value=bind_for_value)
            self.visit_body(node.body)

    visit_for._tilelang_persistent = True  # type: ignore[attr-defined]
    dispatch.register(token="tirx", type_name="For")(visit_for)


install()
