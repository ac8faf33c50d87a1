"""`tilelang.autotune` / `AutoTuner`: llvm ranks configs by measured time, Tenstorrent by the perf model; the winner
is verified against the reference (in the emulator on Tenstorrent); failing configs are recorded, not fatal."""

from __future__ import annotations

import os
import shutil

import ml_dtypes
import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.autotuner import AutoTuner
from tilelang.profiler import MEASURED
from tilelang.tenstorrent.runtime import MODELLED


def matmul(M, N, K, block_M=None, block_N=None, block_K=None, wrong=False, accum="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), B: T.Tensor((K, N), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M)) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), "float32")
            B_s = T.alloc_shared((block_K, block_N), "float32")
            C_l = T.alloc_fragment((block_M, block_N), accum)
            T.clear(C_l)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, C_l)
            if wrong:
                T.fill(C_l, 1.0)
            T.copy(C_l, C[by * block_M, bx * block_N])

    return main


CONFIGS = [
    {"block_M": 16, "block_N": 16, "block_K": 16},
    {"block_M": 32, "block_N": 32, "block_K": 16},
    {"block_M": 32, "block_N": 32, "block_K": 16, "wrong": True},  # fastest perhaps, but wrong
    {"block_M": 32, "block_N": 16, "block_K": 16, "accum": "float7"},  # an unknown dtype: a compile error
]


def test_autotune_decorator_measures_on_llvm_and_keeps_only_verified_winners():
    @tilelang.autotune(configs=CONFIGS, warmup=1, rep=3, ref_prog=lambda a, b: a @ b, atol=1e-4, rtol=1e-4)
    @tilelang.jit(out_idx=[-1], target="llvm")
    def kernel(M, N, K, block_M=None, block_N=None, block_K=None, wrong=False, accum="float32"):
        return matmul(M, N, K, block_M, block_N, block_K, wrong, accum)

    best = kernel(64, 64, 32)
    assert best.config in CONFIGS[:2] and best.latency > 0 and best.ref_latency > 0
    a, b = np.ones((64, 32), "float32"), np.ones((32, 64), "float32")
    np.testing.assert_array_equal(best(a, b), np.full((64, 64), 32, "float32"))
    assert kernel(64, 64, 32) is best  # tuned once per arguments


def test_a_winner_that_fails_verification_gives_way():
    tuner = AutoTuner.from_kernel(kernel=lambda **c: matmul(64, 64, 32, **c), configs=CONFIGS[:2])
    tuner.set_compile_args(out_idx=[-1], target="llvm")
    verified = []

    def verify(kernel):  # the best-ranked kernel fails verification, whichever it is
        verified.append(kernel)
        return "does not match ref_prog: forced" if len(verified) == 1 else ""

    tuner._verify = verify
    result = tuner.run(warmup=1, rep=2)
    assert len(verified) == 2 and result.kernel is verified[1]
    assert [r for _, r in result.trials if isinstance(r, str)] == ["does not match ref_prog: forced"]


def test_autotuner_records_each_trial():
    tuner = AutoTuner.from_kernel(kernel=lambda **c: matmul(64, 64, 32, **c), configs=CONFIGS)
    result = tuner.set_compile_args(out_idx=[-1], target="llvm").set_profile_args(
        ref_prog=lambda a, b: a @ b, atol=1e-4, rtol=1e-4).run(warmup=1, rep=2)
    assert result.kind == MEASURED and result.config in CONFIGS[:2]
    outcomes = dict((tuple(sorted(c.items())), r) for c, r in result.trials)
    wrong = outcomes[tuple(sorted(CONFIGS[2].items()))]  # slower than the winner (never verified) or refused
    assert isinstance(wrong, float) or "does not match ref_prog" in wrong
    assert "error: " in outcomes[tuple(sorted(CONFIGS[3].items()))]


@pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="no C++ compiler")
def test_autotune_ranks_by_the_perf_model_on_tenstorrent():
    from tt_kernels import elementwise_binary

    configs = [{"block_M": 32, "block_N": 32}, {"block_M": 64, "block_N": 64}]
    tuner = AutoTuner.from_kernel(kernel=lambda **c: elementwise_binary(64, 64, op="add", **c), configs=configs)
    tuner.set_compile_args(out_idx=[-1], target="tenstorrent")
    tuner.set_profile_args(ref_prog=lambda a, b: (a.astype("float32") + b.astype("float32")).astype(ml_dtypes.bfloat16))
    result = tuner.run()
    assert result.kind == MODELLED and result.config in configs and result.ref_latency is None
    assert all(isinstance(r, float) and r > 0 for _, r in result.trials)
    assert result.latency == min(r for _, r in result.trials)


@tilelang.jit(target="llvm")
def eager_row_scale(A, blk_m: int = 4, factor: float = 2.0):
    M, N = T.const("M, N")
    A: T.Tensor((M, N), T.float32)
    B = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(M, blk_m)) as bx:
        x = T.alloc_fragment((blk_m, N), T.float32)
        T.copy(A[bx * blk_m, 0], x)
        for i, j in T.Parallel(blk_m, N):
            x[i, j] = x[i, j] * factor
        T.copy(x, B[bx * blk_m, 0])
    return B


def test_autotune_over_an_eager_function_tunes_per_shape_and_dtype_and_runs_the_winner():
    """Upstream's eager example_topk: `@tilelang.autotune(configs=...)` over `@tilelang.jit def f(tensor, ...)`,
    called on tensors (even with a tuned argument given explicitly): the call returns the best kernel's outputs."""
    configs = [{"blk_m": 4}, {"blk_m": 8}, {"blk_m": 16}]
    tuned = tilelang.autotune(configs=configs, warmup=1, rep=2, ref_prog=lambda a: a * 2, atol=1e-6,
                              rtol=1e-6)(eager_row_scale)
    a = np.arange(32 * 24, dtype="float32").reshape(32, 24)
    np.testing.assert_array_equal(tuned(a, blk_m=4), a * 2)
    assert len(tuned.cache) == 1
    np.testing.assert_array_equal(tuned(a + 1, blk_m=4), (a + 1) * 2)  # same shape and dtype: tuned once
    assert len(tuned.cache) == 1
    b = np.ones((16, 8), "float32")
    np.testing.assert_array_equal(tuned(b), b * 2)  # another shape: tuned again
    assert len(tuned.cache) == 2
    best = tuned.compile(a, blk_m=4)
    assert best.config in configs and best.latency > 0
    np.testing.assert_array_equal(best(a), a * 2)
