"""Time to lower the standard TileLang GEMM (1024^3, blocks 128x128x32, bf16 with fp32 accumulation)
through the whole Tenstorrent pipeline (stages A-E, three verified kernels) and the Metalium code generator
(reader/compute/writer C++, main.cpp, tt.plan.json), against the `llvm` backend
lowering the same kernel in the same run (its passes plus LLVM code generation). Then the pass pipeline alone
(lower_and_legalize_tt + optimize_tenstorrent, the C++ passes), as a share of `tilelang.lower`, and per-pass
times as shares of the Tenstorrent passes.

Run: .venv/bin/python benchmarks/bench_tt_lower.py
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tvm

import tilelang
from tilelang import transform
from tilelang.engine import pipelines
from tilelang.engine.registry import BACKENDS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import layers  # noqa: E402, F401  (and the layer folders of tests/, where the standard kernels are)
from test_language_llvm import matmul  # noqa: E402  (the standard TileLang GEMM, verbatim)

REPEATS = 5


def best(action: Callable[[], Any]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    kernel = matmul(1024, 1024, 1024, 128, 128, 32, dtype="bfloat16", accum_dtype="float")
    llvm_kernel = matmul(1024, 1024, 1024, 128, 128, 32, dtype="float16", accum_dtype="float")
    llvm = best(lambda: tilelang.lower(llvm_kernel, target="llvm"))
    tt = best(lambda: tilelang.lower(kernel, target="tenstorrent"))
    print("GEMM 1024^3, blocks 128x128x32")
    print(f"  llvm lower + codegen (baseline)            {llvm * 1e3:8.1f} ms   1.00x")
    print(f"  tenstorrent lower (A-E) + Metalium codegen {tt * 1e3:8.1f} ms   {tt / llvm:.2f}x")

    target = BACKENDS["tenstorrent"].make_target(None)

    def pipeline() -> None:
        with target:
            pipelines.optimize_tenstorrent(pipelines.lower_and_legalize_tt(tvm.IRModule({"main": kernel}), target),
                                           target)

    passes = best(pipeline)
    print(f"  of which the pass pipeline alone           {passes * 1e3:8.1f} ms   {passes / tt:6.1%} of lower")
    with target:
        mod = pipelines.lower_and_legalize_tt(tvm.IRModule({"main": kernel}), target)
        shares = []
        for name in pipelines.PIPELINE_STEPS["optimize_tenstorrent"]:
            p = getattr(transform, name)()
            start = time.perf_counter()
            mod = p(mod)
            shares.append((name, time.perf_counter() - start))
    total = sum(t for _, t in shares)
    print("  per pass (share of the Tenstorrent passes):")
    for name, t in shares:
        print(f"    {name:<24} {t / total:6.1%}")


if __name__ == "__main__":
    main()
