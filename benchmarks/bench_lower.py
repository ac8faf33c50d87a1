"""Lowering time of the standard TileLang GEMM (1024^3, blocks 64x64x32) for the llvm backend.

Baseline measured in the same run: `tvm.compile` of the equivalent plain-TIR matmul (three loops, no tile
ops), i.e. what TVM alone spends on a kernel of this size. Printed figures are ratios against it.

Run: .venv/bin/python benchmarks/bench_lower.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import tvm
from tvm.script import tirx as S

import tilelang
import tilelang.language as T
from tilelang.engine.registry import BACKENDS

M = N = K = 1024
REPEATS = 5


def matmul(M: int, N: int, K: int, block_M: int, block_N: int, block_K: int, dtype: str = "float16",
           accum_dtype: str = "float") -> Any:
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


@S.prim_func
def plain_matmul(A: S.Buffer((M, K), "float16"), B: S.Buffer((K, N), "float16"), C: S.Buffer((M, N), "float16")):
    for i, j in S.grid(M, N):
        C[i, j] = S.float16(0)
        for k in range(K):
            C[i, j] = C[i, j] + A[i, k] * B[k, j]


def best(action: Callable[[], Any]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    target = BACKENDS["llvm"].make_target()
    kernel = matmul(M, N, K, 64, 64, 32)
    tilelang.lower(kernel, target="llvm")  # warm-up: imports, LLVM initialisation
    baseline = best(lambda: tvm.compile(plain_matmul, target=target))
    parse = best(lambda: matmul(M, N, K, 64, 64, 32))
    passes = best(lambda: tilelang.lower(kernel, target="llvm", enable_device_compile=False))
    full = best(lambda: tilelang.lower(kernel, target="llvm"))
    print(f"baseline: tvm.compile of a plain-TIR 1024^3 matmul: {baseline * 1000:.1f} ms")
    print(f"parse of the TileLang GEMM: {parse * 1000:.1f} ms = {parse / baseline:.2f}x baseline")
    print(f"tilelang.lower passes only (legalize + optimize, no codegen): {passes * 1000:.1f} ms = "
          f"{passes / baseline:.2f}x baseline")
    print(f"tilelang.lower llvm end to end (passes + LLVM codegen): {full * 1000:.1f} ms = "
          f"{full / baseline:.2f}x baseline")


if __name__ == "__main__":
    main()
