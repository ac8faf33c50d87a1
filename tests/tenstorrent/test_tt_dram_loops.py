"""Loops over DRAM on Tenstorrent (tests/tt_dram_loop_kernels.py, TileLang's own kernels as upstream writes them):
element loops that copy affine block slices between DRAM tensors and on-chip buffers are block copies
(LowerTTLoopsToTileOps), a three-loop multiply-add over on-chip buffers is a gemm, and loops that move DRAM
elements some other way are refused naming the loop.

Numerics: fp16 operands from U(-1, 1) with fp32 accumulation, output rounded to fp16 (K <= 128 terms of
magnitude <= 1: within 2^-11 * 128 of the fp32 product, rtol/atol 1e-2 as upstream's own checks); fp32 reductions
of N(0, 1) data within 1e-5 (another summation order), maxima exactly.
"""

import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest
import tt_dram_loop_kernels as K
import tt_streamk_kernel as streamk

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(28)


def uniform(*shape: int) -> np.ndarray:
    return RNG.uniform(-1.0, 1.0, shape).astype("float16")


def test_gemm_schedule_parallel_load_of_b_is_a_block_read() -> None:
    m, n, k = 128, 256, 128
    kernel = tilelang.compile(K.gemm_schedule(m, n, k, 64, 64, 32), out_idx=[-1], target="tenstorrent")
    a, b = uniform(m, k), uniform(k, n)
    c = kernel(a, b)
    np.testing.assert_allclose(c.astype("float32"), a.astype("float32") @ b.astype("float32"), rtol=1e-2, atol=1e-2)
    assert kernel.last_report["status"] == "ok"


def test_gemm_schedule_reads_b_like_a_t_copy() -> None:
    """The T.Parallel load is the same block read as upstream's commented-out T.copy(B[ko * 32, bx * 64], B_shared)."""
    art = tilelang.lower(K.gemm_schedule(128, 128, 128, 64, 64, 32), target="tenstorrent")
    reader = art.kernel_source.split("reader.cpp")[1].split("compute.cpp")[0]
    b_cb = next(cb for cb in art.rt_mod.plan["cbs"] if cb["buffer"] == "B_shared")
    assert b_cb["class"] == "input" and b_cb["block_pages"] == 2
    assert "for (int32_t k = 0" not in reader and "for (int32_t j = 0" not in reader


@pytest.mark.parametrize(("op", "dim", "clear"), [("sum", 1, True), ("max", 1, True), ("sum", 0, True),
                                                  ("max", 0, True), ("sum", 1, False), ("max", 1, False),
                                                  ("sum", -1, True)])
def test_cpu_reduce_2d(op: str, dim: int, clear: bool) -> None:
    """testing/python/cpu/test_tilelang_cpu_reduce.py's kernel at a tile-multiple shape (32 x 64)."""
    m, n = 32, 64
    kernel = tilelang.compile(K.cpu_reduce_2d(op, m, n, dim, "float32", clear), out_idx=[2], target="tenstorrent")
    a = RNG.standard_normal((m, n)).astype("float32")
    init = np.full((n if dim == 0 else m,), 1.0, "float32")
    out = kernel(a, init)
    ref = getattr(np, op)(a, axis=dim)
    if not clear:
        ref = ref + init if op == "sum" else np.maximum(ref, init)
    if op == "max":
        np.testing.assert_array_equal(out, ref)
    else:
        np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


def test_cpu_reduce_init_copy_overwritten_by_clear_is_not_read() -> None:
    """`dst[i] = Init[i]` before a clear=True reduction into dst is dead: Init is not read at all."""
    art = tilelang.lower(K.cpu_reduce_2d("sum", 32, 64, 1, "float32", True), target="tenstorrent")
    assert not any(cb["buffer"] == "dst" and cb["producer"] == "reader" for cb in art.rt_mod.plan["cbs"])
    reader = art.kernel_source.split("reader.cpp")[1].split("compute.cpp")[0]
    assert "A_addr" in reader and "Init_addr" not in reader


def test_cpu_gemm_multiply_add_loop_is_a_gemm() -> None:
    """testing/python/cpu/test_tilelang_cpu_gemm.py's `C_local[i, j] += A_local[i, k] * B_local[k, j]`."""
    m = n = k = 128
    kernel = tilelang.compile(K.cpu_gemm(m, n, k, 64, 64, 32), out_idx=[-1], target="tenstorrent")
    a, b = uniform(m, k), uniform(k, n)
    np.testing.assert_allclose(kernel(a, b).astype("float32"), a.astype("float32") @ b.astype("float32"),
                               rtol=1e-2, atol=1e-2)


def test_elementwise_expression_over_dram_blocks_stages_them_through_cbs() -> None:
    m, n = 64, 128
    kernel = tilelang.compile(K.elementwise_dram(m, n, 32, 64), out_idx=[-1], target="tenstorrent")
    a, b = (RNG.standard_normal((m, n)).astype("float32") for _ in range(2))
    ref = np.exp(a + b)
    np.testing.assert_allclose(kernel(a, b), ref, rtol=1e-5, atol=1e-6 * float(ref.max()))
    art = tilelang.lower(K.elementwise_dram(m, n, 32, 64), target="tenstorrent")
    cbs = {cb["buffer"]: cb for cb in art.rt_mod.plan["cbs"]}
    assert cbs["A_blk0"]["class"] == cbs["B_blk1"]["class"] == "input" and cbs["C_blk2"]["class"] == "output"


