"""TileLang's example kernels on Tenstorrent, unmodified: the factories of tests/language/test_tilelang_examples.py and
tests/language/test_tilelang_flash_attention.py (transcriptions of tile-ai/tilelang's examples/, classic and eager
style, checked on llvm there) compiled for target="tenstorrent" through their undecorated functions (`__wrapped__`) and
run in the emulator. Every example either matches numpy or is refused with a TileLangError naming the construct the
backend does not lower; this table is the list of which TileLang examples run on Tenstorrent.

Sizes are the examples' parameters scaled to 32x32 tiles. Tolerances: fp32 kernels 1e-4 relative + 1e-5 absolute
(fp32 CBs and DST; reductions sum in another order than numpy); fp16 operands with fp32 accumulation within
2e-3 absolute (outputs of magnitude <= 1: one fp16 rounding of each operand and of the output).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import test_tilelang_examples as examples
import test_tilelang_flash_attention as attention

import tilelang
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(16)


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _tt(factory: Any, *args: Any, out_idx: Any = (-1,)) -> Any:
    """The example's prim_func (the jit factory's own function), compiled for Tenstorrent."""
    return tilelang.compile(factory.__wrapped__(*args), out_idx=list(out_idx), target="tenstorrent")


def rms_norm() -> None:
    a = RNG.standard_normal((64, 128)).astype("float32")
    ref = a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(_tt(examples.rms_norm, 64, 128, 32)(a), ref, rtol=1e-4, atol=1e-5)


def layer_norm() -> None:
    x = RNG.standard_normal((64, 128)).astype("float32")
    w, b = RNG.standard_normal(128).astype("float32"), RNG.standard_normal(128).astype("float32")
    ref = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(_tt(examples.layer_norm, 64, 128, 32)(x, w, b), ref, rtol=1e-4, atol=1e-4)


def softmax() -> None:
    x = RNG.standard_normal((64, 128)).astype("float32") * 3
    np.testing.assert_allclose(_tt(examples.softmax, 64, 128, 32)(x), _softmax(x), rtol=1e-4, atol=1e-6)


def online_softmax() -> None:
    x = RNG.standard_normal((64, 128)).astype("float32") * 3
    np.testing.assert_allclose(_tt(examples.online_softmax, 64, 128, 32, 32)(x), _softmax(x), rtol=1e-4, atol=1e-6)


def split_k_gemm() -> None:
    a = RNG.uniform(-1, 1, (64, 128)).astype("float16")
    bt = RNG.uniform(-1, 1, (64, 128)).astype("float16")
    c = np.zeros((64, 64), "float32")
    kernel = tilelang.compile(examples.splitk_matmul(64, 64, 128, 32, 32, 32, 2), target="tenstorrent")
    kernel(a, bt, c)
    np.testing.assert_allclose(c, a.astype("float32") @ bt.astype("float32").T, rtol=1e-3, atol=1e-3)


def flash_attention() -> None:
    q, k, v = (RNG.uniform(-1, 1, (2, 2, 128, 64)).astype("float16") for _ in range(3))
    kernel = _tt(attention.flashattn, 2, 2, 128, 128, 64, False, 32, 32, out_idx=[3])
    scores = np.einsum("bhqd,bhkd->bhqk", q.astype("float32"), k.astype("float32")) / 8
    ref = np.einsum("bhqk,bhkd->bhqd", _softmax(scores), v.astype("float32"))
    np.testing.assert_allclose(kernel(q, k, v).astype("float32"), ref, atol=2e-3)


def causal_flash_attention() -> None:
    """The causal index mask (bx * block_M + i + past_len >= k * block_N + j) read per tile from its pattern table."""
    q, k, v = (RNG.uniform(-1, 1, (1, 2, 128, 64)).astype("float16") for _ in range(3))
    kernel = _tt(attention.flashattn, 1, 2, 128, 128, 64, True, 32, 32, out_idx=[3])
    scores = np.einsum("bhqd,bhkd->bhqk", q.astype("float32"), k.astype("float32")) / 8
    scores = np.where(np.tril(np.ones((128, 128), bool)), scores, -np.inf)
    ref = np.einsum("bhqk,bhkd->bhqd", _softmax(scores), v.astype("float32"))
    np.testing.assert_allclose(kernel(q, k, v).astype("float32"), ref, atol=2e-3)


def gemv() -> None:
    """The 1-D operand is read into an on-chip column vector and read back at the column index as a row vector."""
    a = RNG.uniform(-1, 1, 256).astype("float16")
    b = RNG.uniform(-1, 1, (128, 256)).astype("float16")
    out = _tt(examples.gemv, 128, 256, 32, 64)(a, b)
    np.testing.assert_allclose(out, b.astype("float32") @ a.astype("float32"), rtol=1e-5, atol=1e-5)


def cumsum(dim: int, reverse: bool = False) -> None:
    """Forward: bit-exact (cumsum_tile adds in fp32 in row order, numpy's order); reverse: the column total less the
    running sum, plus x, within fp32 rounding of the total (tests/tenstorrent/test_tt_cumsum.py)."""
    a = RNG.standard_normal((64, 64)).astype("float32")
    tiles = a.reshape(2, 32, 2, 32).transpose(0, 2, 1, 3)
    axis = 2 + dim
    scan = np.flip(np.cumsum(np.flip(tiles, axis), axis), axis) if reverse else np.cumsum(tiles, axis)
    ref = scan.transpose(0, 2, 1, 3).reshape(64, 64)
    out = _tt(examples.cumsum_kernel, 64, 64, 32, 32, dim, reverse)(a)
    if reverse:
        np.testing.assert_allclose(out, ref, rtol=0, atol=32 * np.finfo(np.float32).eps * np.abs(ref).max())
    else:
        np.testing.assert_array_equal(out, ref)


def eager_rms_norm() -> None:
    kernel = tilelang.jit(target="tenstorrent")(examples.eager_rms_norm.__wrapped__)
    a = RNG.standard_normal((64, 64)).astype("float32")
    ref = a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(kernel(a, blk_m=32), ref, rtol=1e-4, atol=1e-5)


RUNS: dict[str, Callable[[], None]] = {
    "examples/norm rms_norm": rms_norm,
    "examples/norm layer_norm": layer_norm,
    "examples/softmax": softmax,
    "examples/online_softmax": online_softmax,
    "examples/gemm_splitk (tile atomic_add, 3-D grid)": split_k_gemm,
    "examples/flash_attention mha_fwd_bhsd (fp16)": flash_attention,
    "examples/flash_attention mha_fwd_bhsd is_causal": causal_flash_attention,
    "eager-style rms_norm (T.const, T.empty)": eager_rms_norm,
    "gemv with a 1-D operand on chip (accumulating row reductions)": gemv,
    "examples/cumsum dim=0": lambda: cumsum(0),
    "examples/cumsum dim=1": lambda: cumsum(1),
    "examples/cumsum dim=0 reverse=True": lambda: cumsum(0, True),
    "examples/cumsum dim=1 reverse=True": lambda: cumsum(1, True),
}

REFUSED: dict[str, tuple[Callable[[], Any], str]] = {
    "examples/quantize per-row absmax int8 (int8 now has a format; absmax does not reduce)": (
        lambda: examples.per_row_int8_quant.__wrapped__(64, 64, 32),
        r"T.reduce_absmax\(x, amax\) is not supported by the tenstorrent backend"),
    "argmax with T.alloc_var (int32 output now has a format; a float scalar carried across the loop does not "
    "lower)": (lambda: examples.row_argmax.__wrapped__(64, 64),
               r"scalar 'best' is assigned .*not a float32 scalar assigned more than once"),
}


@pytest.mark.parametrize("example", list(RUNS))
def test_example_runs_on_tenstorrent_and_matches_numpy(example: str) -> None:
    RUNS[example]()


@pytest.mark.parametrize("example", list(REFUSED))
def test_example_still_refused_names_the_construct(example: str) -> None:
    factory, message = REFUSED[example]
    with pytest.raises(TileLangError, match=message):
        tilelang.lower(factory(), target="tenstorrent")
