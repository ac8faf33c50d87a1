"""The generated GEMM with C in L1 and B fed by the writer kernel (issue 31; tl.tt.in1_sender, tt-metal's in1 sender),
against the same blocks with one reader for A and B and against tt-metal's published n150 figures, modelled on
Wormhole n150 from one emulated run each (tilelang.tenstorrent.perf_model; nothing here ran on hardware). Per size the
C-in-L1 candidates, K blocks included (2048^3: 128, 256 and 512, as far as L1 holds them), each with and without the
in1 sender; the row's pick is the fastest by the calibrated model at that fidelity, and below 1.0x the bench names
the busiest core's term that exceeds tt-metal's configuration's most (bench_tt_limits.py).

Run: PYTHONPATH=python:. .venv/bin/python benchmarks/bench_tt_in1.py   (also part of bench_tt_perf.py)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import yaml

import tilelang
from tilelang.tenstorrent import gemm_blocks, perf_model, tt_metal_matmul

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import layers  # noqa: E402, F401  (and the layer folders of tests/, where the standard kernels are)
from bench_tt_limits import core_terms, limit  # noqa: E402  (benchmarks/ is this script's folder)
from test_language_llvm import matmul  # noqa: E402  (the standard TileLang GEMM, verbatim)

PUBLISHED = Path(__file__).resolve().parent.parent / "tests" / "data" / "tt_metal_published.yaml"
IN_L1 = {"tl.tt.memory_config": {"C": "l1_sharded"}}
CANDIDATES = {1024: [(128, 128, 128), (128, 128, 256)], 2048: [(256, 256, 128), (256, 256, 256), (256, 256, 512)]}
FIDELITIES = ("HiFi4", "HiFi2")


def run(size: int, blocks: tuple[int, int, int], in1: bool) -> Any:
    """The kernel after one emulated run, or the refusal's text (blocks that do not fit L1)."""
    rng = np.random.default_rng(size)
    a = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    configs = {**IN_L1, gemm_blocks.IN1_SENDER: in1}
    try:
        kernel = tilelang.compile(matmul(size, size, size, *blocks, dtype="bfloat16"), out_idx=[-1],
                                  target="tenstorrent", pass_configs=configs)
    except tilelang.TileLangError as err:
        return str(err).splitlines()[0]
    kernel(a, b)
    return kernel


def published(size: int, fidelity: str) -> tuple[dict[str, Any], tt_metal_matmul.MatmulConfig]:
    """tt-metal's best bf16 n150 figure at that size and fidelity, and its stated configuration."""
    doc = yaml.safe_load(PUBLISHED.read_text("utf-8"))["gemm"]
    rows = [dict(zip(doc["row_columns"], r, strict=True)) for r in doc["rows"]]
    row = max((r for r in rows if r["m"] == r["k"] == r["n"] == size and r["math_fidelity"] == fidelity
               and r["dtype"] == "BFLOAT16"), key=lambda r: r["tflops"])
    values = next(c for c in doc["configs"]["BFLOAT16"] if c[:3] == [size, size, size])
    fmt = doc["formats"]["BFLOAT16"]
    ref = tt_metal_matmul.MatmulConfig(size, size, size, fmt["data_format"], fmt["tile_bytes"], fidelity,
                                       **dict(zip(doc["config_columns"][3:], values[3:], strict=True)))
    return row, ref


def main() -> None:
    start = time.perf_counter()
    print("GEMM bf16, C in L1 (block-sharded), modelled on n150: one reader for A and B vs B from the writer kernel "
          "(tl.tt.in1_sender); ours/published against tt-metal's best bf16 figure")
    print(f"  {'size':>6} {'blocks':>12} {'fidelity':>8} {'one reader':>10} {'in1 sender':>10} {'published':>9} "
          f"{'ours/published':>14}  limit")
    for size, candidates in CANDIDATES.items():
        kernels = {(blocks, in1): run(size, blocks, in1) for blocks in candidates for in1 in (False, True)}
        for blocks in candidates:
            if isinstance(kernels[blocks, False], str):
                print(f"  {size:>5}^3 {'x'.join(map(str, blocks)):>12} refused: {kernels[blocks, False]}")
        ran = {key: k for key, k in kernels.items() if not isinstance(k, str)}
        for fidelity in FIDELITIES:
            row, ref = published(size, fidelity)
            theirs = core_terms(tt_metal_matmul.plan(ref), tt_metal_matmul.counters(ref), fidelity)
            modelled = tt_metal_matmul.tflops(ref, row["use_trace"])
            tflops = {key: perf_model.estimate_kernel(k, fidelity=fidelity).tflops for key, k in ran.items()}
            best = max(tflops, key=lambda key: tflops[key])
            for blocks in candidates:
                if (blocks, False) not in ran:
                    continue
                one, two = tflops[blocks, False], tflops[blocks, True]
                pick = max(one, two)
                kernel = ran[blocks, two > one]
                why = "" if pick >= row["tflops"] else limit(
                    core_terms(kernel.artifact.rt_mod.plan, kernel.last_report, fidelity), theirs, modelled,
                    row["tflops"])
                mark = " <- picked" if best[0] == blocks else ""
                print(f"  {size:>5}^3 {'x'.join(map(str, blocks)):>12} {fidelity:>8} {one:>10.1f} {two:>10.1f} "
                      f"{row['tflops']:>9.2f} {pick / row['tflops']:>14.2f}  {why}{mark}")
    print(f"in1 bench wall time: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
