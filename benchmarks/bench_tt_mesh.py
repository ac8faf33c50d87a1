"""Modelled scaling of TileLang kernels over Tenstorrent meshes (issue 30): 1 -> 2 -> 8 -> 32 Wormhole chips (n150,
n300, T3000, Galaxy: the system records of specs/backends/tenstorrent.yaml), for a GEMM split by its output grid, the
same GEMM split along K (split-K: the host adds the partials), and flash attention with its heads over the chips.

Every configuration is compiled for its mesh, run once in the emulator (every chip emulated, against nothing: the
tests check the values), and modelled by tilelang.tenstorrent.mesh_perf: the per-device time of the calibrated
single-chip model (the busiest chip; all run at once) plus the host's PCIe transfers to and from each chip and the
Ethernet links between chips (rates published by tt-metal and tt-umd, cited in the spec's device.links). Speedups are
ratios against the 1-chip figure of the same run: `device` compares the device time alone, `total` the whole run
with the host's transfers. For split-K `fabric` also models reducing the partials with an all_reduce on the Ethernet
fabric instead of on the host (not what the host program does: see docs/tenstorrent.md). Nothing here ran on
hardware: every figure is modelled.

Run: .venv/bin/python benchmarks/bench_tt_mesh.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

import tilelang
from tilelang.tenstorrent import mesh_perf

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import layers  # noqa: E402, F401  (and the layer folders of tests/, where the standard kernels are)
from test_language_llvm import matmul  # noqa: E402  (TileLang's GEMM body)
from tt_attention_kernels import flashattn  # noqa: E402  (TileLang's flash-attention body)

# (chips, system record or None for one chip): 1 -> 2 -> 8 -> 32 Wormhole chips.
SYSTEMS = [(1, None), (2, "n300"), (8, "t3k"), (32, "galaxy")]
GEMM = (1024, 1024, 512, 64, 64, 64)  # M, N, K, block_M, block_N, block_K (bf16)
ATTENTION = (1, 32, 512, 64, 64)  # batch, heads, sequence, head dim, block (fp16, not causal)
# Split-K: the mesh axis that splits K (the other splits the output's columns).
REDUCE_AXIS = {"n300": "cols", "t3k": "rows", "galaxy": "rows"}


def run(kind: str, system: str | None) -> tuple[mesh_perf.MeshEstimate, float]:
    """Compile, emulate once and model one configuration; the emulated seconds (the run alone) beside it."""
    target = f"tenstorrent:{system}" if system else "tenstorrent"
    rng = np.random.default_rng(30)
    if kind == "flash attention":
        b, h, s, d, block = ATTENTION
        configs = {"tl.PartitionTTMesh.grid_axes": "yy"} if system else {}  # the heads over both mesh axes
        kernel = tilelang.compile(flashattn(b, h, s, s, d, False, block, block), out_idx=[3], target=target,
                                  pass_configs=configs)
        inputs: list[Any] = [rng.standard_normal((b, h, s, d)).astype(np.float16) for _ in range(3)]
    else:
        m, n, k, bm, bn, bk = GEMM
        configs = {"tl.PartitionTTMesh.reduce_axis": REDUCE_AXIS[system]} if system and kind == "GEMM split-K" else {}
        kernel = tilelang.compile(matmul(m, n, k, bm, bn, bk, dtype="bfloat16"), out_idx=[-1], target=target,
                                  pass_configs=configs)
        inputs = [rng.uniform(-1, 1, shape).astype(ml_dtypes.bfloat16) for shape in ((m, k), (k, n))]
    start = time.perf_counter()
    kernel(*inputs)
    return mesh_perf.estimate_kernel(kernel, system), time.perf_counter() - start


def main() -> None:
    m, n, k, bm, bn, bk = GEMM
    b, h, s, d, block = ATTENTION
    print(f"modelled scaling over Wormhole meshes (n150, n300, T3000, Galaxy); GEMM {m}x{n}x{k} bf16 blocks "
          f"{bm}x{bn}x{bk}; flash attention B={b} H={h} S={s} D={d} fp16 block {block}")
    print(f"  {'kernel':<16} {'chips':>5} {'system':>7} {'host in us':>10} {'device us':>9} {'host out us':>11} "
          f"{'total us':>9} {'device x':>8} {'total x':>7} {'fabric x':>8} {'emulated s':>10}")
    for kind in ("GEMM grid", "GEMM split-K", "flash attention"):
        base: mesh_perf.MeshEstimate | None = None
        for chips, system in SYSTEMS:
            est, took = run(kind, system)
            base = base or est
            fabric = (f"{base.total_seconds / est.fabric_total_seconds:>8.2f}" if est.reduce_parts > 1
                      else f"{'':>8}")
            print(f"  {kind:<16} {chips:>5} {system or 'n150':>7} {est.host_in_seconds * 1e6:>10.1f} "
                  f"{est.device_seconds * 1e6:>9.1f} {est.host_out_seconds * 1e6:>11.1f} "
                  f"{est.total_seconds * 1e6:>9.1f} "
                  f"{base.device_seconds / est.device_seconds:>8.2f} {base.total_seconds / est.total_seconds:>7.2f} "
                  f"{fabric} {took:>10.1f}")
    print("  device x / total x: the 1-chip figure over this one (device time alone / with the host's PCIe "
          "transfers); fabric x: split-K with its partials all-reduced over Ethernet instead (modelled only)")


if __name__ == "__main__":
    main()
