"""The Blackhole p150 part of `make bench` (benchmarks/bench_tt_perf.py): the generated GEMM compiled for p150
(`target="tenstorrent:p150"`, its 13x10 grid), run once in the emulator and modelled with p150's measured facts
(specs/backends/tenstorrent.yaml device.devices.p150.perf), next to tt-metal's published P150 figure nearest in work
(GEMM_FLOPS.md's P150 table has no 1024^3/2048^3/4096^3 rows: its shapes are multiples of the 13x10 grid), and the
model's share of the published P150 rows within 15 % (tests/tenstorrent/test_tt_perf_calibration_p150.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import yaml

import tilelang
from tilelang.tenstorrent import device, perf_model, tt_metal_matmul

PUBLISHED = Path(__file__).resolve().parent.parent / "tests" / "data" / "tt_metal_published.yaml"
DEVICE = "p150"
N150_GRID = (8, 8)


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


def p150_rows(winners: dict[int, tuple[int, int, int, bool]], matmul: Any, multicast_key: str,
              fidelities: tuple[str, ...]) -> None:
    """`winners`: per size, the n150 tuning's blocks, compiled here for p150."""
    measured = device.PERF_BY_DEVICE[DEVICE]["measured"]
    print(f"GEMM bf16 on Blackhole p150 (13x10 grid), modelled with its measured rates (clock "
          f"{measured['clock_hz'] / 1e9:.3f} GHz) vs tt-metal's published P150 figure nearest in work")
    print(f"  {'size':>6} {'fidelity':>8} {'ours TF/s':>9} {'(blocks)':>15} {'tt-metal TF/s':>13} "
          f"{'(shape, dtype, trace)':>34} {'model of it':>11} {'ours/published':>14}")
    for size, blocks in winners.items():
        kernel = run(size, blocks, matmul, multicast_key)
        for fidelity in fidelities:
            ours = perf_model.estimate_kernel(kernel, fidelity=fidelity).tflops
            row = nearest(size, fidelity)
            modelled = tt_metal_matmul.tflops(tt_metal_config(row), row["use_trace"])
            where = (f"({row['m']}x{row['k']}x{row['n']}, {row['dtype'].lower()}, "
                     f"{'trace' if row['use_trace'] else 'no trace'})")
            print(f"  {size:>5}^3 {fidelity:>8} {ours:>9.1f} {'x'.join(map(str, blocks[:3])):>15} "
                  f"{row['tflops']:>13.2f} {where:>34} {modelled:>11.1f} {ours / row['tflops']:>14.2f}")
    rows = published()
    within = sum(1 for r in rows if abs(tt_metal_matmul.tflops(tt_metal_config(r), r["use_trace"]) /
                                        (2 * r["m"] * r["k"] * r["n"] / r["inference_time_avg_ns"] / 1e3) - 1) <= 0.15)
    print(f"  the model predicts {within} of tt-metal's {len(rows)} published P150 GEMM rows within 15 % "
          f"({within / len(rows):.0%}; the others and why: tests/data/tt_metal_published.yaml gemm_p150.unmatched)")
