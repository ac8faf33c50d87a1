"""Modelled Wormhole n150 performance of the standard TileLang GEMM and element-wise add, against their rooflines.

Each kernel is compiled with `tilelang.compile(..., target="tenstorrent")`, run once in the Metalium emulator,
and its counters go through `tilelang.tenstorrent.perf_model` (formula in that module and in the README). All
figures below are measured in this one run:

- GEMM 512^3, 1024^3, 2048^3 bf16 (fp32 accumulation), blocks 256x256x128, 256x256x32, 128x128x32 and
  64x64x32 (A and B blocks multicast along core rows and columns, PlanTTMulticast): modelled time / roofline
  bound (target <= 1.25 at 2048^3), and the kernel's DRAM bytes compared with two
  tt-metal schemes, computed from the problem shape: `matmul_multi_core` (no reuse: every output tile reads
  its Kt A tiles and Kt B tiles; target <= 1/4 of its bytes) and `matmul_multicore_reuse` (the output split
  into one per-core block of ceil(Mt/8) x ceil(Nt/8) tiles over the 8x8 grid; each core reads its A rows and
  B columns once).
- The baseline of the same run: the best 2048^3 GEMM compiled again with `pass_configs` turning multicast off
  (every core reads its own A rows and B columns), and with the global partition; ratios of modelled time and
  DRAM bytes against it.
- Element-wise add 2048^2 bf16: modelled time / DRAM-bandwidth bound (target <= 1.2).
- Compile latency of GEMM 1024^3 (blocks 128x128x32) through the whole TT pipeline and Metalium codegen.
- If matplotlib is importable, a PNG of modelled time vs roofline over the GEMM sizes (build/bench_tt_perf.png).

Run: .venv/bin/python benchmarks/bench_tt_perf.py
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

import tilelang
from tilelang.tenstorrent import device, perf_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_language_llvm import elementwise_add, matmul  # noqa: E402  (the standard TileLang kernels, verbatim)

GEMM_SIZES = (512, 1024, 2048)
GEMM_BLOCKS = ((256, 256, 128), (256, 256, 32), (128, 128, 32), (64, 64, 32))
BASELINES = {"no multicast": {"tl.PlanTTMulticast.enabled": False},
             "global partition": {"tl.PartitionTTWork.mode": "global"}}
GEMM_TARGET = 1.25  # modelled / roofline at 2048^3
NO_REUSE_TARGET = 0.25  # our DRAM bytes / matmul_multi_core's
ELTWISE_SIZE = 2048
ELTWISE_BLOCK = 128
ELTWISE_TARGET = 1.2
COMPILE_REPEATS = 5
TILE_BYTES = device.TILE[0] * device.TILE[1] * device.DATA_FORMATS["bfloat16"][1]
PLOT = Path("build/bench_tt_perf.png")


def multi_core_bytes(m: int, n: int, k: int) -> int:
    """tt-metal matmul_multi_core: each output tile reads Kt A tiles and Kt B tiles, then writes itself."""
    mt, nt, kt = m // device.TILE[0], n // device.TILE[1], k // device.TILE[1]
    return (mt * nt * kt * 2 + mt * nt) * TILE_BYTES


def multicore_reuse_bytes(m: int, n: int, k: int) -> int:
    """tt-metal matmul_multicore_reuse: one per-core output block over the grid; A rows and B columns read once
    per block (per K block, summed over K: per_core_M*Kt + Kt*per_core_N tiles), the output written once."""
    mt, nt, kt = m // device.TILE[0], n // device.TILE[1], k // device.TILE[1]
    gx, gy = device.CORE_GRID
    per_m, per_n = math.ceil(mt / gy), math.ceil(nt / gx)
    blocks = math.ceil(mt / per_m) * math.ceil(nt / per_n)
    return (blocks * (per_m * kt + kt * per_n) + mt * nt) * TILE_BYTES


def run(kernel: Any, *arrays: np.ndarray) -> tuple[perf_model.PerfEstimate, float]:
    start = time.perf_counter()
    kernel(*arrays)
    return perf_model.estimate_kernel(kernel), time.perf_counter() - start


def gemm(size: int, blocks: tuple[int, int, int], pass_configs: dict[str, Any] | None = None,
         ) -> tuple[perf_model.PerfEstimate, float]:
    rng = np.random.default_rng(size)
    a = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(matmul(size, size, size, *blocks, dtype="bfloat16"), out_idx=[-1], target="tenstorrent",
                              pass_configs=pass_configs)
    return run(kernel, a, b)


def gemm_rows() -> list[tuple[int, tuple[int, int, int], perf_model.PerfEstimate]]:
    rows = []
    print("GEMM bf16 (fp32 accumulation), modelled on Wormhole n150 (64 cores, 1 GHz, DRAM 288 GB/s)")
    print(f"  {'size':>6} {'blocks':>11} {'cores':>5} {'fid.':>5} {'model us':>9} {'roof us':>8} {'ratio':>6} "
          f"{'bound':>7} {'roof':>7} {'TF/s':>6} {'DRAM MB':>8} {'/no-reuse':>9} {'/reuse':>7} {'emul s':>7}")
    for blocks in GEMM_BLOCKS:
        for size in GEMM_SIZES:
            est, seconds = gemm(size, blocks)
            no_reuse, reuse = multi_core_bytes(size, size, size), multicore_reuse_bytes(size, size, size)
            print(f"  {size:>5}^3 {'x'.join(map(str, blocks)):>11} {len(est.cores):>5} {est.fidelity:>5} "
                  f"{est.modelled_seconds * 1e6:>9.1f} {est.roofline_seconds * 1e6:>8.1f} {est.ratio:>6.2f} "
                  f"{est.bound:>7} {est.roofline_bound:>7} {est.tflops:>6.1f} {est.dram_bytes / 1e6:>8.1f} "
                  f"{est.dram_bytes / no_reuse:>9.3f} {est.dram_bytes / reuse:>7.2f} {seconds:>7.2f}")
            rows.append((size, blocks, est))
    best = min((e.ratio for s, _, e in rows if s == GEMM_SIZES[-1]), default=math.inf)
    verdict = "meets" if best <= GEMM_TARGET else "MISSES"
    print(f"  best modelled/roofline at {GEMM_SIZES[-1]}^3: {best:.2f} ({verdict} the {GEMM_TARGET} target)")
    fewest = min(e.dram_bytes / multi_core_bytes(s, s, s) for s, _, e in rows if s == GEMM_SIZES[-1])
    verdict = "meets" if fewest <= NO_REUSE_TARGET else "MISSES"
    print(f"  best DRAM bytes / matmul_multi_core at {GEMM_SIZES[-1]}^3: {fewest:.3f} "
          f"({verdict} the {NO_REUSE_TARGET} target)")
    return rows


def baseline_rows(rows: list[tuple[int, tuple[int, int, int], perf_model.PerfEstimate]]) -> None:
    size = GEMM_SIZES[-1]
    _, blocks, best = min(((s, b, e) for s, b, e in rows if s == size), key=lambda r: r[2].ratio)
    print(f"GEMM {size}^3 blocks {'x'.join(map(str, blocks))}: multicast against baselines compiled in this run")
    for name, configs in BASELINES.items():
        est, _ = gemm(size, blocks, configs)
        print(f"  vs {name:>16}: modelled {est.modelled_seconds * 1e6:8.1f} us (ratio {est.ratio:.2f}, "
              f"{est.bound}-bound), DRAM {est.dram_bytes / 1e6:6.1f} MB; multicast/baseline: time "
              f"{best.modelled_seconds / est.modelled_seconds:.2f}, DRAM bytes {best.dram_bytes / est.dram_bytes:.3f}")


def eltwise_row() -> None:
    size, block = ELTWISE_SIZE, ELTWISE_BLOCK
    a = np.ones((size, size), ml_dtypes.bfloat16)
    kernel = tilelang.compile(elementwise_add(size, size, block, block, in_dtype="bfloat16", out_dtype="bfloat16"),
                              out_idx=[-1], target="tenstorrent")
    est, seconds = run(kernel, a, a)
    ratio = est.modelled_seconds / est.roofline_dram_seconds
    verdict = "meets" if ratio <= ELTWISE_TARGET else "MISSES"
    print(f"element-wise add {size}^2 bf16, blocks {block}x{block}, {len(est.cores)} cores: modelled "
          f"{est.modelled_seconds * 1e6:.1f} us, DRAM bound {est.roofline_dram_seconds * 1e6:.1f} us, ratio "
          f"{ratio:.2f} ({verdict} the {ELTWISE_TARGET} target; bound: {est.bound}; slowest core compute "
          f"{est.compute_seconds * 1e6:.2f} us, NoC {est.noc_seconds * 1e6:.2f} us; emulated in {seconds:.2f} s)")


def compile_latency() -> None:
    size, blocks = 1024, GEMM_BLOCKS[1]
    times = []
    for _ in range(COMPILE_REPEATS):
        func = matmul(size, size, size, *blocks, dtype="bfloat16")
        start = time.perf_counter()
        kernel = tilelang.compile(func, out_idx=[-1], target="tenstorrent")
        kernel.artifact.rt_mod.plan  # noqa: B018  (codegen done: the plan and sources exist)
        times.append(time.perf_counter() - start)
    print(f"compile latency GEMM {size}^3 (pipeline + Metalium codegen): median {statistics.median(times) * 1e3:.0f} "
          f"ms, min {min(times) * 1e3:.0f} ms over {COMPILE_REPEATS} (first in this process: {times[0] * 1e3:.0f} ms)")


def plot(rows: list[tuple[int, tuple[int, int, int], perf_model.PerfEstimate]]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for blocks in GEMM_BLOCKS:
        sizes = [s for s, b, _ in rows if b == blocks]
        ax.plot(sizes, [e.modelled_seconds * 1e6 for _, b, e in rows if b == blocks], "o-",
                label=f"modelled, blocks {'x'.join(map(str, blocks))}")
    ax.plot(GEMM_SIZES, [e.roofline_seconds * 1e6 for _, b, e in rows if b == GEMM_BLOCKS[0]], "k--",
            label="roofline")
    ax.set(xscale="log", yscale="log", xlabel="M = N = K", ylabel="time (us)",
           title="bf16 GEMM on Wormhole n150 (model)")
    ax.legend()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(PLOT, dpi=120)
    print(f"plot: {PLOT}")


def main() -> None:
    start = time.perf_counter()
    compile_latency()
    rows = gemm_rows()
    baseline_rows(rows)
    eltwise_row()
    plot(rows)
    print(f"benchmark wall time: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
