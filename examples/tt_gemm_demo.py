"""`make demo`: the standard TileLang GEMM compiled for Tenstorrent and run in the Metalium emulator.

The kernel source is TileLang's GEMM example, unchanged. tilelang lowers it through the Tenstorrent pipeline
(specs/pipelines/optimize_tenstorrent.yaml), writes reader/compute/writer kernels, main.cpp, CMakeLists.txt and
tt.plan.json to a folder, builds main.cpp against the emulator (kernels are compiled at run time, as tt-metal
does), runs it on an 8x8 Wormhole grid and compares the result with numpy; saved again after the run, the folder
also holds tt.trace.json, the performance model's timeline of the run (Perfetto, chrome://tracing).

Run: .venv/bin/python examples/tt_gemm_demo.py [--out DIR] [--size M N K] [--block BM BN BK]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import ml_dtypes
import numpy as np

import tilelang
import tilelang.language as T
from tilelang.tenstorrent import perf_model


def matmul(M, N, K, block_M, block_N, block_K, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/tt_gemm"), help="artifact folder")
    parser.add_argument("--size", type=int, nargs=3, default=[512, 512, 512], metavar=("M", "N", "K"))
    parser.add_argument("--block", type=int, nargs=3, default=[64, 64, 32], metavar=("BM", "BN", "BK"))
    args = parser.parse_args()
    (M, N, K), (BM, BN, BK) = args.size, args.block

    start = time.perf_counter()
    kernel = tilelang.compile(matmul(M, N, K, BM, BN, BK, dtype="bfloat16"), out_idx=[-1], target="tenstorrent")
    compiled = time.perf_counter() - start
    folder = kernel.save(args.out).resolve()

    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (M, K)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (K, N)).astype(ml_dtypes.bfloat16)
    start = time.perf_counter()
    c = kernel(a, b)
    ran = time.perf_counter() - start
    reference = a.astype(np.float32) @ b.astype(np.float32)
    error = float(np.abs(c.astype(np.float32) - reference).max() / np.abs(reference).max())

    report = kernel.last_report
    (folder / "tt.report.json").write_text(json.dumps(report, indent=1) + "\n", "utf-8")
    total, cores, plan = report["total"], report["cores"], kernel.artifact.rt_mod.plan
    print(f"GEMM {M}x{N}x{K} bf16 (fp32 accumulation), blocks {BM}x{BN}x{BK}, on the Tenstorrent emulator")
    print(f"  lowered + Metalium codegen in {compiled * 1000:.0f} ms; built and emulated in {ran:.2f} s "
          f"on {len(cores)} cores")
    print(f"  max relative error vs numpy: {error:.2e} (bf16 output)")
    mib = 2.0**20
    print(f"  DRAM read {total['dram_bytes_read'] / mib:.2f} MiB, written {total['dram_bytes_written'] / mib:.2f} "
          f"MiB; NoC reads {total['noc_reads']}, writes {total['noc_writes']}; matmul_tiles {total['matmul_tiles']}, "
          f"pack_tile {total['pack_tiles']}")
    sent = total["noc_multicast_bytes"] + total["noc_multicast_linked_bytes"]
    semaphores = ", ".join(s["name"] for s in plan["semaphores"])
    print(f"  multicast: {total['noc_multicast_writes']} blocks, {sent / mib:.2f} MiB sent (linked to their valid "
          f"flags: {total['noc_multicast_linked_bytes'] / mib:.2f} MiB; A along core rows, B down core columns; "
          f"semaphores {semaphores})")
    estimate = perf_model.estimate_kernel(kernel)
    print(f"  modelled on Wormhole n150: {estimate.modelled_seconds * 1e6:.1f} us ({estimate.bound}-bound), "
          f"roofline {estimate.roofline_seconds * 1e6:.1f} us, ratio {estimate.ratio:.2f}")
    kernel.save(folder)  # after the run: also tt.trace.json, the model's timeline of it
    print(f"  timeline (the model's, per core and RISC-V): {folder}/tt.trace.json (open it in https://ui.perfetto.dev "
          "or chrome://tracing)")
    files = ", ".join(sorted(p.name for p in folder.iterdir() if p.is_file()))
    print(f"  artifacts and counters (tt.report.json): {folder}/ ({files})")
    if error > 2.0**-7:
        raise SystemExit("result does not match numpy")


if __name__ == "__main__":
    main()
