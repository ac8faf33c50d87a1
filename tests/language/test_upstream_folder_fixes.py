"""What TileLang's examples from the folders issue 28's first 99 cases left out need of the language (no backend
lowering): `T.bool` as a dtype (blocksparse_attention's mask), a bool compared with `!= 0` on llvm (TVM 0.27's LLVM
codegen compares bools as floats: `fcmp one i1`), `T.alloc_global` (deepseek_mla's split kernel) and the
`tilelang.testing` marks testing/python/kernel uses."""

import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.errors import TileLangError
from tilelang.language._frontend import normalize_dtype

RNG = np.random.default_rng(2829)


def test_T_bool_is_a_dtype() -> None:
    assert normalize_dtype(T.bool) == "bool"


def block_masked_gemm(m, n, k, block):
    """example_tilelang_block_sparse_attn.py's pattern: a bool block mask row copied to a fragment, each K step run
    where `block_mask[k] != 0`."""

    @T.prim_func
    def main(A: T.Tensor((m, k), "float32"), B: T.Tensor((k, n), "float32"),
             Mask: T.Tensor((m // block, k // block), T.bool), C: T.Tensor((m, n), "float32")):
        with T.Kernel(n // block, m // block) as (bx, by):
            a = T.alloc_shared((block, block), "float32")
            b = T.alloc_shared((block, block), "float32")
            c = T.alloc_fragment((block, block), "float32")
            block_mask = T.alloc_fragment((k // block,), T.bool)
            T.copy(Mask[by, :], block_mask)
            T.clear(c)
            for ko in T.Pipelined(k // block, num_stages=1):
                if block_mask[ko] != 0:
                    T.copy(A[by * block, ko * block], a)
                    T.copy(B[ko * block, bx * block], b)
                    T.gemm(a, b, c)
            T.copy(c, C[by * block, bx * block])

    return main


@pytest.mark.skipif(shutil.which("g++") is None and shutil.which("clang") is None, reason="no C compiler")
def test_a_bool_mask_compared_with_zero_runs_on_llvm() -> None:
    a, b = RNG.standard_normal((64, 96)).astype("float32"), RNG.standard_normal((96, 64)).astype("float32")
    mask = np.array([[True, False, True], [False, True, True]])
    kernel = tilelang.compile(block_masked_gemm(64, 64, 96, 32), out_idx=[-1], target="llvm")
    keep = np.kron(mask, np.ones((32, 32))).astype("float32")
    want = sum((a * keep)[:, s:s + 32] @ b[s:s + 32] for s in range(0, 96, 32))
    np.testing.assert_allclose(kernel(a, b, mask), want, rtol=1e-5, atol=1e-5)


def workspace_kernel():
    """deepseek_mla's split decode: partial results in a T.alloc_global workspace, made before the T.Kernel."""

    @T.prim_func
    def main(A: T.Tensor((4, 8), "float32"), B: T.Tensor((4, 8), "float32")):
        W = T.alloc_global((4, 8), "float32")
        with T.Kernel(4) as bx:
            for i in T.Parallel(8):
                W[bx, i] = A[bx, i] * 2.0
            for i in T.Parallel(8):
                B[bx, i] = W[bx, i] + 1.0

    return main


@pytest.mark.skipif(shutil.which("g++") is None and shutil.which("clang") is None, reason="no C compiler")
def test_alloc_global_is_a_workspace_on_llvm_and_refused_by_name_on_tenstorrent() -> None:
    a = RNG.standard_normal((4, 8)).astype("float32")
    np.testing.assert_allclose(tilelang.compile(workspace_kernel(), out_idx=[-1], target="llvm")(a), a * 2 + 1)
    with pytest.raises(TileLangError, match=r"T.alloc_global\('W', shape \[4, 8\]\): the tenstorrent backend"):
        tilelang.lower(workspace_kernel(), target="tenstorrent")


def test_the_kernel_tests_marks_exist() -> None:
    for mark in ("requires_cuda_or_cdna", "requires_cdna", "requires_rocm", "requires_metal4"):
        assert callable(getattr(tilelang.testing, mark))
    assert tilelang.testing.requires_llvm(len) is len  # the llvm backend is here: the test runs


def test_a_copy_slice_bounded_by_two_assigned_scalars_has_their_constant_extent() -> None:
    """deepseek_mla's split kernel: `T.copy(KV[bid, kv_start:kv_end, ...], KV_shared)` with two assigned bounds (refused
    until the frontend saw through them: language/_scalars.py; the refusal that remains is in
    test_upstream_llvm_fixes.py)."""
    @T.prim_func
    def main(A: T.Tensor((128, 64), "float16"), B: T.Tensor((128, 64), "float16")):
        with T.Kernel(4) as bx:
            s = T.alloc_shared((32, 64), "float16")
            start = bx * 32
            end = bx * 32 + 32
            T.copy(A[start:end, :], s)
            T.copy(s, B[bx * 32, 0])

    assert "end - start" not in main.script() and "A[start:start + 32, 0:64]" in main.script()
