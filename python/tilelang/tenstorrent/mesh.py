"""A kernel split over a mesh of chips (PartitionTTMesh's tt.mesh) in the plan and in the host program.

PartitionTTMesh makes every sharded tensor parameter the device-local shard, so the plan's tensors (shape,
padded_shape, pages) are one device's, and `mesh_shards` says how many devices split the tensor's tile rows and
columns. The host program holds the user's whole tensor: its layout is the shard's with the rows and columns
multiplied by the shards (a sharded dim is never padded: the pass splits whole tiles, checked here), and
tt-metal's ShardedBufferConfig deals its pages out to the devices (main.cpp.j2).

A tensor a mesh axis splits along a dim whose orientation is not the axis's (split-K's B, K rows over mesh columns;
attention's heads over mesh columns), or that both axes split (grid_axes xx), is restacked: the host lays its shards
side by side along the mesh axis, so ShardedBufferConfig deals each device its rows, and gathers outputs back.
Split-K (PartitionTTMesh's reduce_axis): An output the loop does not index is partial: every device
holds a partial sum of all of it, the buffer stacks them along the reduce axis, and the host adds them (fp32
accumulation, one rounding to the output's dtype) after reading it back. `mesh_stack` (in pages) tells main.cpp how.
"""

from __future__ import annotations

from typing import Any

from . import attr_keys
from .kernel_cpp import TTCodegenError
from .lowered import get_attr
from .records import DEVICE, HOST_TENSOR, MESH, PLAN, TENSOR, Mesh, Plan, Tensor

# The keys of the tt.mesh attribute (specs/passes/partition_tt_mesh.yaml, src/transform/mesh.cc).
SHAPE, GRID_AXES, SHARDS, RESTACKED, RESTACKED_ROWS = "shape", "grid_axes", "shards", "restacked", "restacked_rows"
# The output dtypes whose partials the host adds (its C++ types: float, and bfloat16 as its raw bits).
PARTIAL_DTYPES = ("float32", "bfloat16")


def mesh_of(kernel: str, func: Any, tensors: list[Tensor], host_api: str) -> Mesh | None:
    """The plan's mesh record of a lowered kernel (None on a single chip); sets each tensor's `mesh_shards` (and,
    `mesh_restacked` (`mesh_restacked_rows`), and with split-K `mesh_partial`). Refused, naming the tensor: a sharded
    tensor laid out row-major or stored as a block float, a sharded dim that DRAM pads, an output not sharded over
    every mesh axis of several devices but the reduce axis (each would write all of it), a partial output the host
    cannot add, and a profile without the mesh host API."""
    info = get_attr(func, attr_keys.TT_MESH)
    if not info:
        return None
    shape = [int(e) for e in info[SHAPE]]
    where = f"kernel '{kernel}' on a {shape[0]}x{shape[1]} mesh"
    if host_api != "mesh":
        raise TTCodegenError(f"{where}: the API profile's host API is '{host_api}', not tt-metal's distributed (mesh) "
                             "API that runs a mesh of chips")
    reduce = int(info[MESH.REDUCE_AXIS]) if MESH.REDUCE_AXIS in info else None
    restacked = {str(n) for n in info.get(RESTACKED, [])}
    along_rows = {str(n) for n in info.get(RESTACKED_ROWS, [])}
    shards = {str(k): [int(e) for e in v] for k, v in info[SHARDS].items()}
    for t in tensors:
        name, split = t[TENSOR.NAME], shards.get(t[TENSOR.NAME], [1, 1])
        t[TENSOR.MESH_SHARDS] = split
        if t[TENSOR.ROLE] in ("output", "inout"):
            _output_shards(where, t, split, shape, reduce)
        if name in restacked:  # PartitionTTMesh checked that a tensor split by both axes can be restacked
            t[TENSOR.MESH_RESTACKED] = True
            if name in along_rows:
                t[TENSOR.MESH_RESTACKED_ROWS] = True
        if split == [1, 1]:
            continue
        if t[TENSOR.PAGE_LAYOUT] != "tile" or TENSOR.DRAM_FORMAT in t:
            raise TTCodegenError(f"{where}: tensor '{name}' is sharded over the mesh and laid out "
                                 f"{t.get(TENSOR.DRAM_FORMAT, t[TENSOR.PAGE_LAYOUT])}; a mesh shards tiled tensors "
                                 "in their dtype's format")
        dims = t[TENSOR.SHAPE], t.get(TENSOR.PADDED_SHAPE, t[TENSOR.SHAPE])
        if t.get(TENSOR.MESH_RESTACKED):  # its split dims are of the other orientation
            split = [0, max(split)] if t.get(TENSOR.MESH_RESTACKED_ROWS) else [max(split), 0]
        for axis, dim in ((0, -2), (1, -1)):
            if split[axis] > 1 and dims[0][dim] != dims[1][dim] and not t.get(TENSOR.MESH_PARTIAL):
                raise TTCodegenError(f"{where}: tensor '{name}' is sharded in dim {len(dims[0]) + dim}, which DRAM "
                                     f"pads ({dims[0][dim]} to {dims[1][dim]}); a mesh shards whole blocks of tiles")
    out: Mesh = {MESH.SHAPE: shape, MESH.GRID_AXES: str(info[GRID_AXES])}
    if reduce is not None:
        out[MESH.REDUCE_AXIS], out[MESH.REDUCE_LOOP] = reduce, str(info[MESH.REDUCE_LOOP])
    return out


