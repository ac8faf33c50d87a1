"""Any-shape kernels of the Tenstorrent corpus (issue 28): padded tensors, edge blocks, blocks that are not whole
tiles."""

from __future__ import annotations

import layers  # noqa: F401  (the layer folders on the import path: the kernels below are test modules')
from test_language_llvm import matmul
from tt_norm_kernels import rms_norm, softmax

SHAPE_CORPUS = {
    "gemm_ragged_100x200x72": lambda: matmul(100, 200, 72, 64, 64, 32, "bfloat16"),
    "gemm_out_64x4": lambda: matmul(64, 4, 64, 64, 4, 32),
    "softmax_ragged_rows_of_1": lambda: softmax(37, 72, 1),
    "rms_norm_ragged": lambda: rms_norm(100, 200, 32),
}
