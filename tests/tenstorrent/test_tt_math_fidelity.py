"""Math fidelity per kernel (issue 31): pass_configs={"tl.tt.math_fidelity": "LoFi"} reaches the plan
(kernels.compute.math_fidelity), the ComputeConfig of main.cpp and run_ttnn.py, the emulator's matrix unit and the
performance model. Each fidelity's GEMM matches numpy's model of its phases (tt-metal tech_reports/matrix_engine:
in1 is SrcA, 1 + 4 significand bits of a phase part, in0 SrcB, 1 + 6; LoFi A.hi x B.hi, HiFi2 adds SrcA's low bits,
HiFi3 SrcB's low bits times SrcA's high ones) to fp32 accumulation order (bf16 operands, a float32 C), and is
farther from the exact product than that tolerance, so a fidelity the emulator did not get fails. One compile and one
64x64x64 run per fidelity."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent import host_args, perf_model

BF16 = ml_dtypes.bfloat16
SIZE, BLOCK = 64, 32
KEY = "tl.tt.math_fidelity"


def gemm() -> Any:
    """TileLang's GEMM of bf16 operands into a float32 C (so the fidelity, not an output rounding, shows)."""

    @T.prim_func
    def main(A: T.Tensor((SIZE, SIZE), "bfloat16"), B: T.Tensor((SIZE, SIZE), "bfloat16"),
             C: T.Tensor((SIZE, SIZE), "float32")):
        with T.Kernel(SIZE // BLOCK, SIZE // BLOCK, threads=128) as (bx, by):
            A_shared = T.alloc_shared((BLOCK, BLOCK), "bfloat16")
            B_shared = T.alloc_shared((BLOCK, BLOCK), "bfloat16")
            C_local = T.alloc_fragment((BLOCK, BLOCK), "float32")
            T.clear(C_local)
            for k in T.Pipelined(SIZE // BLOCK, num_stages=2):
                T.copy(A[by * BLOCK, k * BLOCK], A_shared)
                T.copy(B[k * BLOCK, bx * BLOCK], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * BLOCK, bx * BLOCK])

    return main


def keep_bits(x: np.ndarray, bits: int) -> np.ndarray:
    """fp32 values with the top `bits` significand bits kept (hidden bit included), the rest truncated."""
    return (x.astype(np.float32).view(np.uint32) & np.uint32(~((1 << (24 - bits)) - 1) & 0xFFFFFFFF)).view(np.float32)


def phases(a: np.ndarray, b: np.ndarray, fidelity: str) -> np.ndarray:
    """C = A @ B as the matrix unit's phases sum it at `fidelity` (A is SrcB, B is SrcA)."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    a_hi, b_hi = keep_bits(a32, 7), keep_bits(b32, 5)
    return {"LoFi": a_hi @ b_hi, "HiFi2": a_hi @ b32, "HiFi3": a_hi @ b32 + (a32 - a_hi) @ b_hi,
            "HiFi4": a32 @ b32}[fidelity]


@pytest.fixture(scope="module")
def arrays() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(31)
    return rng.uniform(-1, 1, (SIZE, SIZE)).astype(BF16), rng.uniform(-1, 1, (SIZE, SIZE)).astype(BF16)


@pytest.mark.parametrize("fidelity", ["LoFi", "HiFi2", "HiFi3"])
def test_math_fidelity_reaches_the_kernel_and_its_numbers(fidelity: str, arrays: Any) -> None:
    a, b = arrays
    kernel = tilelang.compile(gemm(), out_idx=[-1], target="tenstorrent", pass_configs={KEY: fidelity})
    files = kernel.artifact.rt_mod.files
    assert kernel.artifact.rt_mod.plan["kernels"]["compute"]["math_fidelity"] == fidelity
    # main.cpp reads it from tt.host_args: its position in the plan's list
    assert f"compute.math_fidelity {host_args.MATH_FIDELITIES.index(fidelity)}" in files[host_args.FILE].splitlines()
    assert f"math_fidelity=ttnn.MathFidelity.{fidelity}," in files["run_ttnn.py"]
    got = kernel(a, b).astype(np.float32)
    want, exact = phases(a, b, fidelity), phases(a, b, "HiFi4")
    rounding = 2.0**-18 * float(np.abs(exact).max())  # fp32 sums in another order
    assert float(np.abs(got - want).max()) <= rounding
    # The fidelity's own error is far beyond that: a kernel that ran at another fidelity fails above.
    assert float(np.abs(want - exact).max()) > 16 * rounding
    est, hifi4 = perf_model.estimate_kernel(kernel), perf_model.estimate_kernel(kernel, fidelity="HiFi4")
    assert est.fidelity == fidelity and est.compute_seconds < hifi4.compute_seconds


def test_unknown_math_fidelity_is_refused() -> None:
    with pytest.raises(TileLangError, match=r"pass_configs key 'tl.tt.math_fidelity': 'HiFi5' is not one of "
                                            r"'', 'LoFi', 'HiFi2', 'HiFi3', 'HiFi4'"):
        tilelang.compile(gemm(), out_idx=[-1], target="tenstorrent", pass_configs={KEY: "HiFi5"})
