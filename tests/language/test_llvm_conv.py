"""T.im2col on the CPU backends: TileLang's examples/convolution (tests/tt_conv_kernels.py, upstream's code) through
llvm against numpy, and the frontend's checks of T.im2col's operands."""

import numpy as np
import pytest
from tt_conv_kernels import conv_reference, convolution

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

RNG = np.random.default_rng(28)


def uniform(*shape: int) -> np.ndarray:
    return RNG.uniform(-1.0, 1.0, shape).astype("float16")


# (N, H, W, C, F, K, S, D, P, block_M, block_N, block_K): the upstream case's shape, then stride 2 on a ragged image
# (N * OH * OW = 2 * 4 * 5 = 40 rows in blocks of 32), dilation 2, and a 1x1 filter with a C that block_K does not
# divide (im2col columns past K * K * C load zeros).
SHAPES = [
    (1, 8, 8, 32, 32, 3, 1, 1, 1, 64, 32, 32),
    (2, 7, 9, 32, 64, 3, 2, 1, 1, 32, 32, 32),
    (1, 9, 9, 16, 32, 3, 1, 2, 2, 64, 32, 32),
    (1, 5, 6, 24, 32, 1, 1, 1, 0, 32, 32, 32),
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "N{}_H{}_W{}_C{}_F{}_K{}_S{}_D{}_P{}".format(*s[:9]))
def test_upstream_convolution_matches_numpy_on_llvm(shape: tuple[int, ...]) -> None:
    n, h, w, c, f, k, s, d, p, bm, bn, bk = shape
    data, weight = uniform(n, h, w, c), uniform(k, k, c, f)
    kern = tilelang.jit(target="llvm")(convolution)
    out = kern(data, weight, s, d, p, bm, bn, bk, 1, 128)
    np.testing.assert_allclose(out.astype("float32"), conv_reference(data, weight, s, p, d), rtol=2e-2, atol=2e-2)


def _im2col_kernel(col_shape, col_dtype="float16", kernel=3):
    @T.prim_func
    def main(data: T.Tensor((1, 8, 8, 32), "float16"), out: T.Tensor(col_shape, col_dtype)):
        with T.Kernel(1, threads=128) as bx:
            col = T.alloc_shared(col_shape, col_dtype)
            T.c2d_im2col(data, col, bx, 1, kernel, 1, 1, 1)
            T.copy(col, out)

    return main


def test_c2d_im2col_is_im2col_and_loads_the_padded_border_as_zero() -> None:
    """TileLang's deprecated T.c2d_im2col: column block 1 is filter tap (0, 1), so row 0 (pixel (0, 0)) reads the
    input at (-1, 0): padding, zero; row 9 (pixel (1, 1)) reads (0, 1)."""
    data = uniform(1, 8, 8, 32)
    col = tilelang.compile(_im2col_kernel((64, 32)), out_idx=[1], target="llvm")(data)
    np.testing.assert_array_equal(col[:8], 0)
    np.testing.assert_array_equal(col[9], data[0, 0, 1])
    np.testing.assert_array_equal(col[63], data[0, 6, 8 - 1])


@pytest.mark.parametrize(("col_shape", "col_dtype", "kernel", "message"), [
    ((64, 32), "float32", 3, r"T.im2col: img data is float16 and col col float32; im2col copies without a cast"),
    ((64, 32), "float16", 0, r"T.im2col: kernel is 0; it must be at least 1"),
    ((2, 64, 32), "float16", 3, r"T.im2col: col col \(2, 64, 32\) must be a 2-D \[block_M, block_K\] tile"),
])
def test_bad_im2col_operands_are_named(col_shape, col_dtype, kernel, message) -> None:
    with pytest.raises(TileLangError, match=message):
        _im2col_kernel(col_shape, col_dtype, kernel)
