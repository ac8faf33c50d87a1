"""The Blackhole p150 part of `make bench` (benchmarks/bench_tt_perf.py): the generated GEMM compiled for p150
(`target="tenstorrent:p150"`, its 13x10 grid), run once in the emulator and modelled with p150's measured facts
(specs/backends/tenstorrent.yaml device.devices.p150.perf), next to tt-metal's published P150 figure nearest in work
(GEMM_FLOPS.md's P150 table has no 1024^3/2048^3/4096^3 rows: its shapes are multiples of the 13x10 grid), and the
model's share of the published P150 rows within 15 % (tests/tenstorrent/test_tt_perf_calibration_p150.py). Each size
runs twice: with the n150 tuning's blocks (Wormhole's 8x8 grid: 64 of p150's 130 cores) and with the blocks of the
p150 block picker (tilelang.tenstorrent.gemm_blocks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import yaml

import tilelang
from tilelang.tenstorrent import device, gemm_blocks, perf_model, tt_metal_matmul

PUBLISHED = Path(__file__).resolve().parent.parent / "tests" / "data" / "tt_metal_published.yaml"
DEVICE = "p150"
N150_GRID = (8, 8)
PICKED = {1024: 3, 2048: 2}  # picker candidates emulated per size (one 4096^3 emulation takes minutes)


def published() -> list[dict[str, Any]]:
    gemm = yaml.safe_load(PUBLISHED.read_text("utf-8"))["gemm_p150"]
    return [dict(zip(gemm["row_columns"], r, strict=True)) for r in gemm["rows"]]


def tt_metal_config(row: dict[str, Any]) -> tt_metal_matmul.MatmulConfig:
    """The row's configuration: the per-core blocks of the N150 configuration of its shape scaled to 8x8."""
    doc = yaml.safe_load(PUBLISHED.read_text("utf-8"))
    gx, gy = doc["gemm_p150"]["grid"]
    scaled = [row["m"] * N150_GRID[1] // gy, row["k"] * N150_GRID[0] // gx, row["n"] * N150_GRID[0] // gx]
    values = next(c for c in doc["gemm"]["configs"][row["dtype"]] if c[:3] == scaled)
    blocks = dict(zip(doc["gemm"]["config_columns"][3:], values[3:], strict=True))
    fmt = doc["gemm"]["formats"][row["dtype"]]
    return tt_metal_matmul.MatmulConfig(row["m"], row["k"], row["n"], fmt["data_format"], fmt["tile_bytes"],
                                        row["math_fidelity"], grid=(gx, gy), device_name=DEVICE, **blocks)


def nearest(size: int, fidelity: str) -> dict[str, Any]:
    """The published P150 row nearest to size^3 in work at `fidelity` (bf16 where published, traced first)."""
    rows = [r for r in published() if r["math_fidelity"] == fidelity]
    return min(rows, key=lambda r: (abs(np.log(r["m"] * r["k"] * r["n"] / size ** 3)), r["dtype"] != "BFLOAT16",
                                    not r["use_trace"]))


def run(size: int, blocks: tuple[int, int, int, bool], matmul: Any, multicast_key: str) -> Any:
    bm, bn, bk, multicast = blocks
    kernel = tilelang.compile(matmul(size, size, size, bm, bn, bk, dtype="bfloat16"), out_idx=[-1],
                              target=f"tenstorrent:{DEVICE}", pass_configs={multicast_key: multicast})
    rng = np.random.default_rng(size)
    a = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    kernel(a, a)
    return kernel


def picked(size: int, matmul: Any, multicast_key: str) -> tuple[tuple[int, int, int, bool], Any]:
    """p150's own blocks: the block picker's first candidates (tilelang.tenstorrent.gemm_blocks, from p150's grid,
    L1 and rates), each emulated once, the calibrated model's fastest at HiFi4."""
    tried = [(b.config + (True,)) for b in gemm_blocks.ranked(size, size, size, DEVICE)[:PICKED.get(size, 1)]]
    kernels = {cfg: run(size, cfg, matmul, multicast_key) for cfg in tried}
    best = max(kernels, key=lambda cfg: perf_model.estimate_kernel(kernels[cfg]).tflops)
    return best, kernels[best]


def p150_rows(winners: dict[int, tuple[int, int, int, bool]], matmul: Any, multicast_key: str,
              fidelities: tuple[str, ...]) -> None:
    """`winners`: per size, the n150 tuning's blocks, compiled here for p150 (before), next to the p150 picker's."""
    measured = device.PERF_BY_DEVICE[DEVICE]["measured"]
    print(f"GEMM bf16 on Blackhole p150 (13x10 grid), modelled with its measured rates (clock "
          f"{measured['clock_hz'] / 1e9:.3f} GHz) vs tt-metal's published P150 figure nearest in work; blocks: "
          "n150's tuning (before) and the p150 block picker's (after)")
    print(f"  {'size':>6} {'fidelity':>8} {'blocks':>8} {'ours TF/s':>9} {'(blocks, cores)':>20} {'tt-metal TF/s':>13} "
          f"{'(shape, dtype, trace)':>34} {'model of it':>11} {'ours/published':>14}")
    for size, blocks in winners.items():
        picks = {"n150's": (blocks, run(size, blocks, matmul, multicast_key)),
                 "p150's": picked(size, matmul, multicast_key)}
        for fidelity in fidelities:
            row = nearest(size, fidelity)
            modelled = tt_metal_matmul.tflops(tt_metal_config(row), row["use_trace"])
            where = (f"({row['m']}x{row['k']}x{row['n']}, {row['dtype'].lower()}, "
                     f"{'trace' if row['use_trace'] else 'no trace'})")
            for name, (cfg, kernel) in picks.items():
                ours = perf_model.estimate_kernel(kernel, fidelity=fidelity).tflops
                used = f"{'x'.join(map(str, cfg[:3]))}, {len(kernel.artifact.rt_mod.plan['work_partition'])}"
                print(f"  {size:>5}^3 {fidelity:>8} {name:>8} {ours:>9.1f} {used:>20} {row['tflops']:>13.2f} "
                      f"{where:>34} {modelled:>11.1f} {ours / row['tflops']:>14.2f}")
    rows = published()
    within = sum(1 for r in rows if abs(tt_metal_matmul.tflops(tt_metal_config(r), r["use_trace"]) /
                                        (2 * r["m"] * r["k"] * r["n"] / r["inference_time_avg_ns"] / 1e3) - 1) <= 0.15)
    print(f"  the model predicts {within} of tt-metal's {len(rows)} published P150 GEMM rows within 15 % "
          f"({within / len(rows):.0%}; the others and why: tests/data/tt_metal_published.yaml gemm_p150.unmatched)")
