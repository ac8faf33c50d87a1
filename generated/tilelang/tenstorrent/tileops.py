# Copied unchanged from templates/runtime/tilelang/tenstorrent/tileops.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/tenstorrent/tileops.py and run `make generate`.
"""Recognise the TileLang tile operations of a kernel and the dataflow between its on-chip buffers.

Everything here is structural: a copy's direction comes from the scopes of its operands, a gemm's K loop is
the loop around it, an element-wise op is a loop nest storing one expression of same-index loads over a
whole on-chip buffer. Buffer and loop-variable names are never interpreted.

The dataflow gives every value an on-chip buffer takes a *stream*; each stream becomes one circular
buffer with one producer and one consumer, classed by who produces and consumes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tvm
import tvm_ffi
from tvm import tirx

from . import device
from .ir import BufferInfo, TTLoweringError, buffer_info

PERSISTENT_LOOP = "tt.persistent_loop"  # annotation of the per-core loop made by the persistent engine
_BINARY = {tirx.Add: "add", tirx.Sub: "sub", tirx.Mul: "mul"}


@dataclass
class TileOp:
    kind: str  # copy_in | copy_out | copy_local | fill | gemm | eltwise
    stmt: Any  # the statement the op replaces
    out: BufferInfo | None
    ins: list[BufferInfo]
    fields: dict[str, Any] = field(default_factory=dict)
    reads: list[str] = field(default_factory=list)  # stream keys
    writes: str = ""  # stream key
    partial: str = ""  # gemm: stream key of the partial-sum CB, if one is needed


@dataclass
class Stream:
    key: str
    buffer: BufferInfo
    dtype: str  # dtype of the CB pages
    pages: int  # tiles of one block
    producer: str = ""  # reader | compute
    consumers: list[str] = field(default_factory=list)  # reader/compute/writer of each consuming op
    absorbed: bool = False  # a zero fill that a gemm's accumulation absorbs (no CB)
    cls: str = ""
    index: int = -1


def _tiles(info: BufferInfo, what: str) -> tuple[int, int]:
    th, tw = device.TILE
    if len(info.shape) != 2:
        raise TTLoweringError(f"{what} '{info.name}' has shape {list(info.shape)}; the tenstorrent backend handles "
                              "2-D tiles only")
    rows, cols = info.shape
    if rows % th or cols % tw:
        raise TTLoweringError(f"{what} '{info.name}' has shape {rows}x{cols}, not a multiple of the {th}x{tw} tile")
    return rows // th, cols // tw


def _region(region: Any) -> tuple[BufferInfo, list[Any], list[int]]:
    info = buffer_info(region.source)
    mins = [r.min for r in region.region]
    extents = []
    for r in region.region:
        if not isinstance(r.extent, tirx.IntImm):
            raise TTLoweringError(f"region of '{info.name}' has a dynamic extent ({r.extent})")
        extents.append(int(r.extent.value))
    return info, mins, extents


def _full(info: BufferInfo, mins: list[Any], extents: list[int], op: str) -> None:
    whole = all(isinstance(m, tirx.IntImm) and m.value == 0 for m in mins) and tuple(extents) == info.shape
    if not whole:
        raise TTLoweringError(f"{op} uses part of on-chip buffer '{info.name}' (extents {extents} of "
                              f"{list(info.shape)}); the tenstorrent backend moves whole CB blocks")


def _classify_copy(stmt: Any) -> TileOp:
    (dst, dmins, dext), (src, smins, sext) = _region(stmt.args[0]), _region(stmt.args[1])
    if not dst.on_chip and not src.on_chip:
        raise TTLoweringError(f"T.copy from tensor '{src.name}' to tensor '{dst.name}': DRAM-to-DRAM copies are not "
                              "supported; copy through an on-chip buffer")
    if dst.on_chip and src.on_chip:
        _full(dst, dmins, dext, "T.copy")
        _full(src, smins, sext, "T.copy")
        return TileOp("copy_local", stmt, dst, [src])
    tensor, onchip = (src, dst) if dst.on_chip else (dst, src)
    tmins, text = (smins, sext) if dst.on_chip else (dmins, dext)
    omins, oext = (dmins, dext) if dst.on_chip else (smins, sext)
    _full(onchip, omins, oext, "T.copy")
    rows, cols = _tiles(onchip, "on-chip buffer")
    if len(tensor.shape) != 2:
        raise TTLoweringError(f"tensor '{tensor.name}' has shape {list(tensor.shape)}; only 2-D tensors are supported")
    if [e for e in text if e != 1] != list(onchip.shape):
        raise TTLoweringError(f"T.copy between '{tensor.name}' and '{onchip.name}' has region extents {text}, "
                              f"not the on-chip shape {list(onchip.shape)}")
    kind = "copy_in" if dst.on_chip else "copy_out"
    fields = {"tensor": tensor.var, "tensor_info": tensor, "row": tmins[0], "col": tmins[1], "rows": rows,
              "cols": cols, "row_tiles": tensor.shape[1] // device.TILE[1]}
    return TileOp(kind, stmt, dst if dst.on_chip else None, [src] if src.on_chip else [], fields)


def _classify_gemm(stmt: Any, loops: list[Any]) -> TileOp:
    d, a, b = (_region(stmt.args[i]) for i in range(3))
    c = _region(stmt.args[3])
    for info, mins, ext in (d, a, b, c):
        if not info.on_chip:
            raise TTLoweringError(f"T.gemm operand '{info.name}' is a DRAM tensor; copy it to an on-chip buffer first")
        _full(info, mins, ext, "T.gemm")
    if bool(stmt.args[4]) or bool(stmt.args[5]):
        raise TTLoweringError(f"T.gemm({a[0].name}, {b[0].name}, {d[0].name}) with transpose_A/transpose_B is not "
                              "supported by the tenstorrent backend (matmul_tiles takes untransposed tiles)")
    if not d[0].var.same_as(c[0].var):
        raise TTLoweringError(f"T.gemm writes '{d[0].name}' but accumulates '{c[0].name}'; they must be one buffer")
    for pos in (6, 7):
        value = stmt.args[pos]
        if not (isinstance(value, tirx.FloatImm) and value.value == 1.0):
            raise TTLoweringError(f"T.gemm into '{d[0].name}' has alpha/beta {value}; only 1.0 (accumulate) is "
                                  "supported")
    mt, nt = _tiles(d[0], "accumulator")
    am, ak = _tiles(a[0], "gemm operand")
    bk, bn = _tiles(b[0], "gemm operand")
    if am != mt or bn != nt or ak != bk:
        raise TTLoweringError(f"T.gemm shapes do not match: {a[0].name} {list(a[0].shape)} x {b[0].name} "
                              f"{list(b[0].shape)} -> {d[0].name} {list(d[0].shape)}")
    loop = loops[-1] if loops else None
    k, k_count = (loop.loop_var, int(loop.extent.value)) if loop is not None else (0, 1)
    return TileOp("gemm", stmt, d[0], [a[0], b[0]], {"mt": mt, "nt": nt, "kt": ak, "k": k, "k_count": k_count})


def _eltwise_nest(stmt: Any) -> tuple[list[Any], Any] | None:
    """(loop vars, store) when `stmt` is a loop nest whose innermost body is one BufferStore."""
    loops = []
    while isinstance(stmt, tirx.For):
        loops.append(stmt)
        stmt = stmt.body
    if loops and isinstance(stmt, tirx.BufferStore):
        return loops, stmt
    return None


def _classify_eltwise(loops: list[Any], store: Any) -> TileOp:
    out = buffer_info(store.buffer)
    text = f"{out.name}[...] = {store.value}"
    if not out.on_chip:
        raise TTLoweringError(f"element-wise store '{text}' writes DRAM tensor '{out.name}' directly; write an "
                              "on-chip buffer and T.copy it out")
    lvars = [lp.loop_var for lp in loops]
    extents = [int(lp.extent.value) if isinstance(lp.extent, tirx.IntImm) else -1 for lp in loops]
    same = len(store.indices) == len(lvars) and all(i.same_as(v) for i, v in zip(store.indices, lvars, strict=False))
    if not same or tuple(extents) != out.shape:
        raise TTLoweringError(f"element-wise store '{text}' must cover the whole buffer {list(out.shape)} with the "
                              "loop variables as indices (T.Parallel over the buffer shape)")
    leaves: list[BufferInfo] = []

    def leaf(expr: Any) -> BufferInfo:
        while isinstance(expr, tirx.Cast):
            expr = expr.value
        if isinstance(expr, tvm.ir.TensorLoad):
            info = buffer_info(expr.source)
            ok = info.on_chip and info.shape == out.shape and all(
                i.same_as(v) for i, v in zip(expr.indices, lvars, strict=False))
            if ok:
                return info
        raise TTLoweringError(f"element-wise store '{text}': operand {expr} is not a same-index load of an on-chip "
                              "buffer of the same shape")

    value = store.value
    while isinstance(value, tirx.Cast):
        value = value.value
    sfpu = "none"
    if isinstance(value, tirx.Max) and _is_zero(value.b):
        sfpu, value = "relu", value.a
    elif isinstance(value, tvm.ir.Call) and str(value.op.name) == "tirx.exp":
        sfpu, value = "exp", value.args[0]
    while isinstance(value, tirx.Cast):
        value = value.value
    binary = _BINARY.get(type(value), "none")
    if binary != "none":
        leaves = [leaf(value.a), leaf(value.b)]
    else:
        leaves = [leaf(value)]
        if sfpu == "none":
            raise TTLoweringError(f"element-wise store '{text}' is a plain copy; use T.copy")
    tiles = _tiles(out, "on-chip buffer")
    return TileOp("eltwise", loops[0], out, leaves, {"binary": binary, "sfpu": sfpu, "tiles": tiles[0] * tiles[1]})


def _is_zero(expr: Any) -> bool:
    while isinstance(expr, tirx.Cast):
        expr = expr.value
    return isinstance(expr, (tirx.IntImm, tirx.FloatImm)) and expr.value == 0


def tile_ops(body: Any) -> list[TileOp]:
    """The tile operations of a kernel body, in program order."""
    ops: list[TileOp] = []

    def visit(stmt: Any, loops: list[Any]) -> None:
        if isinstance(stmt, tirx.SeqStmt):
            for s in stmt.seq:
                visit(s, loops)
        elif isinstance(stmt, tirx.TilePrimitiveCall):
            name = str(stmt.op.name)
            if name == "tirx.tile.copy":
                ops.append(_classify_copy(stmt))
            elif name == "tirx.tile.gemm":
                ops.append(_classify_gemm(stmt, loops))
            elif name == "tirx.tile.fill":
                dst, mins, ext = _region(stmt.args[0])
                if not dst.on_chip:
                    raise TTLoweringError(f"T.fill of DRAM tensor '{dst.name}' is not supported; fill an on-chip "
                                          "buffer and T.copy it out")
                _full(dst, mins, ext, "T.fill")
                rows, cols = _tiles(dst, "on-chip buffer")
                value = stmt.args[1]
                if not isinstance(value, (tirx.FloatImm, tirx.IntImm)):
                    raise TTLoweringError(f"T.fill of '{dst.name}' with a non-constant value ({value})")
                ops.append(TileOp("fill", stmt, dst, [], {"value": float(value.value), "tiles": rows * cols}))
            else:
                raise TTLoweringError(f"tile primitive {name} has no tenstorrent lowering")
        elif isinstance(stmt, tirx.For):
            nest = _eltwise_nest(stmt)
            if nest is not None:
                ops.append(_classify_eltwise(*nest))
            elif PERSISTENT_LOOP in stmt.annotations:
                visit(stmt.body, loops)
            else:
                if not isinstance(stmt.extent, tirx.IntImm):
                    raise TTLoweringError(f"loop '{stmt.loop_var}' has a dynamic extent ({stmt.extent})")
                visit(stmt.body, loops + [stmt])
        elif isinstance(stmt, tirx.IfThenElse):
            raise TTLoweringError(f"a condition around tile operations ({stmt.condition}) is not supported by the "
                                  "tenstorrent backend")
        elif isinstance(stmt, tirx.BufferStore):
            raise TTLoweringError(f"scalar store to '{stmt.buffer.name}' outside an element-wise loop nest is not "
                                  "supported by the tenstorrent backend")
        elif isinstance(stmt, tirx.AttrStmt):
            visit(stmt.body, loops)

    visit(body, [])
    return ops


def dataflow(ops: list[TileOp], stages: int, depth: dict[str, Callable[..., Any]]) -> list[Stream]:
    """Give each op's inputs and output a stream, check single producer/consumer, and assign CB indices."""
    streams: dict[str, Stream] = {}
    current: dict[str, str] = {}  # buffer name -> key of its current stream
    versions: dict[str, int] = {}

    def new(info: BufferInfo, dtype: str, producer: str, pages: int) -> str:
        versions[info.name] = versions.get(info.name, 0) + 1
        key = f"{info.name}#{versions[info.name]}"
        streams[key] = Stream(key, info, dtype, pages, producer)
        current[info.name] = key
        return key

    def read(info: BufferInfo, consumer: str, op: str) -> str:
        key = current.get(info.name)
        if key is None:
            raise TTLoweringError(f"{op} reads on-chip buffer '{info.name}' before anything writes it")
        streams[key].consumers.append(consumer)
        return key

    for op in ops:
        assert op.out is not None or op.kind == "copy_out"
        if op.kind == "copy_in":
            tensor = op.fields["tensor_info"]
            if tensor.dtype != op.out.dtype:
                raise TTLoweringError(f"T.copy from '{tensor.name}' ({tensor.dtype}) to '{op.out.name}' "
                                      f"({op.out.dtype}) converts dtype; the reader moves raw tile pages, so the "
                                      "on-chip buffer must have the tensor's dtype")
            op.writes = new(op.out, op.out.dtype, "reader", op.fields["rows"] * op.fields["cols"])
        elif op.kind == "copy_out":
            src = op.ins[0]
            op.reads = [read(src, "writer", f"T.copy to '{op.fields['tensor_info'].name}'")]
            stream = streams[op.reads[0]]
            stream.dtype = op.fields["tensor_info"].dtype  # pages leave as the tensor's format (pack converts)
        elif op.kind == "copy_local":
            key = current.get(op.ins[0].name)
            if key is None:
                raise TTLoweringError(f"T.copy reads on-chip buffer '{op.ins[0].name}' before anything writes it")
            current[op.out.name] = key  # the same CB now also holds the destination's value
        elif op.kind == "fill":
            op.writes = new(op.out, op.out.dtype, "compute", op.fields["tiles"])
        elif op.kind == "gemm":
            acc = op.out
            a, b = op.ins
            op.reads = [read(a, "compute", "T.gemm"), read(b, "compute", "T.gemm")]
            init = current.get(acc.name)
            init_stream = streams.get(init) if init else None
            if init_stream is None or init_stream.producer != "compute" or init_stream.consumers or \
                    not _is_zero_fill(ops, init):
                raise TTLoweringError(f"T.gemm accumulates into '{acc.name}', which must be cleared first "
                                      f"(T.clear({acc.name}) right before the K loop)")
            init_stream.absorbed = True
            pages = op.fields["mt"] * op.fields["nt"]
            op.writes = new(acc, acc.dtype, "compute", pages)
            bits = 32 if device.DATA_FORMATS.get(acc.dtype, ("", 2))[1] == 4 else 16
            if op.fields["k_count"] > 1 and pages > device.DST_TILES[bits]:
                key = f"{acc.name}#partial"
                streams[key] = Stream(key, acc, acc.dtype, pages, "compute", ["compute"])
                op.partial = key
        else:  # eltwise
            op.reads = [read(info, "compute", f"element-wise store to '{op.out.name}'") for info in op.ins]
            op.writes = new(op.out, op.out.dtype, "compute", op.fields["tiles"])

    live = [s for s in streams.values() if not s.absorbed]
    for s in live:
        if not s.consumers:
            raise TTLoweringError(f"on-chip buffer '{s.buffer.name}' is written but its value is never used "
                                  "(every CB needs a consumer)")
        if len(s.consumers) > 1:
            raise TTLoweringError(f"on-chip buffer '{s.buffer.name}' is read by {len(s.consumers)} tile operations; "
                                  "a CB has exactly one consumer (copy it first)")
        if s.producer == "reader":
            s.cls = "input"
        elif s.consumers[0] == "writer":
            s.cls = "output"
        else:
            s.cls = "intermediate"
    for cls in ("input", "output", "intermediate"):
        first, last = device.CB_RANGES[cls]
        members = [s for s in live if s.cls == cls]
        if len(members) > last - first + 1:
            names = ", ".join(s.buffer.name for s in members)
            raise TTLoweringError(f"too many {cls} CBs: {len(members)} on-chip values ({names}) but CBs "
                                  f"{first}-{last} hold only {last - first + 1}")
        for offset, s in enumerate(members):
            s.index = first + offset
    for s in live:
        s.pages_depth = int(depth[s.cls](pages=s.pages, stages=stages))  # type: ignore[attr-defined]
    return live


def _is_zero_fill(ops: list[TileOp], key: str | None) -> bool:
    return any(op.kind == "fill" and op.writes == key and op.fields["value"] == 0.0 for op in ops)


def strip_onchip_allocs(body: Any) -> Any:
    """Remove the allocations of on-chip buffers (their storage is now the CBs)."""

    def visit(stmt: Any) -> Any:
        if isinstance(stmt, tirx.AllocBuffer) and buffer_info(stmt.buffer).on_chip:
            return tirx.Evaluate(tirx.const(0, "int32"))
        return stmt

    return tvm_ffi.structural_map(body, (tirx.AllocBuffer, visit), order="post")