def _output_shards(where: str, t: Tensor, split: list[int], shape: list[int], reduce: int | None) -> None:
    """An output must be sharded over every mesh axis of several devices, or be split-K's partial along the reduce
    axis (then its shards there are the partials, one per device)."""
    name = t[TENSOR.NAME]
    axes = [a for a, (s, m) in enumerate(zip(split, shape, strict=True)) if s != m]
    if reduce in axes and split[reduce] == 1:
        if t[TENSOR.ROLE] != "output" or t[TENSOR.DTYPE] not in PARTIAL_DTYPES:
            raise TTCodegenError(f"{where}: output tensor '{name}' ({t[TENSOR.ROLE]}, {t[TENSOR.DTYPE]}) holds each "
                                 "device's partial sum of split-K; the host adds the partials of outputs of dtype "
                                 f"{' or '.join(PARTIAL_DTYPES)} (an inout would add its input once per device)")
        t[TENSOR.MESH_PARTIAL] = True
        split[reduce] = shape[reduce]
        axes.remove(reduce)
    if axes:
        raise TTCodegenError(f"{where}: output tensor '{name}' is not sharded over the mesh's "
                             f"{' and '.join(('rows', 'columns')[a] for a in axes)}: every device there would "
                             "write all of it (its index does not depend on the grid dim those split); split-K "
                             "(tl.PartitionTTMesh.reduce_axis) adds partials only along the axis that splits the "
                             "reduction loop")


def global_layout(plan: Plan, tensor: Tensor, layout: dict[str, Any]) -> dict[str, Any]:
    """The host layout (host_layout) of the whole tensor a device's shard is part of, and for a sharded one its
    pages as ShardedBufferConfig deals them: [global page rows, global page cols, shard page rows, shard page cols],
    a shard dim 0 where the tensor is replicated along that mesh axis. A split-K partial output's whole tensor is
    one partial (the buffer stacks them); a restacked tensor's split dims are the other orientation's: its shards in
    turn along the user's rows (columns: mesh_restacked_rows). Either gets `mesh_stack`: [page rows, page cols,
    parts, 1 where the parts lie along columns] of the host's page matrix."""
    split = tensor.get(TENSOR.MESH_SHARDS, [1, 1])
    if PLAN.MESH not in plan or split == [1, 1]:
        return layout
    h = HOST_TENSOR
    rows, cols = split
    tile = plan[PLAN.DEVICE][DEVICE.TILE]
    page_cols = layout[h.PCOLS] // tile[1] * cols
    page_rows = tensor[TENSOR.PAGES] * rows * cols // page_cols
    reduce = plan[PLAN.MESH].get(MESH.REDUCE_AXIS)
    user = [rows, cols]  # the user's tensor in shards of rows, of columns
    stack = None
    if tensor.get(TENSOR.MESH_PARTIAL):
        assert reduce is not None, "PartitionTTMesh marks partial outputs only when the mesh splits a reduction"
        user[reduce] = 1
        stack = [page_rows, page_cols, split[reduce], reduce]
    elif tensor.get(TENSOR.MESH_RESTACKED):  # the user's rows (columns) are every device's shard's, in turn
        if tensor.get(TENSOR.MESH_RESTACKED_ROWS):
            user = [1, rows * cols]
            stack = [page_rows // rows, page_cols * rows, rows, 0]
        else:
            user = [rows * cols, 1]
            stack = [page_rows * cols, page_cols // cols, cols, 1]
    out = {**layout, h.ROWS: layout[h.ROWS] * user[0], h.PROWS: layout[h.PROWS] * user[0],
           h.COLS: layout[h.COLS] * user[1], h.PCOLS: layout[h.PCOLS] * user[1]}
    out[h.ELEMS] = layout[h.ELEMS] * user[0] * user[1]
    out[h.PADDED_ELEMS] = layout[h.PADDED_ELEMS] * user[0] * user[1]
    out[h.MESH_PAGES] = [page_rows, page_cols, page_rows // rows if rows > 1 else 0,
                         page_cols // cols if cols > 1 else 0]
    if stack is not None:
        out[h.MESH_STACK] = stack
    return out
