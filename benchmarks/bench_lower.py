"""Lowering time of the standard TileLang GEMM (1024^3, blocks 64x64x32) for the llvm backend.

The kernel is the verbatim TileLang GEMM of tests/language/test_language_llvm.py. Baseline measured in the same
run: `tvm.compile` of the equivalent plain-TIR matmul (three loops, no tile ops), i.e. what TVM alone
spends on a kernel of this size. Printed figures are ratios against it.

Run: .venv/bin/python benchmarks/bench_lower.py
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tvm
from tvm.script import tirx as S

import tilelang
from tilelang.engine.registry import BACKENDS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import layers  # noqa: E402, F401  (and the layer folders of tests/, where the standard kernels are)
from test_language_llvm import matmul  # noqa: E402  (the standard TileLang GEMM, verbatim)

M = N = K = 1024
REPEATS = 5


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
