"""On-chip values across the iterations of a loop inside the block, on Tenstorrent (tests/tt_loop_kernels.py):
a loop-invariant operand (waited for once before the loop, freed after it), a row reduction carried across the
column blocks of a wide matrix (clear=False onto the running row), and an element-wise accumulator (acc = acc + A_s).

Numerics: bf16 inputs from U(-2, 2), fp32 accumulation. The invariant product is rounded to bf16 once (rtol 2^-8);
sums are compared with numpy's fp32 sums within 1e-5 * terms * max|A| (another fp32 summation order); maxima exactly.
"""

from __future__ import annotations

import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_loop_kernels import accumulate_blocks, block_prefix_sum, invariant_scale, lower_block_gemm, row_sum_blocks

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
TWO_CORES = {"tl.PartitionTTWork.core_grid": [2, 1]}  # 256 rows in 32-row blocks: 4 blocks per core


def uniform(*shape: int) -> np.ndarray:
    return np.random.default_rng(sum(shape)).uniform(-2.0, 2.0, shape).astype(BF16)


def compile_tt(func: Any) -> Any:
    return tilelang.compile(func, out_idx=[-1], target="tenstorrent", pass_configs=TWO_CORES)


def cb_of(kernel_or_art: Any, buffer: str) -> dict[str, Any]:
    return next(cb for cb in kernel_or_art.rt_mod.plan["cbs"] if cb["buffer"] == buffer)


