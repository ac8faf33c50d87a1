"""`import tilelang.language as T` kernels lowered for the CPU and run through `tilelang.jit` (llvm), plus c/cuda
source generation and the TileLangError diagnostics, through the real `tilelang.lower` backends.
"""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest
import tvm

import tilelang
import tilelang.language as T
from tilelang.jit import JITKernel, LazyJITKernel, compile, jit
from tilelang.language import TileLangError

RNG = np.random.default_rng(0)




# ----------------------------------------------------------- the two standard TileLang kernels, copied verbatim


def matmul(M, N, K, block_M, block_N, block_K, dtype="float16", accum_dtype="float"):
    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
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


def elementwise_add(M, N, block_M, block_N, in_dtype="float32", out_dtype="float32", threads=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), in_dtype), B: T.Tensor((M, N), in_dtype), C: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), in_dtype)
            B_shared = T.alloc_shared((block_M, block_N), in_dtype)
            C_local = T.alloc_fragment((block_M, block_N), out_dtype)
            C_shared = T.alloc_shared((block_M, block_N), out_dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            T.copy(B[by * block_M, bx * block_N], B_shared)
            for (local_y, local_x) in T.Parallel(block_M, block_N):
                C_local[local_y, local_x] = A_shared[local_y, local_x] + B_shared[local_y, local_x]
            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])
    return main


# -------------------------------------------------------------------------------------------- more kernels


