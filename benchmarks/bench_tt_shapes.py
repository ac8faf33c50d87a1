"""A ragged GEMM on Tenstorrent (issue 28): 1000x1000x1000, whose tensors are padded in DRAM to whole tiles and
blocks (1024^3 with 64x64x32 or 128x128x64 blocks), against the padded 1024^3 GEMM itself, in one run.

Per shape and block config: the emulated time (a warm run: host program and kernels cached; the host program pads
and crops the ragged tensors), the modelled device time (`tilelang.tenstorrent.perf_model` over the run's counters),
the DRAM bytes the kernel moved, and the padding: elements DRAM holds against the user's.

Run: .venv/bin/python benchmarks/bench_tt_shapes.py
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import ml_dtypes
import numpy as np

import tilelang
from tilelang.tenstorrent import perf_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import layers  # noqa: E402, F401  (and the layer folders of tests/, where the standard kernels are)
from test_language_llvm import matmul  # noqa: E402  (the standard TileLang GEMM, verbatim)

SHAPES = (1000, 1024)
BLOCKS = ((64, 64, 32), (128, 128, 64))


def run(size: int, blocks: tuple[int, int, int]) -> None:
    rng = np.random.default_rng(size)
    a = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(matmul(size, size, size, *blocks, dtype="bfloat16"), out_idx=[-1], target="tenstorrent")
    c = kernel(a, b)  # cold: builds the host program and compiles the kernels
    start = time.perf_counter()
    c = kernel(a, b)
    emulated = time.perf_counter() - start
    err = np.abs(c.astype(np.float32) - a.astype(np.float32) @ b.astype(np.float32)).max()
    est = perf_model.estimate_kernel(kernel)
    tensors = kernel.artifact.rt_mod.plan["tensors"]
    held = sum(math.prod(t["padded_shape"]) for t in tensors if t.get("constant") is None)
    user = sum(math.prod(t["shape"]) for t in tensors if t.get("constant") is None)
    label = "x".join(map(str, blocks))
    tflops = 2 * size ** 3 / est.modelled_seconds / 1e12
    print(f"  {size:>5}^3 {label:>11} {emulated:>9.3f} {est.modelled_seconds * 1e6:>11.1f} {tflops:>7.1f} "
          f"{est.dram_bytes / 1e6:>9.2f} {held / user - 1:>8.1%} {err:>8.3f}")


def main() -> None:
    print("GEMM bf16 (fp32 accumulation) on the emulated 8x8 Wormhole grid: ragged 1000^3 vs padded 1024^3")
    print(f"  {'shape':>7} {'blocks':>11} {'emulated s':>9} {'model us':>11} {'TFLOPs':>7} {'DRAM MB':>9} "
          f"{'padding':>8} {'max err':>8}")
    for blocks in BLOCKS:
        for size in SHAPES:
            run(size, blocks)
    print("TFLOPs: the user's flops (2 * M * N * K) over the modelled time; padding: elements DRAM holds beyond the "
          "user's, all tensors.")


if __name__ == "__main__":
    main()