def test_loop_invariant_operand_is_read_once_per_block() -> None:
    m, n, bm, bn = 256, 256, 32, 64
    kernel = compile_tt(invariant_scale(m, n, bm, bn))
    x, w = uniform(m, n), uniform(m, bn)
    out = kernel(x, w)
    ref = x.astype(np.float32) * np.tile(w.astype(np.float32), (1, n // bn))
    np.testing.assert_allclose(out.astype(np.float32), ref, rtol=2.0**-8, atol=1e-6)
    assert kernel.last_report["status"] == "ok"


def test_loop_invariant_waits_before_the_loop_and_frees_after_it() -> None:
    art = tilelang.lower(invariant_scale(128, 256, 64, 64), target="tenstorrent")
    w = cb_of(art, "W_s")["index"]
    compute = art.kernel_source.split("compute.cpp")[1].split("writer.cpp")[0]
    body = compute.split(f"cb_wait_front({w}, 4);")
    assert len(body) == 2, "W_s is waited for once per block"
    loop, after = body[1].split(f"cb_pop_front({w}, 4);")
    assert "for (int32_t k = 0; k < 4; ++k)" in loop and "for (" not in after.split("}")[0]


@pytest.mark.parametrize("kind", ["sum", "max"])
def test_row_reduction_carried_across_column_blocks(kind: str) -> None:
    m, n, bm, bn = 256, 256, 32, 64
    kernel = compile_tt(row_sum_blocks(m, n, bm, bn, kind))
    a = uniform(m, n)
    out = kernel(a)
    fold = np.sum if kind == "sum" else np.max
    ref = fold(a.astype(np.float32), axis=1)
    if kind == "max":
        np.testing.assert_array_equal(out, ref)
    else:
        assert float(np.abs(out - ref).max()) <= 1e-5 * n * 2.0
    assert kernel.last_report["status"] == "ok"


def test_elementwise_accumulator_carried_across_iterations() -> None:
    m, n, bm, bn = 256, 512, 32, 64
    kernel = compile_tt(accumulate_blocks(m, n, bm, bn))
    a = uniform(m, n)
    out = kernel(a)
    ref = a.astype(np.float32).reshape(m, n // bn, bn).sum(axis=1)
    assert float(np.abs(out - ref).max()) <= 1e-5 * (n // bn) * 2.0
    assert kernel.last_report["status"] == "ok"


def test_a_carried_value_is_one_cb_of_two_blocks() -> None:
    art = tilelang.lower(accumulate_blocks(128, 256, 64, 64), target="tenstorrent")
    acc = cb_of(art, "acc")
    assert acc["class"] == "intermediate" and acc["depth"] == 2 * acc["block_pages"] == 8
    assert sorted(cb["buffer"] for cb in art.rt_mod.plan["cbs"] if cb["buffer"].startswith("acc")) == ["acc", "acc_out"]
    assert cb_of(art, "acc_out")["consumer"] == "writer"


def _refused(case: str) -> Any:
    """One kernel per refused construct: `case` selects the body (the parser evaluates the conditions)."""

    @T.prim_func
    def main(A: T.Tensor((64, 256), "bfloat16"), C0: T.Tensor((64, 64), "float"), C: T.Tensor((64, 64), "float")):
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((64, 64), "bfloat16")
            B_s = T.alloc_shared((64, 64), "bfloat16")
            acc = T.alloc_fragment((64, 64), "float")
            if case == "read_after_loop":  # written in every iteration, read once after the loop
                for k in T.serial(4):
                    T.copy(A[0, k * 64], A_s)
                    for i, j in T.Parallel(64, 64):
                        acc[i, j] = A_s[i, j] * 2.0
                T.copy(acc, C[0, 0])
            if case == "nested_loops":
                T.clear(acc)
                for k in T.serial(2):
                    for kk in T.serial(2):
                        T.copy(A[0, (k * 2 + kk) * 64], A_s)
                        for i, j in T.Parallel(64, 64):
                            acc[i, j] = acc[i, j] + A_s[i, j]
                T.copy(acc, C[0, 0])
            if case == "starts_in_dram":
                T.copy(C0[0, 0], acc)
                for k in T.serial(4):
                    T.copy(A[0, k * 64], A_s)
                    for i, j in T.Parallel(64, 64):
                        acc[i, j] = acc[i, j] + A_s[i, j]
                T.copy(acc, C[0, 0])
            if case == "gemm_reads_invariant":  # flash attention's Q block
                T.copy(A[0, 0], A_s)
                for k in T.serial(3):
                    T.copy(A[0, (k + 1) * 64], B_s)
                    T.gemm(A_s, B_s, acc, clear_accum=True)
                    T.copy(acc, C[0, 0])
            if case == "read_after_rewrite":
                T.clear(acc)
                for k in T.serial(4):
                    T.copy(A[0, k * 64], A_s)
                    for i, j in T.Parallel(64, 64):
                        acc[i, j] = acc[i, j] + A_s[i, j]
                    for i, j in T.Parallel(64, 64):
                        B_s[i, j] = acc[i, j] * 0.5
                    T.copy(B_s, C[0, 0])
                T.copy(acc, C[0, 0])
    return main


REFUSALS = {
    "read_after_loop": r"on-chip buffer 'acc' is written in every iteration of loop 'k' and read after it by T\.copy "
                       r"to 'C'; only a value the loop carries",
    "nested_loops": r"on-chip buffer 'acc' is carried across loop 'k' but rewritten in the nested loop 'kk'; a value "
                    r"carried across two nested loops is not supported",
}


def test_gemm_reads_a_block_made_before_the_loop() -> None:
    """Flash attention's Q block: waited for before the loop and freed after it, the gemm's wait/pop flags off."""
    kernel = compile_tt(_refused("gemm_reads_invariant"))
    a = uniform(64, 256)
    c = kernel(a, np.zeros((64, 64), np.float32))
    x = a.astype(np.float32)
    np.testing.assert_allclose(c, x[:, :64] @ x[:, 192:], rtol=1e-5, atol=1e-4)


def test_carried_value_that_starts_as_a_copy_from_dram() -> None:
    """The reader reads C0's block into acc_in and an on-chip copy makes the carried acc (copy_in_carried; upstream
    top-k's logits_frag): a CB has one producer kernel."""
    kernel = compile_tt(_refused("starts_in_dram"))
    art = kernel.artifact
    assert cb_of(art, "acc_in")["producer"] == "reader" and cb_of(art, "acc")["producer"] == "compute"
    a, c0 = uniform(64, 256), np.random.default_rng(5).standard_normal((64, 64)).astype(np.float32)
    c = kernel(a, c0)
    want = c0 + sum(a[:, k * 64:(k + 1) * 64].astype(np.float32) for k in range(4))
    np.testing.assert_allclose(c, want, rtol=1e-6, atol=1e-6)


def test_carried_value_read_after_its_rewrite_in_the_iteration() -> None:
    """The rewrite makes acc_next, which the later store of the iteration reads; an on-chip copy at the end of the
    body makes it the carried acc (online softmax's running maximum)."""
    kernel = compile_tt(_refused("read_after_rewrite"))
    a = uniform(64, 256)
    c = kernel(a, np.zeros((64, 64), np.float32))
    want = sum(a[:, k * 64:(k + 1) * 64].astype(np.float32) for k in range(4))
    np.testing.assert_allclose(c, want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(("case", "message"), list(REFUSALS.items()), ids=list(REFUSALS))
def test_refused_loop_values_name_buffer_loop_and_reason(case: str, message: str) -> None:
    with pytest.raises(TileLangError, match=message):
        tilelang.lower(_refused(case), target="tenstorrent")


# ------------------------------------------------------------------------- loop extents from block indices

@pytest.mark.parametrize("grid", [[1, 1], [3, 1], [4, 1]], ids=["1core", "3cores", "4cores"])
def test_loop_extent_computed_from_the_block_index(grid: list[int]) -> None:
    """The scalar T.min(bx + 1, ...) becomes the loop's extent; each kernel computes it from its block's index."""
    kernel = tilelang.compile(block_prefix_sum(128, 64, 32), out_idx=[-1], target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.core_grid": grid})
    a = np.random.default_rng(9).standard_normal((128, 64)).astype(np.float32)
    want = np.cumsum(a.reshape(4, 32, 64), axis=0).reshape(128, 64)
    np.testing.assert_allclose(kernel(a), want, rtol=1e-6, atol=1e-5)
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    assert "k < " in compute and "count" in compute


def test_gemm_k_loop_with_a_block_dependent_extent_runs() -> None:
    """Block row bx accumulates K blocks 0..bx (a block-lower-triangular A times B): the K loop's extent bx + 1 is
    computed by every kernel from its block's index, and the compute kernel packs at the step k == bx (stream-K's
    K loops have such run-time extents)."""
    kernel = tilelang.compile(lower_block_gemm(128, 64, 32, 64), out_idx=[-1], target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.core_grid": [2, 1]})
    a, b = uniform(128, 128), uniform(128, 64)
    lower = np.kron(np.tril(np.ones((4, 4), np.float32)), np.ones((32, 32), np.float32))
    want = (a.astype(np.float32) * lower) @ b.astype(np.float32)
    np.testing.assert_allclose(kernel(a, b), want, rtol=1e-5, atol=1e-4)