def matmul_t(M, N, K, bm, bn, bk, trans_A, trans_B, dtype="float32", accum_dtype="float"):  # noqa: N803
    a_shape, b_shape = ((K, M) if trans_A else (M, K)), ((N, K) if trans_B else (K, N))
    as_shape, bs_shape = ((bk, bm) if trans_A else (bm, bk)), ((bn, bk) if trans_B else (bk, bn))

    @T.prim_func
    def main(A: T.Tensor(a_shape, dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
            A_shared = T.alloc_shared(as_shape, dtype)
            B_shared = T.alloc_shared(bs_shape, dtype)
            C_local = T.alloc_fragment((bm, bn), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, bk), num_stages=2):
                if trans_A:
                    T.copy(A[k * bk, by * bm], A_shared)
                else:
                    T.copy(A[by * bm, k * bk], A_shared)
                if trans_B:
                    T.copy(B[bx * bn, k * bk], B_shared)
                else:
                    T.copy(B[k * bk, bx * bn], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_A=trans_A, transpose_B=trans_B)
            T.copy(C_local, C[by * bm, bx * bn])

    return main


def softmax_rows(M, N, bm):  # noqa: N803
    """1-D grid, slice copies, T.fill / T.clear, T.max / T.exp / T.infinity, alloc_local."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, bm), threads=64) as bx:
            A_s = T.alloc_shared((bm, N), "float")
            m = T.alloc_local((bm,), "float")
            s = T.alloc_fragment((bm,), "float")
            T.copy(A[bx * bm:(bx + 1) * bm, 0:N], A_s)
            T.fill(m, -T.infinity("float"))
            T.clear(s)
            for i, j in T.Parallel(bm, N):
                m[i] = T.max(m[i], A_s[i, j])
            for i, j in T.Parallel(bm, N):
                s[i] = s[i] + T.exp(A_s[i, j] - m[i])
            for i, j in T.Parallel(bm, N):
                A_s[i, j] = T.exp(A_s[i, j] - m[i]) / s[i]
            T.copy(A_s, B[bx * bm:(bx + 1) * bm, 0:N])

    return main


def _rand(shape, dtype):
    return RNG.standard_normal(shape).astype(dtype)


def _tol(dtype):
    return {"rtol": 1e-2, "atol": 1e-2} if dtype == "float16" else {"rtol": 1e-4, "atol": 1e-4}


# ------------------------------------------------------------------------------------------------ frontend


def test_frontend_ir():
    f = matmul(128, 128, 128, 32, 32, 32)
    txt = f.script()
    assert f.attrs["tl.threads"] == 128
    assert 'T.launch_thread("blockIdx.x", 4)' in txt and 'T.launch_thread("blockIdx.y", 4)' in txt
    assert 'scope="local.fragment"' in txt and 'T.alloc_shared((32, 32), "float16")' in txt
    assert 'annotations={"num_stages": 3}' in txt
    assert "T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])" in txt
    assert "T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32]" in txt
    tvm.ir.assert_structural_equal(tvm.script.from_source(txt), f)


@pytest.mark.parametrize(("spelling", "canonical"), [
    ("float", "float32"), ("half", "float16"), ("bf16", "bfloat16"), ("fp16", "float16"), ("fp32", "float32"),
    ("int", "int32"), ("double", "float64"), ("uint8", "uint8"), (T.float16, "float16"), (np.float32, "float32"),
    (np.dtype("int64"), "int64"), (ml_dtypes.bfloat16, "bfloat16"), ("bool", "bool"),
])
def test_normalize_dtype(spelling, canonical):
    assert T.normalize_dtype(spelling) == canonical


# ------------------------------------------------------------------------------------------------ running


@pytest.mark.parametrize("shape", [(128, 128, 128, 32, 32, 32), (256, 128, 64, 64, 32, 32), (64, 192, 96, 32, 64, 32)])
@pytest.mark.parametrize("dtype", ["float16", "float"])
def test_matmul_out_idx(shape, dtype):
    M, N, K = shape[:3]
    kernel = compile(matmul(*shape, dtype=dtype, accum_dtype="float"), out_idx=[-1])
    np_dtype = T.normalize_dtype(dtype)
    assert [(p.name, p.dtype, p.shape) for p in kernel.params] == [
        ("A", np_dtype, (M, K)), ("B", np_dtype, (K, N)), ("C", np_dtype, (M, N))]
    a, b = _rand((M, K), np_dtype), _rand((K, N), np_dtype)
    c = kernel(a, b)
    assert c.dtype == np_dtype and c.shape == (M, N)
    np.testing.assert_allclose(c.astype("float32"), a.astype("float32") @ b.astype("float32"), **_tol(np_dtype))


def test_matmul_in_place():
    kernel = compile(matmul(64, 64, 64, 32, 32, 32))
    a, b, c = _rand((64, 64), "float16"), _rand((64, 64), "float16"), np.zeros((64, 64), "float16")
    assert kernel(a, b, c) is None
    np.testing.assert_allclose(c.astype("float32"), a.astype("float32") @ b.astype("float32"), **_tol("float16"))


@pytest.mark.parametrize(("ta", "tb"), [(False, True), (True, False), (True, True)])
def test_matmul_transpose(ta, tb):
    M, N, K = 64, 96, 128
    kernel = compile(matmul_t(M, N, K, 32, 32, 32, ta, tb), out_idx=-1)
    a, b = _rand((K, M) if ta else (M, K), "float32"), _rand((N, K) if tb else (K, N), "float32")
    np.testing.assert_allclose(kernel(a, b), (a.T if ta else a) @ (b.T if tb else b), rtol=1e-4, atol=1e-4)


def test_matmul_bf16():
    kernel = compile(matmul(64, 64, 64, 32, 32, 32, "bfloat16"), out_idx=[-1])
    a, b = _rand((64, 64), ml_dtypes.bfloat16), _rand((64, 64), ml_dtypes.bfloat16)
    c = kernel(a, b)
    assert c.dtype == np.dtype(ml_dtypes.bfloat16)
    np.testing.assert_allclose(c.astype("float32"), a.astype("float32") @ b.astype("float32"), rtol=3e-2, atol=5e-2)


@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float16", "float32")])
def test_elementwise_add(dtypes):
    kernel = compile(elementwise_add(128, 96, 32, 32, *dtypes), out_idx=-1)
    a, b = _rand((128, 96), dtypes[0]), _rand((128, 96), dtypes[0])
    # the add happens in the input dtype; the store into the out_dtype fragment casts (as in TileLang)
    np.testing.assert_allclose(kernel(a, b), (a + b).astype(dtypes[1]), rtol=1e-6)


def test_softmax():
    kernel = compile(softmax_rows(64, 48, 16), out_idx=[1])
    a = _rand((64, 48), "float32")
    e = np.exp(a - a.max(1, keepdims=True))
    np.testing.assert_allclose(kernel(a), e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mnk", [(100, 128, 64), (100, 72, 80)])
def test_partial_tiles(mnk):
    """M (and N, K) not multiples of the 32-wide blocks: guarded copies, no out-of-bounds reads or writes."""
    M, N, K = mnk
    kernel = compile(matmul(M, N, K, 32, 32, 32, "float32"), out_idx=[-1])
    a, b = _rand((M, K), "float32"), _rand((K, N), "float32")
    np.testing.assert_allclose(kernel(a, b), a @ b, rtol=1e-4, atol=1e-4)
    lowered = tilelang.lower(matmul(M, N, K, 32, 32, 32, "float32"), target="llvm").device_mod.script()
    # Guarded loads (if_then_else) and guarded stores (if) survive the optimization pipeline.
    assert "T.if_then_else(" in lowered and re.search(r"^\s+if .*<.*:$", lowered, re.M)

    # run on views into larger allocations: NaN after A and B, a sentinel after C must stay untouched
    dev, pad = tvm.cpu(0), 64 * 64
    views, backing = [], []
    for arr, fill in ((a, np.nan), (b, np.nan), (np.zeros((M, N), "float32"), 7.0)):
        big = np.concatenate([arr.ravel(), np.full(pad, fill, "float32")])
        t = tvm.runtime.tensor(big, dev)
        backing.append(t)
        views.append(t._create_view(arr.shape))
    kernel.artifact.rt_mod[kernel.name](*views)
    out = backing[2].numpy()
    np.testing.assert_allclose(out[: M * N].reshape(M, N), a @ b, rtol=1e-4, atol=1e-4)
    assert (out[M * N:] == 7.0).all()


# ------------------------------------------------------------------------------------------------ jit


def test_jit_factory_caches_per_arguments():
    calls = []

    @jit(out_idx=[-1])
    def mm(M, N, K, dtype="float16"):  # noqa: N803
        calls.append((M, N, K, dtype))
        return matmul(M, N, K, 32, 32, 32, dtype)

    k1 = mm(64, 64, 64)
    assert isinstance(k1, JITKernel) and mm(64, 64, 64) is k1
    k2 = mm(64, 64, 64, dtype="float32")
    assert k2 is not k1 and mm(64, 64, 64, dtype="float32") is k2 and mm(64, 64, 32) is not k1
    assert len(calls) == 3 and mm.__name__ == "mm"
    a, b = _rand((64, 64), "float32"), _rand((64, 64), "float32")
    np.testing.assert_allclose(k2(a, b), a @ b, rtol=1e-4, atol=1e-4)


def test_jit_prim_func_is_lazy():
    kernel = jit(elementwise_add(64, 64, 32, 32), out_idx=[-1])
    assert isinstance(kernel, LazyJITKernel) and not kernel.is_compiled
    a, b = _rand((64, 64), "float32"), _rand((64, 64), "float32")
    np.testing.assert_allclose(kernel(a, b), a + b)
    assert kernel.is_compiled and "define" in kernel.get_kernel_source()

    @jit
    def add(M):  # noqa: N803
        return elementwise_add(M, M, 32, 32)

    c = np.zeros((64, 64), "float32")
    add(64)(a, b, c)
    np.testing.assert_allclose(c, a + b)


# ------------------------------------------------------------------------------------------------ other targets


def test_c_source():
    kernel = compile(matmul(64, 64, 64, 32, 32, 32, "float32"), out_idx=[-1], target="c")
    src = kernel.get_kernel_source()
    assert "int32_t __tvm_ffi_main(void* self_handle, void* args, int32_t num_args, void* result)" in src
    assert "for (int32_t bx = 0; bx < 2; ++bx)" in src and "for (int32_t k = 0; k < 2; ++k)" in src
    with pytest.raises(TileLangError, match="backend 'c' produces source only"):
        kernel(_rand((64, 64), "float32"), _rand((64, 64), "float32"))


def test_cuda_source():
    kernel = compile(matmul(128, 128, 128, 32, 32, 32), out_idx=[-1], target="cuda")
    src = kernel.get_kernel_source()
    assert '__global__ void __launch_bounds__(128) main_kernel(half* __restrict__ A_ptr' in src  # 4 warps
    assert "mma.sync.aligned.m16n8k16" in src  # tensor cores (tests/backends/test_cuda_gemm.py)
    assert "blockIdx.x" in src and "blockIdx.y" in src and "__shared__" in src
    if not tvm.cuda(0).exist:
        with pytest.raises(TileLangError, match="backend 'cuda' produces source only"):
            kernel(_rand((128, 128), "float16"), _rand((128, 128), "float16"))


# ------------------------------------------------------------------------------------------------ errors


def _gemm_kernel(a_shape, b_shape, c_shape, ta=False, tb=False):
    @T.prim_func
    def main(C: T.Tensor(c_shape, "float32")):
        with T.Kernel(1, threads=32):
            A_s = T.alloc_shared(a_shape, "float32")
            B_s = T.alloc_shared(b_shape, "float32")
            C_l = T.alloc_fragment(c_shape, "float32")
            T.gemm(A_s, B_s, C_l, transpose_A=ta, transpose_B=tb)
            T.copy(C_l, C)

    return main


@pytest.mark.parametrize(("shapes", "flags", "message"), [
    (((32, 16), (32, 32), (32, 32)), (False, False), r"K mismatch: A=A_s \(32, 16\), transpose_A=False gives K=16 "
                                                     r"but B=B_s \(32, 32\), transpose_B=False gives K=32"),
    (((32, 16), (32, 32), (32, 32)), (True, False), r"M mismatch: .*transpose_A=True gives M=16 but C=C_l .* M=32"),
    (((32, 16), (24, 16), (32, 32)), (False, True), r"N mismatch: B=B_s \(24, 16\), transpose_B=True gives N=24"),
])
def test_gemm_shape_mismatch(shapes, flags, message):
    with pytest.raises(TileLangError, match=message) as info:
        _gemm_kernel(*shapes, *flags)
    assert "test_language_llvm.py" in str(info.value)  # the parser's source location is kept


@pytest.mark.parametrize("accum", ["int32", "uint8"])
def test_float_gemm_into_an_integer_accumulator_is_refused(accum):
    """Issue 29: llvm ran an fp16 GEMM into an int32 accumulator and returned zeros (each product truncated)."""
    with pytest.raises(TileLangError, match=rf"T.gemm: floating-point operands \(A=A_shared float16, B=B_shared "
                                            rf"float16\) need a floating-point accumulator, but C=C_local is {accum}"):
        matmul(64, 64, 64, 32, 32, 32, dtype="float16", accum_dtype=accum)


def test_unknown_dtype():
    with pytest.raises(TileLangError, match=r"unknown dtype 'float17'; supported dtypes: float16, bfloat16, float32"):
        matmul(64, 64, 64, 32, 32, 32, dtype="float17")
    with pytest.raises(TileLangError, match="uint32, bool"):
        T.normalize_dtype("complex64")


def _copy_kernel(variant):
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=32):
            A_s = T.alloc_shared((32, 32), "float32")
            if variant == "oob":
                T.copy(A[0, 48], A_s)
            elif variant == "oob_slice":
                T.copy(A_s, A[40:72, 0:32])
            elif variant == "shape":
                T.copy(A[0:16, 0:16], A_s)
            elif variant == "operand":
                T.copy(1.0, A_s)
            elif variant == "fill":
                T.fill(A[0:16, 60:68], 0.0)
            elif variant == "gemm_operand":
                T.gemm(A[0, 0], A_s, A_s)

    return main


@pytest.mark.parametrize(("variant", "message"), [
    ("oob", r"region of buffer 'A' is out of bounds in dim 1: indices \[48, 80\) exceed the bound 64"),
    ("oob_slice", r"region of buffer 'A' is out of bounds in dim 0: indices \[40, 72\) exceed the bound 64"),
    ("fill", r"T.fill: region of buffer 'A' is out of bounds in dim 1: indices \[60, 68\) exceed the bound 64"),
    ("shape", r"T.copy: shapes cannot match: src A region has shape \(16, 16\) but dst A_s region has shape "
              r"\(32, 32\)"),
    ("operand", r"T.copy: src must be a buffer, a slice .* or an element access .*; got float 1.0"),
    ("gemm_operand", r"T.gemm: operand A must be a buffer or a slice .*; got TensorLoad"),
])
def test_bad_regions_and_operands(variant, message):
    with pytest.raises(TileLangError, match=message):
        _copy_kernel(variant)


def test_kernel_grid_rank():
    with pytest.raises(TileLangError, match="1 to 3 grid extents, got 4"):
        T.Kernel(1, 2, 3, 4)


def test_call_errors():
    kernel = compile(matmul(64, 64, 64, 32, 32, 32), out_idx=[-1])
    a, b = _rand((64, 64), "float16"), _rand((64, 64), "float16")
    with pytest.raises(TileLangError, match=r"parameter 'B' expects shape \(64, 64\), got \(64, 32\)"):
        kernel(a, b[:, :32])
    with pytest.raises(TileLangError, match="parameter 'A' expects dtype float16, got float32"):
        kernel(a.astype("float32"), b)
    with pytest.raises(TileLangError, match=r"expects 2 arguments \(A, B; C allocated and returned\), got 3"):
        kernel(a, b, b)
    with pytest.raises(TileLangError, match="parameter 'A' expects a numpy array of shape .* got list"):
        kernel(a.tolist(), b)
    with pytest.raises(TileLangError, match="out_idx 3 is out of range for 3 parameters"):
        JITKernel(kernel.artifact, out_idx=[3])
