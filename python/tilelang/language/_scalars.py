"""Seeing through the scalars a kernel assigns while it is parsed.

`kv_start = base + k * block_N` in a TileLang kernel becomes a one-element local buffer stored once (apache-tvm
0.27's TVMScript makes every assigned scalar mutable), so the slice `KV[b, kv_start:kv_end, ...]` has the extent
`kv_end - kv_start`: two loads TVM's copy cannot prove equal to the shared buffer's `block_N`. TileLang's analyzer
binds such let values; here the extent of a region is rewritten with the stored values when, so rewritten, it
simplifies to a constant. A scalar is seen through only where its value at the copy is certain: it is stored exactly
once in the statements parsed so far, at the level of an enclosing scope (not inside a loop or branch already
closed) inside which no loop is open (whose rest could store it again for the next iteration), and its value reads
nothing but loop variables, constants and other such scalars.
"""

from __future__ import annotations

from typing import Any

import tvm_ffi
from tvm import sym, tirx
from tvm.ir import Range, TensorLoad, TensorRegion
from tvm.script.ir_builder import IRBuilder

_DEPTH = 8  # scalars defined from scalars (kv_end from kv_start): enough for any kernel written by hand


def _is_loop(frame: Any) -> bool:
    """A loop's frame (for, while) or a launch's (its blocks: loops on the CPU backends)."""
    name = type(frame).__name__
    return any(kind in name for kind in ("For", "While", "LaunchThread"))


def _stored_once() -> dict[Any, Any]:
    """{buffer var: value} of the scalars stored exactly once, directly in an open scope, in the parsed statements."""
    direct: dict[Any, list[Any]] = {}
    counts: dict[Any, int] = {}

    def count(store: Any) -> None:
        counts[store.buffer] = counts.get(store.buffer, 0) + 1

    frames = list(IRBuilder.current().frames)
    for depth, frame in enumerate(frames):
        # a loop opened inside this scope (one not yet parsed to its end) may store the scalar again after the
        # copy, for the copy's next iteration: only scopes with no open loop inside them give certain values
        certain = not any(_is_loop(inner) for inner in frames[depth + 1:])
        for stmt in getattr(frame, "stmts", ()):
            if certain and isinstance(stmt, tirx.BufferStore) and len(stmt.indices) <= 1:
                direct.setdefault(stmt.buffer, []).append(stmt.value)
            tvm_ffi.structural_walk(stmt, (tirx.BufferStore, count), order="post")
    return {buf: values[0] for buf, values in direct.items() if len(values) == 1 and counts.get(buf) == 1}


def _substitute(expr: Any, values: dict[Any, Any]) -> Any | None:
    """`expr` with the known scalars replaced by their values; None when it still reads another buffer."""
    for _ in range(_DEPTH):
        replaced = tvm_ffi.structural_map(expr, (TensorLoad, lambda load: next(
            (v for b, v in values.items() if b.same_as(load.source)), load)), order="post")
        if tvm_ffi.structural_equal(replaced, expr):
            break
        expr = replaced
    unknown = tvm_ffi.structural_walk(expr, (TensorLoad, lambda load: tvm_ffi.VisitInterrupt(load)), order="pre")
    return None if unknown is not None else expr


def known_extents(region: Any) -> Any:
    """`region` with each extent that is not a constant but becomes one through the stored scalars replaced by that
    constant (the region's starts are left as written: they are read at run time)."""
    if not isinstance(region, TensorRegion) or IRBuilder.current() is None:
        return region
    ranges = list(region.region)
    if all(isinstance(r.extent, tirx.IntImm) for r in ranges):
        return region
    values = _stored_once()
    if not values:
        return region
    analyzer = sym.Analyzer()
    changed = False
    for i, r in enumerate(ranges):
        if isinstance(r.extent, tirx.IntImm):
            continue
        seen = _substitute(r.extent, values)
        extent = analyzer.simplify(seen) if seen is not None else None
        if isinstance(extent, tirx.IntImm):
            ranges[i], changed = Range.from_min_extent(r.min, extent), True
    return tirx.BufferRegion(region.source, ranges) if changed else region
