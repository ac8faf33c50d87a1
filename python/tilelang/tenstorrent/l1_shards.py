"""A tensor left in L1, block-sharded over the cores that compute it (InferTTLayout's memory_config `l1_sharded`,
issue 31): ttnn's L1 BLOCK_SHARDED memory config, as tt-metal's matmul keeps C with `out_sharded`. Its shards are
the work partition's blocks: the partition must give every core one block, the one at the core's own coordinates
(block (row r, column c) on core (c, r)), so that the shard grid is the block grid in ROW_MAJOR orientation and the
writer's TensorAccessor pages land in the core's own L1. Checked here, where the plan's partition is known."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import intrinsics
from .kernel_cpp import TTCodegenError
from .records import BUFFER, CB, PLAN, TENSOR, WORK_ITEM

L1 = "L1"  # tt.buffers' memory of an l1_sharded tensor (specs/passes/infer_tt_layout.yaml)


def l1_shard(plan: Mapping[str, Any], name: str, info: Mapping[str, Any], role: str) -> list[int]:
    """The shard of tensor `name` in tiles (rows, cols), after checking that the partition allows it."""
    where = f"tensor '{name}' is L1-sharded (pass_configs 'tl.tt.memory_config')"
    if role != "output":
        raise TTCodegenError(f"{where}, but it is an {role} tensor: only an output (written once, block by block, by "
                             "the core that computes it) can be left in its cores' L1")
    blocks_x, blocks_y = int(plan[PLAN.GRID_BLOCKS][0]), int(plan[PLAN.GRID_BLOCKS][1])
    rows, cols = int(info[BUFFER.TILE_ROWS]), int(info[BUFFER.TILE_COLS])
    items = plan[PLAN.WORK_PARTITION]
    own = all(int(w.get(WORK_ITEM.COUNT, 0)) == 1 and [w.get(WORK_ITEM.COL0), w.get(WORK_ITEM.ROW0)]
              == list(w[WORK_ITEM.CORE]) for w in items)
    one_each = own and len(items) == blocks_x * blocks_y and plan[PLAN.GRID_BLOCKS][2] == 1
    if plan[PLAN.PARTITION_MODE] != "shard" or not one_each:
        raise TTCodegenError(f"{where}, which needs every core to compute one output block, the one at its own "
                             f"coordinates (the {blocks_x}x{blocks_y} block grid on as many cores, partition mode "
                             f"'shard'); this kernel's partition is '{plan[PLAN.PARTITION_MODE]}' with "
                             f"{len(items)} work items: use blocks that give at most one per core of the grid")
    if rows % blocks_y or cols % blocks_x:
        raise TTCodegenError(f"{where}, but its {rows}x{cols} tiles do not split into the {blocks_y}x{blocks_x} "
                             "block grid evenly")
    shard = [rows // blocks_y, cols // blocks_x]
    check_shard_cbs(plan, name, info, shard, where)
    return shard


def check_shard_cbs(plan: Mapping[str, Any], name: str, info: Mapping[str, Any], shard: list[int], where: str) -> None:
    """A CB backed by the tensor's shard (its `shard_of`, BuildTTTileDataflow; main.cpp's
    set_globally_allocated_address) is the whole shard, page for page: one block of the shard's tiles, in the
    tensor's page size and format (the packer writes the block's tiles row-major, as the writer would have copied
    them)."""
    for cb in plan[PLAN.CBS]:
        if cb.get(CB.SHARD_OF) != name:
            continue
        same = (int(cb[CB.BLOCK_PAGES]) == shard[0] * shard[1] == int(cb[CB.DEPTH])
                and cb[CB.PAGE_BYTES] == info[BUFFER.PAGE_BYTES] and cb[CB.DATA_FORMAT] == info[BUFFER.DATA_FORMAT])
        if not same:
            raise TTCodegenError(
                f"{where}: its output CB c_{cb[CB.INDEX]} ({cb[CB.BUFFER]}) is to be its shard, but holds "
                f"{cb[CB.DEPTH]} pages in blocks of {cb[CB.BLOCK_PAGES]}, {cb[CB.PAGE_BYTES]} B {cb[CB.DATA_FORMAT]}, "
                f"where a shard is {shard[0]}x{shard[1]} tiles of {info[BUFFER.PAGE_BYTES]} B "
                f"{info[BUFFER.DATA_FORMAT]}: copy the whole block of the core into '{name}' in one T.copy")


def check_host_api(kernel: str, tensors: list[Any], profile: str, on_mesh: bool) -> None:
    """A sharded L1 buffer is a MeshBuffer of the distributed host API on one chip, with the profile's
    DeviceLocalBufferConfig::sharding_args (`sharded_l1_buffers` of the backend spec's profile; the emulator has no
    single-device sharded CreateBuffer; a mesh's tensors are sharded over its chips, in DRAM)."""
    in_l1 = [t[TENSOR.NAME] for t in tensors if TENSOR.L1_SHARD in t]
    if in_l1 and not intrinsics.PROFILES[profile].sharded_l1_buffers:
        raise TTCodegenError(f"kernel '{kernel}': tensor(s) {', '.join(in_l1)} are L1-sharded (pass_configs "
                             f"'tl.tt.memory_config'), which main.cpp creates through DeviceLocalBufferConfig's "
                             f"sharding_args; API profile {profile}'s host API has none (sharded_l1_buffers in "
                             "specs/backends/tenstorrent.yaml)")
    if in_l1 and on_mesh:
        raise TTCodegenError(f"kernel '{kernel}': tensor(s) {', '.join(in_l1)} are L1-sharded (pass_configs "
                             "'tl.tt.memory_config') in a kernel split over a mesh of chips, whose tensors live in "
                             "each chip's DRAM: leave them in DRAM or run on one chip")
