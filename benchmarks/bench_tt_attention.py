"""Modelled Wormhole n150 performance of TileLang's flash-attention forward (issues 16, 28) on Tenstorrent.

The kernel is tests/tt_attention_kernels.flashattn (upstream's current example_mha_fwd_bhsd.py body, fp16
Q/K/V/Output, fp32 accumulation), compiled with `tilelang.compile(..., target="tenstorrent")`, run once in the
Metalium emulator, and its counters go through the calibrated `tilelang.tenstorrent.perf_model`. Nothing here ran on
hardware. Printed per block size and causal or not: modelled time against the roofline (compute and DRAM bounds at
the device's peaks), the bound, the DRAM bytes against the minimum (Q, K, V read once and O written once: the
compulsory bytes of the plan's tensors; a causal kernel also reads its mask table's tiles), and the emulated time
(the emulator run alone, compilation excluded). Non-causal, the key-bound mask folds away (block_N divides S);
causal, the loop bound skips the key blocks above the diagonal and every key block reads its acc_s tiles from the
mask table, so causal costs about half plus the mask's reads and adds. Every Q block reads all of its head's K and V
blocks (causal: those up to the diagonal); cores working on one head share them by multicast where the partition
puts them together (PlanTTMulticast; causal, the key blocks every core of the row runs, the rest read per core).

Run: .venv/bin/python benchmarks/bench_tt_attention.py [--size B,H,S,D]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import tilelang
from tilelang.tenstorrent import perf_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import layers  # noqa: E402, F401  (and the layer folders of tests/, where the standard kernels are)
from tt_attention_kernels import flashattn  # noqa: E402  (TileLang's flash-attention body)

BLOCKS = (32, 64)


def run(batch: int, heads: int, seq: int, dim: int, block: int, causal: bool) -> tuple[perf_model.PerfEstimate, float]:
    """The modelled estimate and the emulated seconds of one run."""
    kernel = tilelang.compile(flashattn(batch, heads, seq, seq, dim, causal, block, block), out_idx=[3],
                              target="tenstorrent")
    rng = np.random.default_rng(block)
    q, k, v = (rng.standard_normal((batch, heads, seq, dim)).astype(np.float16) for _ in range(3))
    start = time.perf_counter()
    kernel(q, k, v)
    took = time.perf_counter() - start
    return perf_model.estimate_kernel(kernel), took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="1,8,1024,64", help="B,H,S,D (default 1,8,1024,64)")
    batch, heads, seq, dim = (int(x) for x in parser.parse_args().size.split(","))
    print(f"flash-attention forward B={batch} H={heads} S={seq} D={dim}, fp16 (modelled, HiFi4)")
    print(f"  {'block':>5} {'causal':>6} {'model us':>9} {'roof us':>8} {'ratio':>6} {'bound':>7} {'DRAM MB':>8} "
          f"{'min MB':>7} {'DRAM/min':>8} {'emulated s':>10} {'causal/non':>10}")
    for block in BLOCKS:
        full = None
        for causal in (False, True):
            est, took = run(batch, heads, seq, dim, block, causal)
            versus = "" if full is None else (f"{est.modelled_seconds / full[0].modelled_seconds:.2f}m "
                                              f"{took / full[1]:.2f}e")
            print(f"  {block:>5} {str(causal):>6} {est.modelled_seconds * 1e6:>9.1f} "
                  f"{est.roofline_seconds * 1e6:>8.1f} {est.ratio:>6.2f} {est.bound:>7} {est.dram_bytes / 1e6:>8.2f} "
                  f"{est.compulsory_dram_bytes / 1e6:>7.2f} {est.dram_bytes / est.compulsory_dram_bytes:>8.2f} "
                  f"{took:>10.2f} {versus:>10}")
            full = full or (est, took)
    print("  causal/non: modelled (m) and emulated (e) time of the causal kernel over the non-causal one")


if __name__ == "__main__":
    main()
