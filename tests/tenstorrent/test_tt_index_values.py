"""Element indices and values of the block indices in element-wise arithmetic on Tenstorrent (issue 28), in the
emulator against numpy (tests/tt_index_value_kernels.py):

- an element index used as a value (`(i - j) * log_decay`) is a block of the index table's tiles (AddTTConstants'
  `index` constant, copied on chip per tile), then ordinary element-wise ops;
- an integer value of the block indices (`T.Cast("float32", bz)` under `T.log2(1 - T.exp2(-5 - bz))`, a per-head
  decay) is a block the compute kernel fills with it at run time (fill_tile), the SFPU computing the functions;
- a masked computed value cast on its store (`T.Cast(float16, T.if_then_else(i >= j, a * decay, 0))`) is made by
  its tree's ops, then multiplied by the mask's 1/0 table;
- upstream's chunked retention forward (examples/linear_attention/example_retention_fwd.py) end to end.
"""

import ml_dtypes
import numpy as np
import pytest
import tt_index_value_kernels as kv

import tilelang
from tilelang.errors import TileLangError


def _decay(heads: int, blk: int, n: int) -> np.ndarray:
    i = np.arange(blk)
    g = np.log2(1 - 2.0 ** (-5.0 - np.arange(heads)))[:, None, None]
    return np.tile(np.exp2((i[:, None] - i[None, :])[None] * g), (1, n // blk, n // blk))


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_element_indices_and_a_per_head_scalar_match_numpy(dtype: str) -> None:
    heads, n, blk = 2, 64, 32
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float32
    a = np.random.default_rng(0).standard_normal((heads, n, n)).astype(np_dtype)
    b = np.zeros_like(a)
    kernel = tilelang.compile(kv.index_decay(heads, n, blk, dtype), target="tenstorrent")
    kernel(a, b)
    by = np.repeat(np.arange(n // blk), blk)[None, :, None]
    want = a.astype(np.float32) * _decay(heads, blk, n) + by
    tol = 2e-2 if dtype == "bfloat16" else 1e-5  # bf16: every op of the tree packs its value in bf16
    np.testing.assert_allclose(b.astype(np.float32), want, rtol=tol, atol=tol * 4)
    tables = {t["name"]: t["constant"]["index"] for t in kernel.artifact.rt_mod.plan["tensors"]  # type: ignore
              if "index" in (t.get("constant") or {})}
    assert sorted((x["p"], x["q"]) for x in tables.values()) == [(0, 1), (1, 0)]  # one table per index, read once


def test_masked_computed_value_cast_on_store_matches_numpy() -> None:
    heads, n, blk = 2, 128, 64
    a = np.random.default_rng(1).standard_normal((heads, n, n)).astype(np.float32)
    b = np.zeros_like(a, dtype=np.float16)
    tilelang.compile(kv.masked_decay(heads, n, blk), target="tenstorrent")(a, b)
    i = np.arange(n) % blk  # the block's own indices
    want = np.where((i[:, None] >= i[None, :])[None], a * _decay(heads, blk, n), 0)
    np.testing.assert_allclose(b.astype(np.float32), want, rtol=4e-3, atol=4e-3)  # fp16 values of the tree


def test_retention_forward_matches_numpy() -> None:
    b_, s, h, d = 1, 128, 2, 64
    rng = np.random.default_rng(2)
    q, k, v = (rng.uniform(-0.5, 0.5, (b_, s, h, d)).astype(np.float16) for _ in range(3))
    o = np.zeros((1, b_, s, h, d), np.float16)
    tilelang.compile(kv.chunk_retention_fwd_kernel(b_, s, h, d, d), target="tenstorrent")(q, k, v, o)
    qf, kf, vf = (x.astype(np.float32) for x in (q, k, v))
    gamma = 1 - 2.0 ** (-5.0 - np.arange(h))
    t = np.arange(s)
    decay = np.where(t[:, None] >= t[None, :], gamma[:, None, None] ** (t[:, None] - t[None, :]), 0)
    scores = np.einsum("bqhd,bkhd->bhqk", qf, kf) * d**-0.5 * decay[None]
    want = np.einsum("bhqk,bkhd->bqhd", scores, vf)[None]
    np.testing.assert_allclose(o.astype(np.float32), want, rtol=3e-2, atol=3e-2)


def test_an_index_the_dtype_cannot_hold_is_refused() -> None:
    with pytest.raises(TileLangError, match=r"element index i as a value in a bfloat16 store of shape \[512, 512\]"):
        tilelang.lower(kv.index_decay(1, 512, 512, "bfloat16"), target="tenstorrent")
