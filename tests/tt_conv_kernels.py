"""TileLang's 2-D convolution as upstream writes it today: examples/convolution/example_convolution.py's
`convolution`, copied unmodified from tile-ai/tilelang a35008a (2026-08-21) without its `@tilelang.jit` decorator
(the tests apply `tilelang.jit(target=...)`). An eager kernel: N, C, H, W, F, K are bound from the shapes of the NHWC
input and the (K, K, C, F) filter; `T.im2col` loads a [block_M, block_K] tile of the im2col matrix per K step and
`T.gemm` multiplies it with the filter viewed as its (K * K * C, F) matrix. No `from __future__ import annotations`:
real TileLang's parser rejects it in a kernel module."""

import numpy as np

import tilelang.language as T

__all__ = ["convolution", "conv_reference"]


def convolution(data, kernel, S, D, P, block_M, block_N, block_K, num_stages, threads, dtype=T.float16, accum_dtype=T.float32):
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
