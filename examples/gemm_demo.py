"""The standard TileLang GEMM, compiled by `tilelang` for the CPU (llvm) and checked against numpy.

`make demo` runs the Tenstorrent version (examples/tt_gemm_demo.py); this one shows the CPU backend.
Run: .venv/bin/python examples/gemm_demo.py
"""

from __future__ import annotations

import time

import numpy as np

import tilelang
import tilelang.language as T


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
    M, N, K = 512, 256, 384
    start = time.perf_counter()
    kernel = tilelang.compile(matmul(M, N, K, 64, 64, 32), out_idx=[-1], target="llvm")
    compiled = time.perf_counter() - start
    rng = np.random.default_rng(0)
    a = rng.standard_normal((M, K)).astype("float16")
    b = rng.standard_normal((K, N)).astype("float16")
    start = time.perf_counter()
    c = kernel(a, b)
    ran = time.perf_counter() - start
    reference = a.astype("float32") @ b.astype("float32")
    error = float(np.abs(c.astype("float32") - reference).max() / np.abs(reference).max())
    print(f"GEMM {M}x{N}x{K} fp16 (fp32 accumulation) on llvm: compiled in {compiled * 1000:.0f} ms, "
          f"ran in {ran * 1000:.0f} ms, max relative error vs numpy {error:.2e}")
    if error > 1e-2:
        raise SystemExit("result does not match numpy")


if __name__ == "__main__":
    main()
