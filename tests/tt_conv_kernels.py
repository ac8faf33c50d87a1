"""TileLang's 2-D convolution as upstream writes it today: examples/convolution/example_convolution.py's
`convolution`, copied unmodified from tile-ai/tilelang a35008a (2026-08-21) without its `@tilelang.jit` decorator
(the tests apply `tilelang.jit(target=...)`). An eager kernel: N, C, H, W, F, K are bound from the shapes of the NHWC
input and the (K, K, C, F) filter; `T.im2col` loads a [block_M, block_K] tile of the im2col matrix per K step and
`T.gemm` multiplies it with the filter viewed as its (K * K * C, F) matrix. No `from __future__ import annotations`:
real TileLang's parser rejects it in a kernel module."""

import numpy as np

import tilelang.language as T

__all__ = ["convolution", "conv_reference", "conv_prim_func", "im2col_matrix", "im2col_reference", "CONV_CORPUS"]


def convolution(data, kernel, S, D, P, block_M, block_N, block_K, num_stages, threads, dtype=T.float16, accum_dtype=T.float32):  # noqa: E501 (upstream's line)
    N, C, H, W, F, K = T.const("N, C, H, W, F, K")
    KH, KW = K, K
    OH = (H + 2 * P - D * (K - 1) - 1) // S + 1
    OW = (W + 2 * P - D * (K - 1) - 1) // S + 1
    dtype = T.float16
    accum_dtype = T.float32

    data: T.Tensor((N, H, W, C), dtype)
    kernel: T.Tensor((KH, KW, C, F), dtype)
    out = T.empty((N, OH, OW, F), dtype)

    with T.Kernel(T.ceildiv(F, block_N), T.ceildiv(N * OH * OW, block_M), threads=threads) as (bx, by):
        data_shared = T.alloc_shared((block_M, block_K), dtype)
        kernel_shared = T.alloc_shared((block_K, block_N), dtype)
        out_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        out_shared = T.alloc_shared((block_M, block_N), dtype)

        kernel_flat = T.Tensor((KH * KW * C, F), dtype, kernel.data)
        out_flat = T.Tensor((N * OH * OW, F), dtype, out.data)

        T.clear(out_local)
        for k_iter in T.Pipelined(T.ceildiv(KH * KW * C, block_K), num_stages=num_stages):
            T.im2col(data, data_shared, by, k_iter, KH, S, D, P)
            T.copy(kernel_flat[k_iter * block_K, bx * block_N], kernel_shared)
            T.gemm(data_shared, kernel_shared, out_local)

        T.copy(out_local, out_shared)
        T.copy(out_shared, out_flat[by * block_M, bx * block_N])

    return out


def conv_reference(data, weight, stride, padding, dilation):
    """torch.conv2d of upstream's ref_program in numpy, fp32: NHWC data, (K, K, C, F) weight, NHWC result."""
    n, h, w, c = data.shape
    k, _, _, f = weight.shape
    padded = np.zeros((n, h + 2 * padding, w + 2 * padding, c), np.float32)
    padded[:, padding:padding + h, padding:padding + w] = data.astype(np.float32)
    oh = (h + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    ow = (w + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, f), np.float32)
    for i in range(k):
        for j in range(k):
            window = padded[:, i * dilation:i * dilation + (oh - 1) * stride + 1:stride,
                            j * dilation:j * dilation + (ow - 1) * stride + 1:stride]
            out += np.einsum("nhwc,cf->nhwf", window, weight[i, j].astype(np.float32))
    return out


def im2col_matrix(N, H, W, C, K, S, D, P, block_M, block_K, dtype="float16"):
    """The im2col matrix of an NHWC tensor, one [block_M, block_K] T.im2col tile per block, written whole (rows and
    columns rounded up to whole blocks: the tiles past the last pixel or the filter hold zeros)."""
    OH = (H + 2 * P - D * (K - 1) - 1) // S + 1
    OW = (W + 2 * P - D * (K - 1) - 1) // S + 1
    rows = (N * OH * OW + block_M - 1) // block_M * block_M
    cols = (K * K * C + block_K - 1) // block_K * block_K

    @T.prim_func
    def main(data: T.Tensor((N, H, W, C), dtype), matrix: T.Tensor((rows, cols), dtype)):
        with T.Kernel(cols // block_K, rows // block_M, threads=128) as (bx, by):
            tile = T.alloc_shared((block_M, block_K), dtype)
            T.im2col(data, tile, by, bx, K, S, D, P)
            T.copy(tile, matrix[by * block_M, bx * block_K])

    return main


def im2col_reference(data, k, stride, padding, dilation, rows, cols):
    """The im2col matrix (rows: output pixels n, oh, ow; columns: kh, kw, c) in numpy, zero-padded to rows x cols."""
    n, h, w, c = data.shape
    padded = np.zeros((n, h + 2 * padding, w + 2 * padding, c), data.dtype)
    padded[:, padding:padding + h, padding:padding + w] = data
    oh = (h + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    ow = (w + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    out = np.zeros((rows, cols), data.dtype)
    taps = [padded[:, i * dilation:i * dilation + (oh - 1) * stride + 1:stride,
                   j * dilation:j * dilation + (ow - 1) * stride + 1:stride] for i in range(k) for j in range(k)]
    out[:n * oh * ow, :k * k * c] = np.concatenate(taps, axis=-1).reshape(n * oh * ow, k * k * c)
    return out


def conv_prim_func(n, h, w, c, f, k, s, d, p, block_M, block_N, block_K):
    """The prim_func of `convolution` for these constants (what its first call compiles)."""
    import tilelang

    return tilelang.jit(convolution).get_tir(N=n, C=c, H=h, W=w, F=f, K=k, S=s, D=d, P=p, block_M=block_M,
                                             block_N=block_N, block_K=block_K, num_stages=1, threads=128)


# The kernels of the codegen corpus (tests/tt_kernels.py CORPUS; tools/check_metal compiles them).
CONV_CORPUS = {
    "conv2d_im2col_3x3": lambda: conv_prim_func(1, 8, 8, 32, 32, 3, 1, 1, 1, 64, 32, 32),
    "conv2d_im2col_ragged_stride2": lambda: conv_prim_func(2, 7, 9, 32, 64, 3, 2, 1, 1, 32, 32, 64),
    "im2col_two_taps_per_row": lambda: im2col_matrix(2, 7, 9, 32, 3, 2, 1, 1, 32, 64),
}
