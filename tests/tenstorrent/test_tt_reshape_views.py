"""`T.reshape` of a DRAM tensor on Tenstorrent (issue 28; src/transform/loop_views.cc): a tensor the kernel accesses
only through 2-D views of one shape is laid out as that matrix (TileLang's `test_tilelang_language_reshape.py`
kernel, 200 -> 10x20); any other view is refused naming the view, the tensor and why."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TTLoweringError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def reshape_copy(n, m):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n // m, m), "float32")):  # noqa: N803
        with T.Kernel(1) as _:
            T.copy(T.reshape(A, [n // m, m]), B)

    return main


def test_a_reshaped_1d_tensor_is_laid_out_as_its_matrix():
    kernel = tilelang.compile(reshape_copy(200, 20), out_idx=[1], target="tenstorrent")
    a = np.arange(200, dtype="float32")
    np.testing.assert_array_equal(kernel(a), a.reshape(10, 20))
    tensors = {t["name"]: t for t in kernel.artifact.rt_mod.plan["tensors"]}
    assert tensors["A"]["padded_shape"] == [32, 32]


def test_views_that_are_not_lowered_are_refused_naming_view_and_tensor():
    @T.prim_func
    def also_whole(A: T.Tensor((2048,), "float32"), B: T.Tensor((32, 64), "float32"),  # noqa: N803
                   C: T.Tensor((2048,), "float32")):  # noqa: N803
        with T.Kernel(1) as _:
            T.copy(T.reshape(A, [32, 64]), B)
            T.copy(A, C)

    @T.prim_func
    def three_d(A: T.Tensor((2048,), "float32"), B: T.Tensor((2, 32, 32), "float32")):  # noqa: N803
        with T.Kernel(1) as _:
            T.copy(T.reshape(A, [2, 32, 32]), B)

    view = (r"a view \(shape \[{}\], float32\) of tensor 'A' \(shape \[2048\], float32\), a T.reshape .* is not "
            r"lowered: ")
    with pytest.raises(TTLoweringError, match=view.format("32, 64") + "a view whose last dim is not the tensor's"):
        tilelang.compile(also_whole, target="tenstorrent")
    with pytest.raises(TTLoweringError, match=view.format("2, 32, 32") + "only 2-D views are lowered"):
        tilelang.compile(three_d, target="tenstorrent")
