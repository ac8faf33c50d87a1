# Copied unchanged from templates/runtime/tilelang/tenstorrent/builder.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/tenstorrent/builder.py and run `make generate`.
"""Statement builder used by the generated protocol functions (tilelang/tenstorrent/protocols.py).

A protocol appends calls, binds, loops and conditions; `finish()` returns one statement. Loops of one
iteration and conditions known at lowering time are folded, so the IR holds only what runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import tvm
from tvm import tirx

from .. import _ops
from . import fn
from .intrinsics import INTRINSICS


def tt_call(name: str, *args: Any) -> Any:
    """A call of intrinsic `name` with Python ints, floats and strings converted to TIR constants."""
    return _ops.call(name, *(_arg(a) for a in args))


def _arg(value: Any) -> Any:
    if isinstance(value, bool):
        return tirx.const(int(value), "int32")
    if isinstance(value, int):
        return tirx.const(value, "int32")
    if isinstance(value, float):
        return tirx.const(value, "float32")
    if isinstance(value, str):
        return tvm.ir.StringImm(value)
    return value


def seq(stmts: list[Any]) -> Any:
    if not stmts:
        return tirx.Evaluate(tirx.const(0, "int32"))
    return stmts[0] if len(stmts) == 1 else tirx.SeqStmt(stmts)


class Builder:
    """Appends statements to nested frames; `profile` selects the API profile's steps."""

    def __init__(self, profile: str) -> None:
        self.profile = profile
        self._frames: list[list[Any]] = [[]]
        self._last_when: tuple[Any, int] | None = None  # (condition, index of its statement or -1)

    def emit(self, stmt: Any) -> None:
        self._frames[-1].append(stmt)
        self._last_when = None

    def call(self, name: str, *args: Any) -> None:
        self.emit(tirx.Evaluate(tt_call(name, *args)))

    def bind(self, name: str, callee: str, *args: Any) -> Any:
        """Bind the call's result to a new variable; `uint32` results (L1 addresses) are bound as int32 so that
        address arithmetic with loop variables type-checks (L1 addresses are far below 2**31)."""
        value = tt_call(callee, *args)
        dtype = str(value.ty.dtype) if hasattr(value.ty, "dtype") else "handle"
        if INTRINSICS[callee].returns == "uint32":
            value, dtype = tirx.Cast("int32", value), "int32"
        var = tirx.Var(name, dtype)
        self.emit(tirx.Bind(var, value))
        return var

    @contextmanager
    def repeat(self, name: str, count: Any) -> Iterator[Any]:
        const = fn._const(count)
        self._frames.append([])
        var = tirx.const(0, "int32") if const == 1 else tirx.Var(name, "int32")
        yield 0 if const == 1 else var
        body = self._frames.pop()
        if const == 1:
            for stmt in body:
                self.emit(stmt)
        elif const != 0:
            self.emit(tirx.For(var, tirx.const(0, "int32"), fn._expr(count), tirx.ForKind.SERIAL, seq(body)))

    @contextmanager
    def when(self, cond: Any) -> Iterator[None]:
        const = fn._const(cond)
        self._frames.append([])
        yield
        body = self._frames.pop()
        if const is None:
            self.emit(tirx.IfThenElse(cond, seq(body), None))
            self._last_when = (cond, len(self._frames[-1]) - 1)
        else:
            if const:
                for stmt in body:
                    self.emit(stmt)
            self._last_when = (bool(const), -1)

    @contextmanager
    def otherwise(self) -> Iterator[None]:
        if self._last_when is None:
            raise RuntimeError("otherwise() must follow a when() block")
        cond, index = self._last_when
        self._frames.append([])
        yield
        body = self._frames.pop()
        if index >= 0:
            frame = self._frames[-1]
            frame[index] = tirx.IfThenElse(cond, frame[index].then_case, seq(body))
        elif cond is False:
            for stmt in body:
                self.emit(stmt)
        self._last_when = None

    def finish(self) -> Any:
        if len(self._frames) != 1:
            raise RuntimeError("unbalanced builder frames")
        return seq(self._frames[0])
