"""Builders of the tile operations beyond copy/fill/gemm: reductions, cumsum, transpose, atomic_add and im2col.

Reductions become TVM 0.27's own tile primitives (`T.tile.sum/max/min(dst, src, axes, accum)`, `abs=True` in the
primitive's config for reduce_abssum/absmax), so every backend's engine recognises the same IR. cumsum, atomic_add,
transpose and im2col have no TVM primitive: they become the project's tile primitives `tl.tile.cumsum`,
`tl.tile.atomic_add`, `tl.tile.transpose` and `tl.tile.im2col`, registered here as TVM ops of the tile-primitive
category. The loop lowering of all of them is the C++ pass LowerTileOpsToLoops (src/transform/cpu_lowering.cc).
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
from ._operands import _check_in_bounds, _const, _element_region, _extents, _fmt, _full_region, _kind_error, _name

TILE_PRIMITIVES = {"cumsum": "tl.tile.cumsum", "atomic_add": "tl.tile.atomic_add", "im2col": "tl.tile.im2col",
                   "transpose": "tl.tile.transpose"}
EVICTION_POLICIES = (None, "evict_normal", "evict_first", "evict_last")  # T.im2col's GPU cache hints


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


def build_transpose(src: object, dst: object, annotations: object = None) -> Any:
    """`T.transpose(src, dst)` -> `tl.tile.transpose(dst, src)`: dst[j, i] = src[i, j] of 2-D operands."""
    op = "T.transpose"
    src_r, dst_r = _region(op, "src", src), _region(op, "dst", dst)
    s_ext, d_ext = _extents(src_r), _extents(dst_r)
    if len(s_ext) != 2 or len(d_ext) != 2 or _same(s_ext[0], d_ext[1]) is False or _same(s_ext[1], d_ext[0]) is False:
        raise TileLangError(f"{op}: src {_name(src_r)} {_fmt(s_ext)} and dst {_name(dst_r)} {_fmt(d_ext)} must be 2-D "
                            "of shapes (M, N) and (N, M)")
    return f_insert(tirx.TilePrimitiveCall(dst_r, src_r, op=tile_primitive("transpose")))


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


def build_im2col(img: object, col: object, nhw_step: object, c_step: object, kernel: object, stride: object,
                 dilation: object, pad: object, eviction_policy: object = None, annotations: object = None) -> Any:
    """`T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad)` ->
    `tl.tile.im2col(col, img, nhw_step, c_step, kernel, stride, dilation, pad)` (specs/language/tilelang.yaml states
    the element it loads). img is a whole 4-D (N, H, W, C) tensor, col a [block_M, block_K] tile of img's dtype."""
    op = "T.im2col"
    img_r, col_r = _region(op, "img", img), _region(op, "col", col)
    img_ext, col_ext = _extents(img_r), _extents(col_r)
    whole = all(_same(e, s) is not False for e, s in zip(img_ext, _extents(img_r.source), strict=False))
    if len(img_ext) != 4 or not whole:
        raise TileLangError(f"{op}: img {_name(img_r)} {_fmt(img_ext)} must be a whole 4-D (N, H, W, C) tensor")
    if len(col_ext) < 2 or any(_same(e, 1) is False for e in col_ext[:-2]):
        raise TileLangError(f"{op}: col {_name(col_r)} {_fmt(col_ext)} must be a 2-D [block_M, block_K] tile")
    img_dtype, col_dtype = str(img_r.source.dtype), str(col_r.source.dtype)
    if img_dtype != col_dtype:
        raise TileLangError(f"{op}: img {_name(img_r)} is {img_dtype} and col {_name(col_r)} "
                            f"{col_dtype}; im2col copies without a cast, the dtypes must match")
    consts = {what: _static_int(op, what, value) for what, value in
              (("kernel", kernel), ("stride", stride), ("dilation", dilation), ("pad", pad))}
    for what, least in (("kernel", 1), ("stride", 1), ("dilation", 1), ("pad", 0)):
        if consts[what] < least:
            raise TileLangError(f"{op}: {what} is {consts[what]}; it must be at least {least}")
    if eviction_policy not in EVICTION_POLICIES:
        raise TileLangError(f"{op}: eviction_policy {eviction_policy!r} is none of {EVICTION_POLICIES[1:]}")
    if annotations is not None and not isinstance(annotations, dict):
        raise _kind_error(op, "annotations", annotations, "a dict or None")
    steps = [tirx.const(s, "int32") if isinstance(s, int) else s for s in (nhw_step, c_step)]
    if any(not hasattr(s, "ty") for s in steps):
        raise _kind_error(op, "nhw_step / c_step", (nhw_step, c_step), "integer expressions (block index, loop var)")
    call = tirx.TilePrimitiveCall(col_r, img_r, *steps, *consts.values(), op=tile_primitive("im2col"))
    return f_insert(call)
