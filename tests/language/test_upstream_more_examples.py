"""What more of TileLang's examples needed (issue 28, tools/upstream_cases_more.py), each against numpy:

- llvm: element accesses a kernel writes itself on a global tensor are guarded where a grid overhangs the tensor
  (TileLang's LegalizeSafeMemoryAccess; `testing/python/language` ternary/if_range kernels at 100x200 wrote past
  the tensor's memory and crashed the process);
- Tenstorrent: a 1-D on-chip vector moved from or to a one-row slice of an N-D tensor (`lse[bz, by, rows]` in
  flash attention's forward for the backward pass, `Delta` of its preprocess), at a sequence that is not a tile
  multiple;
- eager kernels: `T.dynamic` dims are bound from each call's shapes (`examples/dynamic_shape`);
- `T.copy(a[i], b[j])` of two element accesses copies one element (TileLang lowers it to a store);
- `tilelang.testing.requires_*` marks (the test modules of TileLang carry them and must import).
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.errors import TileLangError

RNG = np.random.default_rng(2028)
needs_cxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def overhanging_grid(M, N, block_M, block_N):  # noqa: N803
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                row = by * block_M + i
                B[row, bx * block_N + j] = A[row, bx * block_N + j] * 2.0 if row < M // 2 else A[row, j] + 1.0

    return main


def test_llvm_guards_the_global_accesses_of_a_grid_that_overhangs_its_tensor():
    kernel = tilelang.compile(overhanging_grid(100, 200, 32, 32), target="llvm")
    a = RNG.standard_normal((100, 200)).astype("float32")
    backing = np.full((128, 200), 7.0, "float32")  # rows 100..127: what an unguarded last block row would write
    out = backing[:100]
    kernel(a, out)
    want = np.where(np.arange(100)[:, None] < 50, a * 2, a[:, np.arange(200) % 32] + 1)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(backing[100:], 7.0)


def delta_plus_lse(batch, heads, seq, dim, blk=32):
    """flash attention's backward preprocess (Delta = rowsum(O * dO)) plus a row vector read from an N-D tensor."""

    @T.prim_func
    def main(Out: T.Tensor([batch, heads, seq, dim], "float16"), dO: T.Tensor([batch, heads, seq, dim], "float16"),  # noqa: N803
             Lse: T.Tensor([batch, heads, seq], "float32"), Delta: T.Tensor([batch, heads, seq], "float32")):  # noqa: N803
        with T.Kernel(heads, T.ceildiv(seq, blk), batch) as (bx, by, bz):
            o = T.alloc_fragment([blk, dim], "float16")
            do = T.alloc_fragment([blk, dim], "float16")
            acc = T.alloc_fragment([blk, dim], "float32")
            lse = T.alloc_fragment([blk], "float32")
            delta = T.alloc_fragment([blk], "float32")
            T.copy(Out[bz, bx, by * blk:(by + 1) * blk, :], o)
            T.copy(dO[bz, bx, by * blk:(by + 1) * blk, :], do)
            T.copy(Lse[bz, bx, by * blk:(by + 1) * blk], lse)
            for i, j in T.Parallel(blk, dim):
                acc[i, j] = T.Cast("float32", o[i, j]) * T.Cast("float32", do[i, j])
            T.reduce_sum(acc, delta, 1)
            for i in T.Parallel(blk):
                delta[i] = delta[i] + lse[i]
            T.copy(delta, Delta[bz, bx, by * blk:(by + 1) * blk])

    return main


@needs_cxx
def test_tt_moves_a_vector_from_and_to_a_row_slice_of_an_nd_tensor():
    o, do = (RNG.uniform(-1, 1, (1, 2, 40, 64)).astype("float16") for _ in range(2))
    lse = RNG.uniform(-1, 1, (1, 2, 40)).astype("float32")
    kernel = tilelang.compile(delta_plus_lse(1, 2, 40, 64), out_idx=[3], target="tenstorrent")
    got = kernel(o, do, lse)
    want = (o.astype("float32") * do.astype("float32")).sum(-1) + lse
    np.testing.assert_allclose(got, want, rtol=1e-2, atol=1e-2)
    tensors = {t["name"]: t for t in kernel.artifact.rt_mod.plan["tensors"]}
    assert tensors["Lse"]["padded_shape"] == [1, 64, 64]  # each (batch, head) row on a tile row of its own


