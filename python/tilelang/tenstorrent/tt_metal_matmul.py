"""tt-metal's 2D multicast matmul as the performance model sees a kernel: a plan and per-core counters.

`ttnn.matmul` with `MatmulMultiCoreReuseMultiCastProgramConfig` (the configuration of tt-metal's published GEMM
benchmark, tests/ttnn/unit_tests/benchmarks/test_benchmark.py::test_matmul_2d_host_perf) splits C over the core
grid, per_core_m x per_core_n tiles per core, in out blocks of out_block_h x out_block_w, and walks K in blocks
of in0_block_w tiles. Per step the in0 block goes along each core row (from the core that holds it in L1 when in0
is block-sharded, else read from DRAM by column 0) and the in1 block down each core column (read from DRAM by
row 0), both with linked multicasts and a semaphore handshake per block on every core. C stays in L1 when it is
sharded, else the writer writes each out block to DRAM.

`counters` gives, per core, what the Metalium emulator counts for a kernel (tt.report.json): DRAM bytes, multicast
bytes, tile matmuls, pack tiles (with packer L1 accumulation every output tile is packed once per K block),
semaphore waits. `estimate` then
models the configuration with tilelang.tenstorrent.perf_model, the formula the generated kernels are modelled
with. This module states tt-metal's scheme, not the project's; the project's kernels are counted by the emulator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import device, perf_model
from .records import (
    CB,
    COMPUTE_KERNEL,
    CORE_COUNTERS,
    COUNTERS,
    DEVICE,
    KERNEL,
    KERNELS,
    PLAN,
    REPORT,
    SEMAPHORE,
    TENSOR,
)


@dataclass(frozen=True)
class MatmulConfig:
    """One GEMM configuration of tt-metal's benchmark; block sizes in tiles."""

    m: int
    k: int
    n: int
    data_format: str  # of A, B and C: Float16_b, Bfp8_b, Bfp4_b
    tile_bytes: int
    math_fidelity: str
    in0_block_w: int
    per_core_m: int
    per_core_n: int
    out_block_h: int
    out_block_w: int
    out_subblock_h: int
    out_subblock_w: int
    in0_sharded: bool
    out_sharded: bool
    grid: tuple[int, int] = device.CORE_GRID  # (x, y)
    device_name: str = device.DEVICE  # the device record whose performance facts model it

    def __post_init__(self) -> None:
        tile_m, tile_n = device.TILE
        gx, gy = self.grid
        checks = {
            "per_core_m * grid y * 32 == m": self.per_core_m * gy * tile_m == self.m,
            "per_core_n * grid x * 32 == n": self.per_core_n * gx * tile_n == self.n,
            "in0_block_w divides the K tiles": (self.k // tile_n) % self.in0_block_w == 0,
            "out blocks divide the per-core block": self.per_core_m % self.out_block_h == 0
            and self.per_core_n % self.out_block_w == 0,
            "sub-blocks divide the out block": self.out_block_h % self.out_subblock_h == 0
            and self.out_block_w % self.out_subblock_w == 0,
        }
        broken = [name for name, ok in checks.items() if not ok]
        if broken:
            raise ValueError(f"matmul {self.m}x{self.k}x{self.n}: inconsistent configuration: {', '.join(broken)}")

    @property
    def k_tiles(self) -> int:
        return self.k // device.TILE[1]

    @property
    def steps(self) -> int:
        """K-block steps of one core: every out block walks all K blocks."""
        out_blocks = (self.per_core_m // self.out_block_h) * (self.per_core_n // self.out_block_w)
        return out_blocks * (self.k_tiles // self.in0_block_w)

    @property
    def flops(self) -> int:
        return 2 * self.m * self.k * self.n


def _core_counters(cfg: MatmulConfig, x: int, y: int) -> dict[str, Any]:
    tb = cfg.tile_bytes
    in0_block = cfg.out_block_h * cfg.in0_block_w * tb
    in1_block = cfg.in0_block_w * cfg.out_block_w * tb
    read = multicast = 0
    if y == 0:  # in1 sender: reads its column's block from DRAM, multicasts it down the column
        read += cfg.steps * in1_block
        multicast += cfg.steps * in1_block
    if cfg.in0_sharded:  # each core multicasts the K blocks its shard holds along its row
        multicast += cfg.steps // cfg.grid[0] * in0_block
    elif x == 0:
        read += cfg.steps * in0_block
        multicast += cfg.steps * in0_block
    out_tiles = cfg.per_core_m * cfg.per_core_n
    return {CORE_COUNTERS.CORE: [x, y], COUNTERS.MATMUL_TILES: out_tiles * cfg.k_tiles,
            COUNTERS.PACK_TILES: out_tiles * (cfg.k_tiles // cfg.in0_block_w),
            COUNTERS.DRAM_BYTES_READ: read, COUNTERS.NOC_MULTICAST_LINKED_BYTES: multicast,
            COUNTERS.DRAM_BYTES_WRITTEN: 0 if cfg.out_sharded else out_tiles * tb,
            COUNTERS.SEMAPHORE_WAITS: 2 * cfg.steps}  # the in0 and in1 handshakes of every step


def counters(cfg: MatmulConfig) -> dict[str, Any]:
    """The emulator-style report of the configuration: {"cores": [per-core counters]}."""
    gx, gy = cfg.grid
    return {REPORT.CORES: [_core_counters(cfg, x, y) for y in range(gy) for x in range(gx)]}


def plan(cfg: MatmulConfig) -> dict[str, Any]:
    """The tt.plan.json facts the model reads: tensors, CBs (who feeds and drains the compute kernel), the
    compute kernel's fidelity. in1 comes from tt-metal's in1 sender/writer kernel (BRISC), in0 from its reader."""
    tb, fmt = cfg.tile_bytes, cfg.data_format
    tiles = {"in0": cfg.m * cfg.k, "in1": cfg.k * cfg.n, "out": cfg.m * cfg.n}
    side = device.TILE[0] * device.TILE[1]

    def cb(index: int, producer: str, consumer: str, klass: str, pages: int) -> dict[str, Any]:
        return {CB.INDEX: index, CB.PRODUCER: producer, CB.CONSUMER: consumer, CB.CLASS: klass, CB.BLOCK_PAGES: pages,
                CB.PAGE_BYTES: tb, CB.DATA_FORMAT: fmt}

    return {
        PLAN.KERNEL: f"tt_metal_matmul_{cfg.m}x{cfg.k}x{cfg.n}",
        PLAN.DEVICE: {DEVICE.NAME: cfg.device_name, DEVICE.TILE: list(device.TILE)},
        PLAN.TENSORS: [{TENSOR.NAME: name, TENSOR.PAGES: count // side, TENSOR.PAGE_BYTES: tb}
                       for name, count in tiles.items()],
        PLAN.CBS: [cb(0, "reader", "compute", "input", cfg.out_block_h * cfg.in0_block_w),
                cb(1, "writer", "compute", "input", cfg.in0_block_w * cfg.out_block_w),
                cb(16, "compute", "l1" if cfg.out_sharded else "writer", "output",
                   cfg.out_block_h * cfg.out_block_w)],
        PLAN.SEMAPHORES: [{SEMAPHORE.NAME: f"{t}_{role}_sem", SEMAPHORE.INITIAL_VALUE: 0} for t in ("in0", "in1")
                          for role in ("sender", "receiver")],
        PLAN.KERNELS: {KERNELS.COMPUTE: {KERNEL.NAME: "bmm_large_block_zm_fused_bias_activation",
                                         COMPUTE_KERNEL.MATH_FIDELITY: cfg.math_fidelity}},
    }


def estimate(cfg: MatmulConfig, perf: Mapping[str, Any] | None = None) -> perf_model.PerfEstimate:
    """The performance model's estimate of tt-metal's kernel in this configuration."""
    return perf_model.estimate(plan(cfg), counters(cfg), perf)


def tflops(cfg: MatmulConfig, trace: bool, perf: Mapping[str, Any] | None = None) -> float:
    """Modelled TF/s as tt-metal's benchmark measures it: ops back to back, with trace (device-bound) or without
    (the host's enqueue of each op overlaps the previous one and bounds the rate when it is slower)."""
    est = estimate(cfg, perf)
    return cfg.flops / (est.modelled_seconds if trace else est.host_bound_seconds) / 1e12
