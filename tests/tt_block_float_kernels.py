"""Kernels whose tensors are stored as block floats in DRAM (issue 31; pass_configs "tl.tt.dram_format"): a GEMM
whose B and C are bfloat8_b, and one whose B is bfloat4_b. Each factory carries the pass_configs it is compiled with
(`pass_configs`), which the corpus tools merge into every variant's."""

from __future__ import annotations

from typing import Any

import numpy as np
from test_language_llvm import matmul

BLOCK_FLOAT_GEMM = (128, 128, 128, 64, 64, 32)  # M, N, K, block_M, block_N, block_K: 2x2 output blocks, 4 K steps


def block_float_gemm(formats: dict[str, str]) -> Any:
    """The bf16 GEMM of BLOCK_FLOAT_GEMM with the tensors `formats` names stored in those formats."""
    def factory() -> Any:
        return matmul(*BLOCK_FLOAT_GEMM, dtype="bfloat16")

    factory.pass_configs = {"tl.tt.dram_format": formats}  # type: ignore[attr-defined]
    return factory


BLOCK_FLOAT_GEMMS = {"gemm_bc_bfloat8_b": {"B": "bfloat8_b", "C": "bfloat8_b"}, "gemm_b_bfloat4_b": {"B": "bfloat4_b"}}
BLOCK_FLOAT_CORPUS = {name: block_float_gemm(formats) for name, formats in BLOCK_FLOAT_GEMMS.items()}


def bfp_quantize(rows: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Face rows (last axis: 16 values, as float32) in a block-float format of `width` mantissa bits, computed from
    tt-metal's documented layout: (shared exponents, mantissas, signs, the values they stand for). The shared
    exponent is the row's largest 8-bit exponent; a mantissa is the value's 24-bit significand shifted right by the
    difference, rounded to nearest-even to `width` bits and saturated; a zero mantissa has no sign."""
    u = rows.astype(np.float32).view(np.uint32).astype(np.int64)
    exp = (u >> 23) & 0xFF
    shared = exp.max(axis=-1, keepdims=True)
    significand = (u & 0x7FFFFF) | (1 << 23)
    shifted = np.where(shared - exp >= 32, 0, significand >> np.minimum(shared - exp, 31))
    drop = 24 - width
    kept, rest = shifted >> drop, shifted & ((1 << drop) - 1)
    half = 1 << (drop - 1)
    kept = np.minimum(kept + ((rest > half) | ((rest == half) & (kept & 1 == 1))), (1 << width) - 1)
    kept = np.where((u & 0x7FFFFFFF) == 0, 0, kept)
    sign = np.where(kept == 0, 0, u >> 31)
    # value = (-1)^sign * mantissa * 2^(shared - 127 - (width - 1))
    values = np.where(sign == 1, -1.0, 1.0) * kept * np.exp2(shared.astype(np.float64) - 127 - (width - 1))
    return shared, kept, sign, values.astype(np.float32)


def bfp_values(m: np.ndarray, width: int) -> np.ndarray:
    """A row-major matrix (columns a multiple of 16) as its block-float values: a face row of a tile is 16
    consecutive values of one matrix row."""
    rows = m.astype(np.float32).reshape(*m.shape[:-1], m.shape[-1] // 16, 16)
    return bfp_quantize(rows, width)[3].reshape(m.shape)