def test_elementwise_store_to_dram_from_an_on_chip_buffer() -> None:
    """`C[i, j] = T.exp(A_s[i, j])` straight into the DRAM tensor (refused before loops over DRAM were blocks)."""

    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), "bfloat16")
            T.copy(A[0, 0], A_s)
            for (i, j) in T.Parallel(64, 64):
                C[i, j] = T.exp(A_s[i, j])

    a = RNG.uniform(-2, 2, (64, 64)).astype("float32").astype(ml_dtypes.bfloat16)
    out = tilelang.compile(main, out_idx=[-1], target="tenstorrent")(a)
    np.testing.assert_allclose(out.astype("float32"), np.exp(a.astype("float32")), rtol=2.0**-6)


# ------------------------------------------------------------------------------------------------- refusals


def _refused(case: str) -> Any:
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((32, 32), "float32")
            C_s = T.alloc_shared((32, 32), "float32")
            acc = T.alloc_fragment((32, 32), "float32")
            if case == "transposed":
                for i, j in T.Parallel(32, 32):
                    A_s[i, j] = A[j, i]
            if case == "strided":
                for i, j in T.Parallel(32, 32):
                    A_s[i, j] = A[2 * i, j]
            if case == "gather":
                for i, j in T.Parallel(32, 32):
                    A_s[i, j] = A[i * i % 64, j]
            if case in ("transposed", "strided", "gather"):
                T.copy(A_s, B[0, 0])
            if case == "partial_gemm":
                T.copy(A[0, 0], A_s)
                T.copy(A[0, 32], C_s)
                T.clear(acc)
                for i, j, k in T.grid(32, 32, 16):
                    acc[i, j] += A_s[i, k] * C_s[k, j]
                T.copy(acc, B[0, 0])

    return main


REFUSALS = {
    "transposed": r"loop \(i, j\) storing A_s\[i, j\] = A\[j, i\] moves elements of a DRAM tensor that are not a "
                  r"block slice: the loops step the dims of A and A_s in another order \(a transposed copy\)",
    "strided": r"loop \(i, j\) storing A_s\[i, j\] = A\[2 \* i, j\] .* not a block slice: A: index i \* 2 steps by 2 "
               r"with loop 'i'",
    "gather": r"loop \(i, j\) .* not a block slice: A: index i \* i % 64 is not affine in the loop variables",
    "partial_gemm": r"loop \(i, j, k\) storing acc\[i, j\] = .* is a multiply-add that the tenstorrent backend lowers "
                    r"only as a T.gemm: the loops must run from 0 over the whole buffers",
}


def test_convolution_1x1_im2col_load_reads_blocks_of_the_folded_input() -> None:
    """examples/convolution unmodified, 1x1 filter without padding: the im2col load's bounds mask is proved true over
    the loop ranges, its row index folds to `by * block_M + i` of the (N * H * W, C) matrix the input is tiled as,
    and the `T.Tensor(..., kernel.data)` / `out.data` views are that matrix of the filter and the output."""
    n, c, h, w, f = 2, 64, 4, 32, 64
    kernel = tilelang.compile(K.convolution(n, c, h, w, f, 1, 1, 1, 0, 64, 32, 32, 2, 128), out_idx=[2],
                              target="tenstorrent")
    data, weight = uniform(n, h, w, c), uniform(1, 1, c, f)
    ref = np.einsum("nhwc,cf->nhwf", data.astype("float32"), weight[0, 0].astype("float32"))
    np.testing.assert_allclose(kernel(data, weight).astype("float32"), ref, rtol=1e-2, atol=1e-2)


def test_convolution_im2col_gather_is_refused_naming_the_loop() -> None:
    """examples/convolution's non-Hopper im2col load (3x3, padding 1) gathers single elements under a bounds mask."""
    func = K.convolution(1, 32, 4, 32, 32, 3, 1, 1, 1, 64, 32, 32, 2, 128)
    with pytest.raises(TileLangError, match=r"loop \(i, j\) storing data_shared\[i, j\] = T.if_then_else\(.* reads "
                                            r"DRAM tensor 'data' element by element at data\[.*which is not a block "
                                            r"of the loop \(index .* is not affine in the loop variables\)"):
        tilelang.lower(func, target="tenstorrent")


STREAMK = {"M": 64, "N": 128, "K": 128, "block_M": 32, "block_N": 32, "block_K": 32, "trans_A": False,
           "trans_B": True, "dtypeAB": T.float16, "dtypeC": T.float32, "accum_dtype": T.float32, "num_stages": 2,
           "threads": 64}


def test_streamk_runs_on_llvm() -> None:
    """Stream-K over 3 programs (8 output tiles of 4 K steps) on the CPU; on Tenstorrent in
    tests/tenstorrent/test_tt_streamk.py."""
    fn, streamk_tiles = streamk.tl_matmul_streamk, streamk.streamk_tiles
    a, b = uniform(64, 128), uniform(128, 128)
    c = np.zeros((64, 128), "float32")
    fn.compile(streamk_tiles=streamk_tiles, **STREAMK)(a, b, c)
    np.testing.assert_allclose(c, a.astype("float32") @ b.astype("float32").T, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("case", list(REFUSALS))
def test_refused_loops_name_the_loop(case: str) -> None:
    with pytest.raises(TileLangError, match=REFUSALS[case]):
        tilelang.lower(_refused(case), target="tenstorrent")
