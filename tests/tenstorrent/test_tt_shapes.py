"""Any shape on Tenstorrent (issue 28): tensors that are not whole 32x32 tiles, blocks that do not divide their tensor
(edge blocks) and on-chip buffers smaller than a tile, run in the emulator against numpy.

Every tensor is padded in DRAM to whole tiles and whole blocks (tt.buffers / tt.plan.json `padded_shape`; a dim whose
blocks are not whole tiles lays each block out on a run of tiles of its own, `blocks`); the host pads what it uploads
with the tensor's `pad_value` (the identity of the consumers that read across its padding: 0 for sums and GEMM's K,
-inf for maxima) and crops what it reads back.

Tolerances: fp32 kernels within 1e-5 relative + 1e-6 absolute (the emulator sums in another order than numpy);
bf16 results within 2^-7 of the largest magnitude of the reference (one bf16 rounding of inputs and results)."""

from __future__ import annotations

import json
import shutil

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import elementwise_add
from tt_kernels import matmul
from tt_norm_kernels import layer_norm, online_softmax, rms_norm, softmax, softmax_kernel

import tilelang
import tilelang.language as T

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _close(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def _close_bf16(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_allclose(got.astype(np.float32), want, rtol=0, atol=np.abs(want).max() * 2.0 ** -7)


def _tensors(kernel: tilelang.JITKernel) -> dict:
    return {t["name"]: t for t in kernel.artifact.rt_mod.plan["tensors"]}


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


# ----------------------------------------------------------------------------------------------------------- GEMM


@pytest.mark.parametrize("m,n,k,bm,bn,bk", [(100, 200, 72, 32, 32, 32), (100, 200, 72, 64, 64, 64),
                                            (100, 200, 72, 64, 128, 32), (64, 4, 64, 64, 4, 32)])
def test_gemm_of_any_shape(m: int, n: int, k: int, bm: int, bn: int, bk: int) -> None:
    """M = 100, N = 200, K = 72: tiles padded with 0 (K's padding must add nothing), blocks that do not divide
    their dims hang over the end into the padding; a (64, 4) output is one run of tiles per block of 4 columns."""
    rng = np.random.default_rng(m + n + k)
    a = rng.standard_normal((m, k)).astype(BF16)
    b = rng.standard_normal((k, n)).astype(BF16)
    kernel = tilelang.compile(matmul(m, n, k, bm, bn, bk, "bfloat16", "float"), out_idx=[-1], target="tenstorrent")
    c = kernel(a, b)
    assert c.shape == (m, n)
    _close_bf16(c, a.astype(np.float32) @ b.astype(np.float32))
    tensors = _tensors(kernel)
    ceil = lambda v, e: -(-v // e) * e  # noqa: E731
    assert tensors["A"]["padded_shape"] == [ceil(m, max(bm, 32)), ceil(k, max(bk, 32))]
    assert tensors["A"]["pad_value"] == 0 and tensors["B"]["pad_value"] == 0
    assert kernel.last_report["status"] == "ok"


def test_gemm_plan_records_logical_and_padded_shapes(tmp_path) -> None:
    kernel = tilelang.compile(matmul(100, 200, 72, 64, 64, 32, "bfloat16", "float"), out_idx=[-1],
                              target="tenstorrent")
    kernel.save(tmp_path)
    plan = json.loads((tmp_path / "tt.plan.json").read_text())
    c = {t["name"]: t for t in plan["tensors"]}["C"]
    assert (c["shape"], c["padded_shape"], c["blocks"]) == ([100, 200], [128, 256], [0, 0])
    assert c["pages"] == 4 * 8
    host_args = (tmp_path / "tt.host_args").read_text().splitlines()  # main.cpp reads the layouts at run time
    assert "A.layout 1 100 72 128 96 1 1 1 1" in host_args and "C.layout 1 100 200 128 256 1 1 1 1" in host_args


# ---------------------------------------------------------------------------------------------- element-wise


@pytest.mark.parametrize("m,n,bm,bn", [(100, 200, 32, 32), (100, 200, 64, 128), (64, 64, 16, 16), (50, 40, 8, 40)])
def test_elementwise_of_any_shape(m: int, n: int, bm: int, bn: int) -> None:
    """Blocks smaller than a tile (16x16, 8x40) each take a run of tiles of their own in DRAM."""
    rng = np.random.default_rng(m * n)
    a = rng.standard_normal((m, n)).astype(np.float32)
    b = rng.standard_normal((m, n)).astype(np.float32)
    kernel = tilelang.compile(elementwise_add(m, n, bm, bn), out_idx=[-1], target="tenstorrent")
    _close(kernel(a, b), a + b)
    if bm % 32:
        assert _tensors(kernel)["A"]["blocks"][0] == bm


# --------------------------------------------------------------------------------------- softmax and norms


@pytest.mark.parametrize("m,n,blk_m", [(100, 200, 32), (37, 72, 1), (64, 100, 64)])
def test_softmax_of_any_shape(m: int, n: int, blk_m: int) -> None:
    """The row maximum needs -inf in the padded columns, and exp(-inf - max) = 0 then keeps the sum exact: the
    input is padded with -inf."""
    x = np.random.default_rng(m + n).standard_normal((m, n)).astype(np.float32) * 3
    kernel = tilelang.compile(softmax(m, n, blk_m), out_idx=[-1], target="tenstorrent")
    _close(kernel(x), _softmax(x))
    assert _tensors(kernel)["X"]["pad_value"] == "-inf"


@pytest.mark.parametrize("m,n,blk_m,blk_n", [(100, 200, 32, 64), (40, 96, 1, 32)])
def test_online_softmax_of_any_shape(m: int, n: int, blk_m: int, blk_n: int) -> None:
    x = np.random.default_rng(m * n).standard_normal((m, n)).astype(np.float32) * 3
    kernel = tilelang.compile(online_softmax(m, n, blk_m, blk_n), out_idx=[-1], target="tenstorrent")
    _close(kernel(x), _softmax(x))


@pytest.mark.parametrize("m,n,blk_m,blk_n", [(100, 200, 1, 64), (64, 128, 1, 64)])
def test_upstream_online_softmax_in_base_2_matches_numpy(m: int, n: int, blk_m: int, blk_n: int) -> None:
    """Upstream's current online_softmax.py (fp16, rows of 1, BLOCK_N = 64, 200 columns: the last column block hangs
    over): its log-sum-exp `max * log2e + T.log2(T.exp2(lse - max * log2e) + sum)` runs on [1] column vectors, T.log2
    as log_tile then the product with 1 / ln 2 (the op map's scaled log2 entry)."""
    x = np.random.default_rng(m + n).uniform(-3, 3, (m, n)).astype(np.float16)
    kernel = tilelang.compile(softmax_kernel(m, n, blk_m, blk_n), out_idx=[-1], target="tenstorrent")
    got = kernel(x).astype(np.float32)
    np.testing.assert_allclose(got, _softmax(x.astype(np.float32)), atol=1e-2, rtol=1e-2)
    assert _tensors(kernel)["X"]["pad_value"] == ("-inf" if n % blk_n else 0)  # the row maximum's identity
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    assert "log_tile(" in compute and "mul_unary_tile(" in compute


@pytest.mark.parametrize("m,n,blk_m", [(100, 200, 32), (37, 72, 1)])
def test_rms_norm_of_any_shape(m: int, n: int, blk_m: int) -> None:
    a = np.random.default_rng(m).standard_normal((m, n)).astype(np.float32)
    kernel = tilelang.compile(rms_norm(m, n, blk_m), out_idx=[-1], target="tenstorrent")
    _close(kernel(a), a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-6))
    assert _tensors(kernel)["A"]["pad_value"] == 0


@pytest.mark.parametrize("m,n,blk_m", [(100, 128, 32), (37, 64, 1)])
def test_layer_norm_of_any_rows(m: int, n: int, blk_m: int) -> None:
    """Rows of any count, row blocks of 1 (layernorm's [1, N] blocks: each row on a tile row of its own); columns
    that are not whole tiles would need x - mean masked in the padding (refused,
    tests/tenstorrent/test_tt_errors.py)."""
    rng = np.random.default_rng(m)
    x = rng.standard_normal((m, n)).astype(np.float32)
    w, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    kernel = tilelang.compile(layer_norm(m, n, blk_m), out_idx=[-1], target="tenstorrent")
    mean = x.mean(1, keepdims=True)
    want = (x - mean) / np.sqrt(((x - mean) ** 2).mean(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(kernel(x, w, b), want, rtol=1e-4, atol=1e-5)


# ------------------------------------------------------------------------------------------------ reductions


def row_reductions(m: int, n: int, blk_m: int, dtype: str = "float"):
    """Row sums and maxima of X into two 1-D tensors, and column sums of each row block."""

    @T.prim_func
    def main(X: T.Tensor((m, n), dtype), S: T.Tensor((m,), dtype), Mx: T.Tensor((m,), dtype)):
        with T.Kernel(T.ceildiv(m, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, n), dtype)
            y = T.alloc_fragment((blk_m, n), dtype)
            s = T.alloc_fragment((blk_m,), dtype)
            mx = T.alloc_fragment((blk_m,), dtype)
            T.copy(X[bx * blk_m, 0], x)
            for i, j in T.Parallel(blk_m, n):
                y[i, j] = x[i, j] * 2.0
            T.reduce_sum(y, s, dim=1)
            T.reduce_max(x, mx, dim=1)
            T.copy(s, S[bx * blk_m:(bx + 1) * blk_m])
            T.copy(mx, Mx[bx * blk_m:(bx + 1) * blk_m])
    return main


def test_reductions_need_different_padding_of_one_tensor_are_refused() -> None:
    """x feeds a sum (through y = 2x) and a maximum: its padding cannot be both 0 and -inf."""
    with pytest.raises(tilelang.language.TileLangError,
                       match=r"T.reduce_(max|sum) into '(mx|s)' reads the padding of '(x|y)' .*issue 28"):
        tilelang.lower(row_reductions(100, 200, 32), target="tenstorrent")


def column_sums(m: int, n: int, blk_m: int, blk_n: int, pool: str):
    @T.prim_func
    def main(X: T.Tensor((m, n), "float"), R: T.Tensor((m,), "float"), C: T.Tensor((n,), "float")):
        with T.Kernel(T.ceildiv(m, blk_m), T.ceildiv(n, blk_n), threads=128) as (bx, by):
            x = T.alloc_fragment((blk_m, blk_n), "float")
            xc = T.alloc_fragment((blk_m, blk_n), "float")
            r = T.alloc_fragment((blk_m,), "float")
            c = T.alloc_fragment((blk_n,), "float")
            T.copy(X[bx * blk_m, by * blk_n], x)
            T.copy(X[bx * blk_m, by * blk_n], xc)  # a column reduction transposes its operand: a block of its own
            if pool == "sum":
                T.reduce_sum(x, r, dim=1)
                T.reduce_sum(xc, c, dim=0)
            else:
                T.reduce_max(x, r, dim=1)
                T.reduce_max(xc, c, dim=0)
            T.copy(r, R[bx * blk_m:(bx + 1) * blk_m])
            T.copy(c, C[by * blk_n:(by + 1) * blk_n])
    return main


@pytest.mark.parametrize("pool", ["sum", "max"])
@pytest.mark.parametrize("m,n", [(50, 70), (37, 37)])
def test_row_and_column_reductions_across_padding(pool: str, m: int, n: int) -> None:
    """One block (the whole tensor): reductions over padded rows and columns, into 1-D tensors of odd length."""
    x = np.random.default_rng(m + n).standard_normal((m, n)).astype(np.float32)
    kernel = tilelang.compile(column_sums(m, n, m, n, pool), out_idx=[1, 2], target="tenstorrent")
    r, c = kernel(x)
    f = np.sum if pool == "sum" else np.max
    _close(r, f(x, axis=1))
    _close(c, f(x, axis=0))
    assert _tensors(kernel)["X"]["pad_value"] == (0 if pool == "sum" else "-inf")


# --------------------------------------------------------------------------------------------------- vectors


def vector_scale(n: int, block: int):
    @T.prim_func
    def main(A: T.Tensor((n,), "float"), B: T.Tensor((n,), "float")):
        with T.Kernel(T.ceildiv(n, block), threads=128) as bx:
            a = T.alloc_fragment((block,), "float")
            b = T.alloc_fragment((block,), "float")
            T.copy(A[bx * block:(bx + 1) * block], a)
            for i in T.Parallel(block):
                b[i] = a[i] * 3.0 + 1.0
            T.copy(b, B[bx * block:(bx + 1) * block])
    return main


@pytest.mark.parametrize("n,block", [(37, 37), (100, 32), (101, 7)])
def test_vectors_of_odd_length(n: int, block: int) -> None:
    a = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    kernel = tilelang.compile(vector_scale(n, block), out_idx=[-1], target="tenstorrent")
    _close(kernel(a), a * 3 + 1)


# ------------------------------------------------------------------------------------------------------- N-D


def nd_scale(shape: tuple[int, ...], rows: int):
    """Each (batch, head) matrix of an N-D tensor, `rows` rows at a time (blocks of 8 rows: less than a tile)."""
    b, h, s, d = shape

    @T.prim_func
    def main(A: T.Tensor(shape, "float"), B: T.Tensor(shape, "float")):
        with T.Kernel(T.ceildiv(s, rows), h, b, threads=128) as (bx, by, bz):
            a = T.alloc_shared((rows, d), "float")
            o = T.alloc_fragment((rows, d), "float")
            T.copy(A[bz, by, bx * rows:(bx + 1) * rows, :], a)
            for i, j in T.Parallel(rows, d):
                o[i, j] = T.exp(a[i, j])
            T.copy(o, B[bz, by, bx * rows:(bx + 1) * rows, :])
    return main


@pytest.mark.parametrize("shape,rows", [((1, 8, 8, 32), 8), ((2, 3, 50, 20), 32)])
def test_nd_tensors_of_any_shape(shape: tuple[int, ...], rows: int) -> None:
    a = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
    kernel = tilelang.compile(nd_scale(shape, rows), out_idx=[-1], target="tenstorrent")
    _close(kernel(a), np.exp(a))


def test_bshd_with_two_heads() -> None:
    """(1, 128, 2, 64): TileLang's BSHD flash attention with 2 heads (a row-major tensor: rows of whole heads)."""
    from tt_attention_kernels import flashattn_bshd

    b, h, s, d = 1, 2, 128, 64
    rng = np.random.default_rng(s)
    q, k, v = (rng.standard_normal((b, s, h, d)).astype(np.float16) for _ in range(3))  # upstream's dtype
    kernel = tilelang.compile(flashattn_bshd(b, h, s, d, False, 64, 64), out_idx=[3], target="tenstorrent")
    got = kernel(q, k, v).astype(np.float32)
    qf, kf, vf = (x.astype(np.float32) for x in (q, k, v))
    scores = np.einsum("bqhd,bkhd->bhqk", qf, kf) / np.sqrt(d)
    want = np.einsum("bhqk,bkhd->bqhd", _softmax(scores), vf)
    assert got.shape == (b, s, h, d)
    _close_bf16(got, want)
