"""Tile operands of the frontend engine: buffers, regions (`A[a:b, ...]`) and element accesses (`A[i, j]`), their
extents and bounds checks, shared by the builders of copy/fill/gemm (`_frontend`) and of the other tile operations
(`_tile_builders`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from tvm import tirx
from tvm.ir import Range, TensorLoad, TensorRegion
from tvm.tirx import is_buffer_var

from ..errors import TileLangError


def _const(e: object) -> int | None:
    if isinstance(e, (int, np.integer)) and not isinstance(e, bool):
        return int(e)
    if isinstance(e, tirx.IntImm):
        return int(e.value)
    return None


def _fmt(values: Sequence[object]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def _name(operand: Any) -> str:
    return str(operand.name) if is_buffer_var(operand) else str(operand.source.name)


def _buffer_shape(buf: Any) -> list[Any]:
    return list(buf.ty.shape)


def _extents(operand: Any) -> list[Any]:
    """Shape of a buffer, or extents of a region."""
    if is_buffer_var(operand):
        return _buffer_shape(operand)
    return [r.extent for r in operand.region]


def _kind_error(op: str, role: str, operand: object, allowed: str) -> TileLangError:
    return TileLangError(f"{op}: {role} must be {allowed}; got {type(operand).__name__} {operand!r}")


def _is_region_like(x: object) -> bool:
    return is_buffer_var(x) or isinstance(x, TensorRegion)


def _check_in_bounds(op: str, region: TensorRegion) -> None:
    """Reject a region whose constant start + extent leaves its buffer's constant bounds."""
    buf = region.source
    for dim, (rng, bound) in enumerate(zip(region.region, _buffer_shape(buf), strict=False)):
        lo, ext, hi = _const(rng.min), _const(rng.extent), _const(bound)
        if lo is None or ext is None or hi is None:
            continue
        if lo < 0 or lo + ext > hi:
            raise TileLangError(f"{op}: region of buffer '{buf.name}' is out of bounds in dim {dim}: "
                                f"indices [{lo}, {lo + ext}) exceed the bound {hi} (buffer shape "
                                f"{_fmt(_buffer_shape(buf))})")


def _full_region(buf: Any) -> TensorRegion:
    return tirx.BufferRegion(buf, [Range.from_min_extent(0, e) for e in _buffer_shape(buf)])


def _element_region(op: str, load: TensorLoad, extents: Sequence[Any], other: str) -> TensorRegion:
    """`A[i, j]` used as a copy operand: the region starting there, sized like the other operand.

    Extents are right-aligned: leading unit extents of the other operand are dropped, missing leading dims get 1.
    """
    idx = list(load.indices)
    ext = list(extents)
    while len(ext) > len(idx) and _const(ext[0]) == 1:
        ext.pop(0)
    if len(ext) > len(idx):
        raise TileLangError(f"{op}: cannot place the {len(ext)}-D tile {other} of shape {_fmt(ext)} at the "
                            f"{len(idx)}-D element access {load.source.name}[{', '.join(map(str, idx))}]")
    ext = [1] * (len(idx) - len(ext)) + ext
    return tirx.BufferRegion(load.source, [Range.from_min_extent(i, e) for i, e in zip(idx, ext, strict=True)])
