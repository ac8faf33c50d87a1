"""A kernel split over a mesh of chips (PartitionTTMesh's tt.mesh) in the plan and in the host program.

PartitionTTMesh makes every sharded tensor parameter the device-local shard, so the plan's tensors (shape,
padded_shape, pages) are one device's, and `mesh_shards` says how many devices split the tensor's tile rows and
columns. The host program holds the user's whole tensor: its layout is the shard's with the rows and columns
multiplied by the shards (a sharded dim is never padded: the pass splits whole tiles, checked here), and
tt-metal's ShardedBufferConfig deals its pages out to the devices (main.cpp.j2).
"""

from __future__ import annotations

from typing import Any

from . import attr_keys
from .kernel_cpp import TTCodegenError
from .lowered import get_attr
from .records import DEVICE, HOST_TENSOR, MESH, PLAN, TENSOR, Mesh, Plan, Tensor

# The keys of the tt.mesh attribute (specs/passes/partition_tt_mesh.yaml, src/transform/mesh.cc).
SHAPE, GRID_AXES, SHARDS = "shape", "grid_axes", "shards"


def mesh_of(kernel: str, func: Any, tensors: list[Tensor], host_api: str) -> Mesh | None:
    """The plan's mesh record of a lowered kernel (None on a single chip); sets each tensor's `mesh_shards`.
    Refused, naming the tensor: a sharded tensor laid out row-major or stored as a block float, a sharded dim
    that DRAM pads, an output not sharded over every mesh axis of several devices (each would write all of it: a
    reduction across chips is not done yet), and a profile without the mesh host API."""
    info = get_attr(func, attr_keys.TT_MESH)
    if not info:
        return None
    shape = [int(e) for e in info[SHAPE]]
    where = f"kernel '{kernel}' on a {shape[0]}x{shape[1]} mesh"
    if host_api != "mesh":
        raise TTCodegenError(f"{where}: the API profile's host API is '{host_api}', not tt-metal's distributed (mesh) "
                             "API that runs a mesh of chips")
    shards = {str(k): [int(e) for e in v] for k, v in info[SHARDS].items()}
    for t in tensors:
        name, split = t[TENSOR.NAME], shards.get(t[TENSOR.NAME], [1, 1])
        t[TENSOR.MESH_SHARDS] = split
        if t[TENSOR.ROLE] in ("output", "inout") and any(s != m for s, m in zip(split, shape, strict=True)):
            axes = [a for a, (s, m) in enumerate(zip(split, shape, strict=True)) if s != m]
            raise TTCodegenError(f"{where}: output tensor '{name}' is not sharded over the mesh's "
                                 f"{' and '.join(('rows', 'columns')[a] for a in axes)}: every device there would "
                                 "write all of it (its index does not depend on the grid dim those split); a "
                                 "reduction across chips is not done yet")
        if split == [1, 1]:
            continue
        if t[TENSOR.PAGE_LAYOUT] != "tile" or TENSOR.DRAM_FORMAT in t:
            raise TTCodegenError(f"{where}: tensor '{name}' is sharded over the mesh and laid out "
                                 f"{t.get(TENSOR.DRAM_FORMAT, t[TENSOR.PAGE_LAYOUT])}; a mesh shards tiled tensors "
                                 "in their dtype's format")
        dims = t[TENSOR.SHAPE], t.get(TENSOR.PADDED_SHAPE, t[TENSOR.SHAPE])
        for axis, dim in ((0, -2), (1, -1)):
            if split[axis] > 1 and dims[0][dim] != dims[1][dim]:
                raise TTCodegenError(f"{where}: tensor '{name}' is sharded in dim {len(dims[0]) + dim}, which DRAM "
                                     f"pads ({dims[0][dim]} to {dims[1][dim]}); a mesh shards whole blocks of tiles")
    return {MESH.SHAPE: shape, MESH.GRID_AXES: str(info[GRID_AXES])}


def global_layout(plan: Plan, tensor: Tensor, layout: dict[str, Any]) -> dict[str, Any]:
    """The host layout (host_layout) of the whole tensor a device's shard is part of, and for a sharded one its
    pages as ShardedBufferConfig deals them: [global page rows, global page cols, shard page rows, shard page cols],
    a shard dim 0 where the tensor is replicated along that mesh axis."""
    split = tensor.get(TENSOR.MESH_SHARDS, [1, 1])
    if PLAN.MESH not in plan or split == [1, 1]:
        return layout
    h = HOST_TENSOR
    rows, cols = split
    out = {**layout, h.ROWS: layout[h.ROWS] * rows, h.PROWS: layout[h.PROWS] * rows, h.COLS: layout[h.COLS] * cols,
           h.PCOLS: layout[h.PCOLS] * cols}
    out[h.ELEMS] = layout[h.ELEMS] * rows * cols
    out[h.PADDED_ELEMS] = layout[h.PADDED_ELEMS] * rows * cols
    page_cols = out[h.PCOLS] // plan[PLAN.DEVICE][DEVICE.TILE][1]
    page_rows = tensor[TENSOR.PAGES] * rows * cols // page_cols
    out[h.MESH_PAGES] = [page_rows, page_cols, page_rows // rows if rows > 1 else 0,
                         page_cols // cols if cols > 1 else 0]
    return out
