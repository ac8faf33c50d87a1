"""The T.* names TileLang's examples use beyond copy/gemm/fill, run on llvm against numpy: reductions (dim, clear,
abs), cumsum, atomic_add, alloc_var, hints, dtype spellings, T.Tensor views, loop forms and scalar helpers."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.engine.registry import BACKENDS
from tilelang.language import TileLangError

RNG = np.random.default_rng(1)


def run(func, *arrays, out_idx=-1):
    return tilelang.compile(func, out_idx=out_idx, target="llvm")(*arrays)


def reduce_kernel(op, M, N, dim, clear, out_shape):
    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor(out_shape, T.float32)):
        with T.Kernel(1, threads=128) as _:
            A_frag = T.alloc_fragment((M, N), T.float32)
            B_frag = T.alloc_fragment(out_shape, T.float32)
            T.copy(A, A_frag)
            T.copy(B, B_frag)
            op(A_frag, B_frag, dim=dim, clear=clear)
            T.copy(B_frag, B)
    return main


@pytest.mark.parametrize("name, ref", [
    ("reduce_sum", lambda a, axis: a.sum(axis)),
    ("reduce_max", lambda a, axis: a.max(axis)),
    ("reduce_min", lambda a, axis: a.min(axis)),
    ("reduce_absmax", lambda a, axis: np.abs(a).max(axis)),
])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_reductions_over_each_dim(name, ref, dim):
    a = RNG.standard_normal((8, 12)).astype("float32")
    axis = dim % 2
    out_shape = (12,) if axis == 0 else (8,)
    b = np.zeros(out_shape, "float32")
    run(reduce_kernel(getattr(T, name), 8, 12, dim, True, out_shape), a, b, out_idx=None)
    np.testing.assert_allclose(b, ref(a, axis), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name, combine", [
    ("reduce_sum", lambda old, new: old + new),
    ("reduce_max", np.maximum),
    ("reduce_min", np.minimum),
])
def test_reductions_without_clear_accumulate_into_out(name, combine):
    a = RNG.standard_normal((8, 12)).astype("float32")
    b = RNG.standard_normal((8, 1)).astype("float32")  # TileLang's kept-dim output shape (M, 1)
    expected = combine(b[:, 0], getattr(np, name[len("reduce_"):])(a, axis=1))
    run(reduce_kernel(getattr(T, name), 8, 12, 1, False, (8, 1)), a, b, out_idx=None)
    np.testing.assert_allclose(b[:, 0], expected, rtol=1e-5, atol=1e-5)


def test_reduce_abssum_always_clears():
    @T.prim_func
    def main(A: T.Tensor((4, 16), "float"), B: T.Tensor((4,), "float")):
        with T.Kernel(1) as _:
            A_s = T.alloc_shared((4, 16), "float")
            B_f = T.alloc_fragment((4,), "float")
            T.copy(A, A_s)
            T.fill(B_f, 100.0)
            T.reduce_abssum(A_s, B_f, dim=1)
            T.copy(B_f, B)

    a = RNG.standard_normal((4, 16)).astype("float32")
    np.testing.assert_allclose(run(main, a), np.abs(a).sum(1), rtol=1e-5)


def test_reduction_shape_mismatch_is_a_clear_error():
    with pytest.raises(TileLangError, match=r"T.reduce_sum: output B_frag has shape \(5\).*needs \(8\) or \(8, 1\)"):
        reduce_kernel(T.reduce_sum, 8, 12, 1, True, (5,))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("dim", [0, 1])
def test_cumsum(dim, reverse):
    @T.prim_func
    def main(A: T.Tensor((6, 10), T.float32), B: T.Tensor((6, 10), T.float32)):
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((6, 10), T.float32)
            T.copy(A, A_s)
            T.cumsum(src=A_s, dim=dim, reverse=reverse)
            T.copy(A_s, B)

    a = RNG.standard_normal((6, 10)).astype("float32")
    expected = np.flip(np.cumsum(np.flip(a, dim), dim), dim) if reverse else np.cumsum(a, dim)
    np.testing.assert_allclose(run(main, a), expected, rtol=1e-5, atol=1e-5)


def test_cumsum_into_another_buffer_per_block():
    @T.prim_func
    def main(A: T.Tensor((64,), T.float32), B: T.Tensor((64,), T.float32)):
        with T.Kernel(4, threads=128) as bx:
            A_s = T.alloc_shared((16,), T.float32)
            B_s = T.alloc_shared((16,), T.float32)
            T.copy(A[bx * 16:(bx + 1) * 16], A_s)
            T.cumsum(A_s, B_s)
            T.copy(B_s, B[bx * 16:(bx + 1) * 16])

    a = RNG.standard_normal(64).astype("float32")
    np.testing.assert_allclose(run(main, a), np.cumsum(a.reshape(4, 16), 1).reshape(64), rtol=1e-5, atol=1e-5)


def test_atomic_add_element_and_tile_forms():
    @T.prim_func
    def main(A: T.Tensor((32, 8), T.float32), Total: T.Tensor((1,), T.float32), ColSum: T.Tensor((4, 8), T.float32)):
        with T.Kernel(4, threads=128) as bx:
            A_s = T.alloc_shared((8, 8), T.float32)
            T.copy(A[bx * 8, 0], A_s)
            for i, j in T.Parallel(8, 8):
                T.atomic_add(Total[0], A_s[i, j])
            T.atomic_add(ColSum[0, 0], A_s[0:4, :])

    a = RNG.standard_normal((32, 8)).astype("float32")
    total, colsum = np.zeros(1, "float32"), np.ones((4, 8), "float32")
    tilelang.compile(main, target="llvm")(a, total, colsum)
    np.testing.assert_allclose(total, [a.sum()], rtol=1e-4)
    np.testing.assert_allclose(colsum, 1 + a.reshape(4, 8, 8)[:, 0:4, :].sum(0), rtol=1e-5, atol=1e-5)


def test_alloc_var_scalar_state_and_hints():
    @T.prim_func
    def main(A: T.Tensor((16,), T.int32), B: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=128) as _:
            T.use_swizzle(panel_size=10, enable=True)
            T.annotate_layout({})
            count = T.alloc_var(T.int32, init=0)
            largest = T.alloc_var("int32")
            largest = -1000
            for i in T.serial(16):
                if A[i] > 0:
                    count = count + 1
                largest = T.max(largest, A[i])
            B[0] = count
            B[1] = largest

    a = RNG.integers(-50, 50, 16).astype("int32")
    np.testing.assert_array_equal(run(main, a), [(a > 0).sum(), a.max()])


def test_dtype_spellings_casts_and_scalar_helpers():
    @T.prim_func
    def main(A: T.Tensor((4, 8), T.float), B: T.Tensor((4, 8), T.uint8), C: T.Tensor((4, 8), T.int8)):
        with T.Kernel(1) as _:
            for i, j in T.grid(4, 8):
                x = A[i, j] * T.float(10.0)
                B[i, j] = T.Cast(T.uint8, T.clamp(x, 0.0, 255.0))
                C[i, j] = T.cast(T.if_then_else(x < 0, T.floordiv(i - 9, 2), T.floormod(j, 3)), T.dtype("int8"))
            for k in T.Serial(0, 2):
                if A[0, k] == T.infinity(T.float32):
                    B[0, k] = 7
            for v in T.vectorized(8):
                B[3, v] = B[3, v]
            for u in T.unroll(2):
                C[3, u] = C[3, u]

    a = (RNG.standard_normal((4, 8)) * 20).astype("float32")
    b, c = np.zeros((4, 8), "uint8"), np.zeros((4, 8), "int8")
    tilelang.compile(main, target="llvm")(a, b, c)
    np.testing.assert_array_equal(b, np.clip(a * 10, 0, 255).astype("uint8"))
    i, j = np.meshgrid(np.arange(4), np.arange(8), indexing="ij")
    np.testing.assert_array_equal(c, np.where(a * 10 < 0, (i - 9) // 2, j % 3))
    assert T.dtype(T.float16) == "float16" and T.dtype("float") == "float32"
    assert int(T.GemmWarpPolicy.FullRow) == 1


def test_tensor_view_of_another_buffer():
    @T.prim_func
    def main(A: T.Tensor((4, 8), T.float32), B: T.Tensor((32,), T.float32)):
        with T.Kernel(1) as _:
            A_flat = T.Tensor((32,), T.float32, A.data)
            for i in T.serial(32):
                B[i] = A_flat[i] * 2.0

    a = RNG.standard_normal((4, 8)).astype("float32")
    np.testing.assert_allclose(run(main, a), a.reshape(32) * 2)


def test_dynamic_shapes_are_refused_clearly():
    with pytest.raises(TileLangError, match="dynamic shapes are not supported"):
        T.dynamic("m")


def test_eager_declarations_outside_jit_are_refused():
    with pytest.raises(TileLangError, match=r"T.const declares the shapes of an eager kernel"):
        T.const("M, N")
    with pytest.raises(TileLangError, match=r"T.empty declares"):
        T.empty((4,), T.float32)


def _tt_kernel(body):
    @T.prim_func
    def main(A: T.Tensor((64, 64), T.float32), B: T.Tensor((64, 64), T.float32)):
        with T.Kernel(1, 1) as (bx, by):
            A_s = T.alloc_shared((64, 64), T.float32)
            B_s = T.alloc_shared((64, 64), T.float32)
            T.copy(A, A_s)
            T.clear(B_s)
            body(A_s, B_s, B)
            T.copy(B_s, B)
    return main


@pytest.mark.parametrize("body", [
    lambda a, b, _: T.reduce_sum(a, b[:, 0:1], dim=1),
    lambda a, b, _: T.reduce_max(a, b[:, 0:1], dim=1, clear=False),
    lambda a, b, _: T.reduce_absmax(a, b[:, 0:1], dim=1),
    lambda a, b, out: T.atomic_add(out[0, 0], a[0, 0]),  # a scalar atomic; the block forms run (split-K)
    # T.cumsum runs (tests/tenstorrent/test_tt_cumsum.py)
], ids=["reduce_sum", "reduce_max", "reduce_absmax", "atomic_add_scalar"])
def test_tenstorrent_refuses_the_new_tile_ops_with_a_clear_error(body):
    with pytest.raises(TileLangError) as err:
        tilelang.compile(_tt_kernel(body), target="tenstorrent")
    assert "tile primitive" in str(err.value) or "tenstorrent" in str(err.value), str(err.value)


def test_unsupported_names_are_clear_errors_naming_construct_and_backends():
    assert not hasattr(T, "shfl_xor")  # TileLang's warp shuffle (tilelang/language/builtin.py)
    backends = re.escape(", ".join(sorted(BACKENDS)))  # the registry, whatever backends were added to it
    with pytest.raises(TileLangError, match=rf"T.shfl_xor is not supported by this project's backends "
                                            rf"\({backends}\)") as err:
        @T.prim_func
        def main(A: T.Tensor((4,), T.float32)):
            with T.Kernel(1) as _:
                A[0] = T.shfl_xor(A[0], 1)
    assert "A[0] = T.shfl_xor(A[0], 1)" in str(err.value)  # the source location


def test_tensor_subscript_annotation():
    @T.prim_func
    def main(A: T.Tensor[(4, 8), T.float32], B: T.Tensor[(4, 8), float]):
        with T.Kernel(1) as _:
            T.copy(A, B)

    a = RNG.standard_normal((4, 8)).astype("float32")
    np.testing.assert_array_equal(run(main, a), a)
