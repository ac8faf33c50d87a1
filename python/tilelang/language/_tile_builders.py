"""Builders of the tile operations beyond copy/fill/gemm: reductions, cumsum and atomic_add.

Reductions become TVM 0.27's own tile primitives (`T.tile.sum/max/min(dst, src, axes, accum)`, `abs=True` in the
primitive's config for reduce_abssum/absmax), so every backend's engine recognises the same IR. cumsum and
atomic_add have no TVM primitive: they become the project's tile primitives `tl.tile.cumsum` and
`tl.tile.atomic_add`, registered here as TVM ops of the tile-primitive category. The loop lowering of all of them is
the C++ pass LowerTileOpsToLoops (src/transform/cpu_lowering.cc).
"""

from __future__ import annotations

from typing import Any

import tvm
import tvm_ffi
from tvm import tirx
from tvm.ir import Op, TensorLoad, TensorRegion
from tvm.script import tirx as _T
from tvm.tirx import is_buffer_var
from tvm.tirx.script.builder.tirx import f_insert

from ..errors import TileLangError
from ._frontend import _check_in_bounds, _const, _element_region, _extents, _fmt, _full_region, _kind_error, _name

TILE_PRIMITIVES = {"cumsum": "tl.tile.cumsum", "atomic_add": "tl.tile.atomic_add"}


def tile_primitive(kind: str) -> Op:
    """The project's tile primitive op `tl.tile.<kind>`, registered with TVM on first use."""
    name = TILE_PRIMITIVES[kind]
    try:
        return Op.get(name)
    except Exception:  # TVM raises a generic error for an unknown op
        pass
    tvm_ffi.get_global_func("ir.RegisterOp")(name, f"TileLang's T.{kind} (tilelang.language)")
    tvm.ir.register_op_attr(name, "TCallEffectKind", int(tirx.CallEffectKind.Opaque.value), level=20)
    tvm.ir.register_op_attr(name, "TIRxOpCategory", "tile_primitive", level=20)
    tvm.ir.register_op_attr(name, "TScriptPrinterName", name, level=20)
    return Op.get(name)


def _region(op: str, role: str, operand: object) -> TensorRegion:
    if is_buffer_var(operand):
        region = _full_region(operand)
    elif isinstance(operand, TensorRegion):
        region = operand
    else:
        raise _kind_error(op, role, operand, "a buffer or a slice (A[a:b, ...])")
    _check_in_bounds(op, region)
    return region


def _static_int(op: str, what: str, value: object) -> int:
    const = _const(value)
    if const is None:
        raise TileLangError(f"{op}: {what} must be a compile-time int, got {value!r}")
    return const


def _flag(op: str, what: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    return bool(_static_int(op, what, value))


def _axis(op: str, dim: object, rank: int, operand: str) -> int:
    d = _static_int(op, "dim", dim)
    if not -rank <= d < rank:
        raise TileLangError(f"{op}: dim {d} is out of range for the {rank}-D operand {operand}")
    return d % rank


def _same(a: object, b: object) -> bool | None:
    ca, cb = _const(a), _const(b)
    return None if ca is None or cb is None else ca == cb


def build_reduce(buffer: object, out: object, dim: object = -1, clear: object = True, *, kind: str,
                 absolute: bool) -> Any:
    """`T.reduce_<kind>(buffer, out, dim, clear)` -> `T.tile.<kind>(out, buffer, axes=(dim,), accum=not clear)`.

    `out` has buffer's shape without `dim`, or with 1 at `dim` (TileLang's two accepted shapes).
    """
    op = f"T.reduce_{'abs' if absolute else ''}{kind}"
    src, dst = _region(op, "the input", buffer), _region(op, "the output", out)
    src_ext, dst_ext = _extents(src), _extents(dst)
    axis = _axis(op, dim, len(src_ext), _name(src))
    dropped, kept = src_ext[:axis] + src_ext[axis + 1:], src_ext[:axis] + [1] + src_ext[axis + 1:]
    fits = [all(_same(x, y) is not False for x, y in zip(shape, dst_ext, strict=True))
            for shape in (dropped, kept) if len(shape) == len(dst_ext)]
    if not any(fits):
        raise TileLangError(f"{op}: output {_name(dst)} has shape {_fmt(dst_ext)}; reducing {_name(src)} "
                            f"{_fmt(src_ext)} over dim {axis} needs {_fmt(dropped)} or {_fmt(kept)}")
    config = {"abs": True} if absolute else {}
    builder = getattr(_T.tile, kind)
    return builder(dst, src, axes=(axis,), accum=not _flag(op, "clear", clear), **config)


def build_cumsum(src: object, dst: object = None, dim: object = 0, reverse: object = False) -> Any:
    """`T.cumsum(src, dst=None, dim=0, reverse=False)` -> `tl.tile.cumsum(dst, src, dim, reverse)`."""
    op = "T.cumsum"
    src_r = _region(op, "src", src)
    dst_r = src_r if dst is None else _region(op, "dst", dst)
    s_ext, d_ext = _extents(src_r), _extents(dst_r)
    if len(s_ext) != len(d_ext) or any(_same(a, b) is False for a, b in zip(s_ext, d_ext, strict=False)):
        raise TileLangError(f"{op}: dst {_name(dst_r)} {_fmt(d_ext)} must have the shape of src {_name(src_r)} "
                            f"{_fmt(s_ext)}")
    axis = _axis(op, dim, len(s_ext), _name(src_r))
    call = tirx.TilePrimitiveCall(dst_r, src_r, axis, _flag(op, "reverse", reverse), op=tile_primitive("cumsum"))
    return f_insert(call)


def build_atomic_add(dst: object, value: object, memory_order: object = None, return_prev: object = False,
                     use_tma: object = False) -> Any:
    """`T.atomic_add(dst, value)` -> `tl.tile.atomic_add(dst_region, value)`.

    Element form: dst is `C[i, j]` and value a scalar (dst becomes a region of one element). Tile form: value is a
    buffer or slice and dst a buffer, slice, or element access placing a tile of value's shape.
    """
    op = "T.atomic_add"
    if _flag(op, "return_prev", return_prev):
        raise TileLangError(f"{op}: return_prev=True is not supported on these backends")
    tile_value = is_buffer_var(value) or isinstance(value, TensorRegion)
    if tile_value:
        value_r = _region(op, "value", value)
        if isinstance(dst, TensorLoad) and is_buffer_var(dst.source):
            dst_r = _element_region(op, dst, _extents(value_r), _name(value_r))
        else:
            dst_r = _region(op, "dst", dst)
        _check_in_bounds(op, dst_r)
        args: list[Any] = [dst_r, value_r]
    elif isinstance(dst, TensorLoad) and is_buffer_var(dst.source):
        dst_r = _element_region(op, dst, [], "(a scalar)")
        if not hasattr(value, "ty") and not isinstance(value, (int, float)):
            raise _kind_error(op, "value", value, "a scalar expression, a buffer or a slice")
        dtype = str(dst.source.dtype)
        expr = tirx.const(value, dtype) if isinstance(value, (int, float)) else value
        args = [dst_r, expr]
    else:
        raise _kind_error(op, "dst", dst, "an element access (C[i, j]) for a scalar value, or a buffer, slice or "
                          "element access for a tile value")
    return f_insert(tirx.TilePrimitiveCall(*args, op=tile_primitive("atomic_add")))