@needs_cxx
def test_tt_refuses_a_row_slice_of_a_dim_also_moved_in_blocks():
    @T.prim_func
    def main(X: T.Tensor((64, 64), "float32"), Y: T.Tensor((64, 64), "float32")):  # noqa: N803
        with T.Kernel(2) as bx:
            v = T.alloc_fragment([32], "float32")
            blk = T.alloc_fragment([32, 32], "float32")
            T.copy(X[bx, 0:32], v)
            T.copy(X[bx * 32, 32], blk)
            T.copy(blk, Y[bx * 32, 0])
            T.copy(v, Y[bx, 32:64])

    refusal = r"tensor 'X' \(shape \[64, 64\]\) is copied in blocks of \[1, 32\] elements along dim 0"
    with pytest.raises(TileLangError, match=refusal):
        tilelang.compile(main, target="tenstorrent")


@tilelang.jit
def scaled(A, block_M, block_N):
    M, N = T.dynamic("m"), T.dynamic("n")
    A: T.Tensor((M, N), T.float32)
    B = T.empty((M, N), T.float32)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M)) as (bx, by):
        a = T.alloc_fragment((block_M, block_N), T.float32)
        T.copy(A[by * block_M, bx * block_N], a)
        for i, j in T.Parallel(block_M, block_N):
            a[i, j] = a[i, j] * 3.0
        T.copy(a, B[by * block_M, bx * block_N])
    return B


def test_eager_dynamic_dims_are_bound_by_each_call():
    for shape in ((64, 64), (40, 72)):
        a = RNG.standard_normal(shape).astype("float32")
        np.testing.assert_allclose(scaled(a, 32, 32), a * 3, rtol=1e-6)
    assert len(scaled.cache) == 2
    with pytest.raises(TileLangError, match="outside an eager @tilelang.jit function"):
        T.dynamic("m")


def test_copy_of_two_element_accesses_copies_one_element():
    @T.prim_func
    def main(A: T.Tensor((64,), "int32"), B: T.Tensor((64,), "float32")):  # noqa: N803
        with T.Kernel(2) as bx:
            T.copy(A[bx * 32 + 1], B[bx * 32])

    a, b = np.arange(64, dtype="int32"), np.zeros(64, "float32")
    tilelang.compile(main, target="llvm")(a, b)
    want = np.zeros(64, "float32")
    want[[0, 32]] = [1, 33]
    np.testing.assert_array_equal(b, want)


def test_requires_marks_skip_what_this_machine_lacks():
    from tilelang.testing._requires import _cuda_capability

    no_cuda = _cuda_capability() is None
    for mark, skipped in ((tilelang.testing.requires_cuda, no_cuda),
                          (tilelang.testing.requires_cuda_compute_version_ge(99, 0), True),
                          (tilelang.testing.requires_package("no_such_package_28"), True),
                          (tilelang.testing.requires_package("numpy"), False),
                          (tilelang.testing.requires_metal, True)):

        def case():
            pass

        assert [(m.name, m.args[0]) for m in mark(case).pytestmark] == [("skipif", skipped)]
    with pytest.raises(ValueError, match="mode 'xx'"):
        tilelang.testing.requires_cuda_compute_version(8, 0, "xx")


def test_reshape_views_a_tensor_with_another_shape_of_the_same_size():
    @T.prim_func
    def main(A: T.Tensor((200,), "float32"), B: T.Tensor((10, 20), "float32")):  # noqa: N803
        with T.Kernel(1) as _:
            T.copy(T.reshape(A, [10, 20]), B)

    a, b = np.arange(200, dtype="float32"), np.zeros((10, 20), "float32")
    tilelang.compile(main, target="llvm")(a, b)
    np.testing.assert_array_equal(b, a.reshape(10, 20))

    with pytest.raises(TileLangError, match=r"buffer 'A' of shape \[200\] \(200 elements\) cannot be viewed as shape "
                                            r"\[10, 21\]"):
        @T.prim_func
        def bad(A: T.Tensor((200,), "float32"), B: T.Tensor((10, 21), "float32")):  # noqa: N803
            with T.Kernel(1) as _:
                T.copy(T.reshape(A, [10, 21]), B)
