"""The GEMM block picker per device: block sizes (block_M, block_N, block_K) for a TileLang GEMM on a Tenstorrent
device, read from the device's record (specs/backends/tenstorrent.yaml device.devices.<name>: its worker grid, L1
size and measured rates), so that a 13x10 Blackhole p150 is not given the blocks that fill Wormhole's 8x8 grid.

Candidates are the tile-multiple blocks whose block grid PartitionTTWork shards uniformly on the device's grid (along
each axis as many blocks as cores or fewer, or a whole multiple of the cores: `auto_shard` of
specs/passes/partition_tt_work.yaml; tests/tenstorrent/test_tt_gemm_blocks.py compiles the picks and checks the
partition), so each core gets the same number of blocks and PlanTTMulticast shares the A block along each core row and
the B block down each core column. A block that does not divide the shape is a partial last block (the kernel masks
it). Candidates whose double-buffered A and B blocks, fp32 accumulator and output block do not fit the device's L1 are
dropped (the compiled CB plan has the final word).

`ranked` orders the candidates by a first estimate of one core's time from the device's measured facts (the
slowest of its tile matmuls and the busier sender's DRAM reads and multicasts, plus the two semaphore waits of every
K step, plus the pipeline fill: the first A and B blocks the compute kernel waits for; the chip's DRAM rate bounds the
whole): no core is both a row and a column sender (PlanTTMulticast places them apart). Each candidate comes with B
fed by the writer kernel or not (`in1_sender`, tt-metal's in1 sender: pass_configs "tl.tt.in1_sender",
`Blocks.pass_configs`), whichever the estimate puts faster: with it the fill is the larger first block, not both one
after the other (as perf_model.pipeline_cycles models it). The final choice among the first few is the calibrated
model's after an emulated run of each (`benchmarks/bench_tt_perf_p150.py` does this for p150 in `make bench`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.pass_options import PASS_OPTIONS
from ..errors import TileLangError
from . import device, perf_model

BLOCK_TILES = range(1, 17)  # block_M / block_N candidates: 1 to 16 tiles
BLOCK_K_TILES = (2, 4, 8, 16)  # block_K candidates (the L1 check below drops those that do not fit)
IN1_SENDER = str(PASS_OPTIONS["BuildTTTileDataflow"]["in1_sender"]["key"])  # pass_configs' key of the in1 sender
ACCUMULATOR_BYTES = device.DATA_FORMATS["float32"][1]  # the fp32 partial sums of C (kept in L1 by the packer)


@dataclass(frozen=True)
class Blocks:
    """One candidate and its first estimate on the device."""

    block_m: int
    block_n: int
    block_k: int
    cores: tuple[int, int]  # (x, y) cores the one-wave shard partition uses
    seconds: float  # the first estimate (not the calibrated model)
    in1_sender: bool = False  # B read by the writer kernel (BuildTTTileDataflow's in1_sender)

    @property
    def config(self) -> tuple[int, int, int]:
        return self.block_m, self.block_n, self.block_k

    @property
    def pass_configs(self) -> dict[str, Any]:
        """The pass_configs that compile the pick as estimated."""
        return {IN1_SENDER: self.in1_sender}


def _device(name: str) -> device.Device:
    if name not in device.DEVICES:
        raise TileLangError(f"GEMM block picker: unknown Tenstorrent device '{name}'; the backend spec declares "
                            f"{', '.join(sorted(device.DEVICES))}")
    return device.DEVICES[name]


def _shards(blocks: int, cores: int) -> bool:
    """PartitionTTWork's uniform shard along one axis (its rule `auto_shard`): one wave, or whole waves."""
    return blocks <= cores or blocks % cores == 0


