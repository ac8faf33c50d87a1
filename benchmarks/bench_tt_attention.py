"""Modelled Wormhole n150 performance of TileLang's flash-attention forward (issue 16) on Tenstorrent.

The kernel is tests/tt_attention_kernels.flashattn (TileLang's example body, bf16 Q/K/V/Output, fp32 accumulation,
non-causal), compiled with `tilelang.compile(..., target="tenstorrent")`, run once in the Metalium emulator, and its
counters go through the calibrated `tilelang.tenstorrent.perf_model`. Nothing here ran on hardware. Printed per
block size: modelled time against the roofline (compute and DRAM bounds at the device's peaks), the bound, and the
DRAM bytes against the minimum (Q, K, V read once and O written once: the compulsory bytes of the plan's tensors).
Every Q block reads all of its head's K and V blocks; cores working on one head share them by multicast where the
partition puts them together (PlanTTMulticast), so the DRAM bytes stay within a small factor of the minimum.

Run: .venv/bin/python benchmarks/bench_tt_attention.py [--size B,H,S,D]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import ml_dtypes
import numpy as np

import tilelang
from tilelang.tenstorrent import perf_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from tt_attention_kernels import flashattn  # noqa: E402  (TileLang's flash-attention body)

BLOCKS = (32, 64)


def run(batch: int, heads: int, seq: int, dim: int, block: int) -> perf_model.PerfEstimate:
    kernel = tilelang.compile(flashattn(batch, heads, seq, seq, dim, False, block, block), out_idx=[3],
                              target="tenstorrent")
    rng = np.random.default_rng(block)
    q, k, v = (rng.standard_normal((batch, heads, seq, dim)).astype(ml_dtypes.bfloat16) for _ in range(3))
    kernel(q, k, v)
    return perf_model.estimate_kernel(kernel)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="1,8,1024,64", help="B,H,S,D (default 1,8,1024,64)")
    batch, heads, seq, dim = (int(x) for x in parser.parse_args().size.split(","))
    print(f"flash-attention forward B={batch} H={heads} S={seq} D={dim}, bf16, non-causal (modelled, HiFi4)")
    print(f"  {'block':>5} {'model us':>9} {'roof us':>8} {'ratio':>6} {'bound':>7} {'DRAM MB':>8} {'min MB':>7} "
          f"{'DRAM/min':>8} {'emulated s':>10}")
    for block in BLOCKS:
        start = time.perf_counter()
        est = run(batch, heads, seq, dim, block)
        took = time.perf_counter() - start
        print(f"  {block:>5} {est.modelled_seconds * 1e6:>9.1f} {est.roofline_seconds * 1e6:>8.1f} {est.ratio:>6.2f} "
              f"{est.bound:>7} {est.dram_bytes / 1e6:>8.2f} {est.compulsory_dram_bytes / 1e6:>7.2f} "
              f"{est.dram_bytes / est.compulsory_dram_bytes:>8.2f} {took:>10.1f}")


if __name__ == "__main__":
    main()