def candidates(m: int, n: int, k: int, device_name: str, dtype: str = "bfloat16") -> list[tuple[int, int, int]]:
    """Every (block_M, block_N, block_K) that covers C in one wave on the device's grid and fits its L1."""
    dev = _device(device_name)
    tile_m, tile_n = device.TILE
    if dtype not in device.DATA_FORMATS:
        raise TileLangError(f"GEMM block picker: dtype '{dtype}' has no Tenstorrent data format; known: "
                            f"{', '.join(sorted(device.DATA_FORMATS))}")
    elem = device.DATA_FORMATS[dtype][1]
    mt, nt, kt = math.ceil(m / tile_m), math.ceil(n / tile_n), math.ceil(k / tile_n)
    gx, gy = dev.core_grid
    out = []
    for bm in BLOCK_TILES:
        for bn in BLOCK_TILES:
            if not (_shards(math.ceil(nt / bn), gx) and _shards(math.ceil(mt / bm), gy)) or bm > mt or bn > nt:
                continue
            for bk in BLOCK_K_TILES:
                if kt % bk:
                    continue
                l1 = (2 * (bm * bk + bk * bn) * elem + bm * bn * (ACCUMULATOR_BYTES + elem)) * tile_m * tile_n
                if l1 <= dev.l1_bytes:
                    out.append((bm * tile_m, bn * tile_n, bk * tile_n))
    return out


def _tile_bytes(data_format: str) -> int:
    for fmt, tile_bytes, _ in device.DRAM_FORMATS.values():
        if fmt == data_format:
            return tile_bytes
    for fmt, elem, _ in device.DATA_FORMATS.values():
        if fmt == data_format:
            return elem * device.TILE[0] * device.TILE[1]
    raise TileLangError(f"GEMM block picker: unknown data format '{data_format}'")


def estimate(m: int, n: int, k: int, blocks: tuple[int, int, int], device_name: str, fidelity: str = "HiFi4",
             data_format: str = "Float16_b", perf: Mapping[str, Any] | None = None) -> Blocks:
    """The first estimate of `blocks` on the device (see the module doc)."""
    dev = _device(device_name)
    perf = perf or perf_model.device_perf(device_name)
    measured = perf["measured"]
    tile_m, tile_n = device.TILE
    bm, bn, bk = (b // t for b, t in zip(blocks, (tile_m, tile_n, tile_n), strict=True))
    mt, nt, kt = math.ceil(m / tile_m), math.ceil(n / tile_n), math.ceil(k / tile_n)
    blocks_x, blocks_y = math.ceil(nt / bn), math.ceil(mt / bm)
    cores = (min(blocks_x, dev.core_grid[0]), min(blocks_y, dev.core_grid[1]))
    waves = blocks_x // cores[0] * (blocks_y // cores[1])
    tile_bytes = _tile_bytes(data_format)
    try:
        rate = perf_model.matmul_cycles(perf_model.FORMAT_ALIASES.get(data_format, data_format), fidelity, perf)
    except ValueError as err:
        raise TileLangError(f"GEMM block picker on {device_name}: {err}") from None
    compute = waves * bm * bn * kt * rate
    per_byte = 1 / measured["dram_read_bytes_per_cycle"] + 1 / measured["multicast_linked_bytes_per_cycle"]
    noc = waves * max(bm * kt * (cores[0] > 1), bn * kt * (cores[1] > 1)) * tile_bytes * per_byte
    waits = waves * 2 * (kt // bk) * measured["semaphore_wait_cycles"]
    chip = (mt * kt + kt * nt + mt * nt) * tile_bytes / measured["dram_bytes_per_second"]
    # the first blocks: one reader fetches A's and then B's; with the in1 sender each kernel fetches its own at once
    fills = {False: (bm + bn) * bk * tile_bytes * per_byte, True: max(bm, bn) * bk * tile_bytes * per_byte}
    seconds = {in1: max((max(compute, noc) + waits + fill) / measured["clock_hz"], chip) for in1, fill in fills.items()}
    in1 = seconds[True] < seconds[False]
    return Blocks(*blocks, cores, seconds[in1], in1)


def ranked(m: int, n: int, k: int, device_name: str, fidelity: str = "HiFi4", dtype: str = "bfloat16",
           ) -> list[Blocks]:
    """The candidates, fastest first estimate first (ties: more cores, then larger K blocks)."""
    fmt = device.DATA_FORMATS[dtype][0] if dtype in device.DATA_FORMATS else dtype
    found = [estimate(m, n, k, c, device_name, fidelity, fmt) for c in candidates(m, n, k, device_name, dtype)]
    if not found:
        raise TileLangError(f"GEMM block picker: no block of 1 to {max(BLOCK_TILES)} tiles shards a {m}x{n} output "
                            f"uniformly on {device_name}'s {_device(device_name).core_grid} grid with K={k} in "
                            f"{BLOCK_K_TILES}-tile steps")
    return sorted(found, key=lambda b: (b.seconds, -b.cores[0] * b.cores[1], -b.block_k))
