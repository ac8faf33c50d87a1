"""Attention variants on Tenstorrent (issue 28), in the emulator against numpy (tests/tt_attention_variant_kernels.py):

- the sliding window of examples/attention_sink: a band mask (one table), a key loop starting at a block-dependent
  `start` (its K and V reads are per core: the cores of a row need different key blocks), and the check_inf
  `m[i] == -inf` of a row that a key block masks entirely (compared as m < -FLT_MAX: m - (-inf) is NaN at -inf);
- block-causal attention (examples/block_causal_attention) and its forms alone: an if/else choosing which block a
  T.copy reads is one read of the block the condition picks; a mask in one arm of an if/else reads its table in that
  arm; scores made in both arms (the mask, or `T.clear`) and read after the if/else by the gemm are one CB that
  either arm's op pushes (a mask whose choice free of the element indices is an if/else of its own included); arms
  made by different kernels (a T.copy from DRAM in one, a T.fill in the other) are refused naming the buffer, and
  such a value holds in its padding only what both arms' values hold there.

Tolerance: 2^-7 of the largest magnitude of the reference (fp16)."""

import shutil

import ml_dtypes
import numpy as np
import pytest
from tt_attention_variant_kernels import (
    block_causal,
    branch_copies,
    copy_or_fill,
    exp_or_fill_max,
    mask_in_branch,
    mask_or_clear,
    sliding_window,
)

import tilelang
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _softmax_rows(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _window_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, window: int) -> np.ndarray:
    q, k, v = (x.astype(np.float32) for x in (q, k, v))
    pos = np.arange(q.shape[2])
    allowed = (pos[None, :] <= pos[:, None]) & (pos[None, :] > pos[:, None] - window)
    s = np.where(allowed, np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1]), -np.inf)
    return np.einsum("bhqk,bhkd->bhqd", _softmax_rows(s), v)


@pytest.mark.parametrize("seq", [128, 200])
def test_sliding_window_attention_matches_numpy(seq: int) -> None:
    rng = np.random.default_rng(seq)
    q, k, v = (rng.standard_normal((1, 1, seq, 64)).astype(np.float16) for _ in range(3))
    out = np.zeros_like(q)
    kernel = tilelang.compile(sliding_window(1, seq, 64, 64), target="tenstorrent")
    kernel(q, k, v, out)
    want = _window_ref(q, k, v, 64)
    got = out.astype(np.float32)
    assert not np.isnan(got).any()  # the row a key block masks whole: m == -inf must hold there
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())


@pytest.mark.parametrize(("m", "n"), [(64, 128), (100, 200)])
def test_an_if_else_picking_the_block_a_copy_reads_matches_numpy(m: int, n: int) -> None:
    a = np.random.default_rng(m).standard_normal((m, n)).astype(np.float32)
    out = np.zeros_like(a)
    tilelang.compile(branch_copies(m, n, 32), target="tenstorrent")(a, out)
    cols = np.arange(n)
    src = (cols // 32 - (cols // 32) % 2) * 32 + cols % 32  # odd column blocks read their left neighbour
    want = np.where(src < n, a[:, np.minimum(src, n - 1)], 0)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("n", [64, 100])
def test_a_mask_in_one_arm_of_an_if_else_matches_numpy(n: int) -> None:
    a = np.random.default_rng(n).standard_normal((n, n)).astype(np.float32)
    out = np.zeros_like(a)
    tilelang.compile(mask_in_branch(n, 32), target="tenstorrent")(a, out)
    rows, cols = np.arange(n)[:, None], np.arange(n)[None, :]
    even = ((rows // 32 + cols // 32) % 2) == 0
    np.testing.assert_array_equal(out, np.where(even & (rows < cols), 0, a))


def test_scores_made_by_a_mask_or_a_clear_then_a_gemm_match_numpy() -> None:
    # ragged: M = 100, N = 72 with 32 x 32 blocks; the step (bx + by) % 2 starts from the mask, the other from zero
    m, n, dim, dllm = 100, 72, 64, 8
    rng = np.random.default_rng(7)
    q, k = rng.standard_normal((m, dim)).astype(np.float16), rng.standard_normal((n, dim)).astype(np.float16)
    out = np.zeros((m, n), np.float32)
    tilelang.compile(mask_or_clear(m, n, dim, dllm), target="tenstorrent")(q, k, out)
    i, j = np.arange(m)[:, None] % 32 // dllm, np.arange(n)[None, :] % 32 // dllm
    allowed = np.where((np.arange(n)[None, :] // 32) % 2 == 0, i == j, i >= j)
    want = q.astype(np.float32) @ k.astype(np.float32).T + np.where(allowed, 0.0, -8.0)
    np.testing.assert_allclose(out, want, atol=1e-4, rtol=1e-5)


def _block_causal_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, dllm: int) -> np.ndarray:
    """upstream's `_dllm_mask`: a noisy query sees the clean keys of earlier dllm blocks and its own noisy block, a
    clean query the clean keys of its own and earlier blocks ([1, S, H, D])."""
    q, k, v = (x.astype(np.float32).transpose(0, 2, 1, 3) for x in (q, k, v))
    seq = q.shape[2]
    half, pos = seq // 2, np.arange(seq)
    q_clean, k_clean = pos[:, None] >= half, pos[None, :] >= half
    q_blk = np.where(q_clean, pos[:, None] - half, pos[:, None]) // dllm
    k_blk = np.where(k_clean, pos[None, :] - half, pos[None, :]) // dllm
    allowed = ((q_blk == k_blk) & ~q_clean & ~k_clean) | ((q_blk > k_blk) & ~q_clean & k_clean) | (
        (q_blk >= k_blk) & q_clean & k_clean)
    s = np.where(allowed, np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1]), -np.inf)
    return np.einsum("bhqk,bhkd->bhqd", _softmax_rows(s), v).transpose(0, 2, 1, 3)


@pytest.mark.parametrize(("seq", "block", "dim"), [(256, 64, 64), (192, 48, 64), (128, 64, 40)])
def test_block_causal_attention_matches_numpy(seq: int, block: int, dim: int) -> None:
    # dllm = 16: the mask's choices (own noisy block, or the clean boundary by q_is_noisy) are if/elses of their own
    # inside `if needs_mask`, and `else: T.clear(acc_s)` makes acc_s too; the gemm after the if/else reads either.
    # block = 48: acc_s [48, 48] on 2 x 2 tiles; its padded columns hold Q times the repeated last row of K's block
    # (reader_rows), and the padding mask before T.reduce_max makes them -inf (index_masks_padding.cc), so exp2 gives
    # 0 there for the row sum and for the gemm with V (whose padded rows are finite); Output's padded rows are never
    # written (a block's rows 48-63 would be the next block's). dim = 40: the row-major (B, S, H, D) tensors' pages
    # are padded to 64 elements in DRAM, holding 0 (the gemms' K padding) after the user's 40
    rng = np.random.default_rng(16)
    q, k, v = (rng.standard_normal((1, seq, 1, dim)).astype(ml_dtypes.bfloat16) for _ in range(3))
    out = np.full_like(q, np.nan)
    tilelang.compile(block_causal(1, seq, dim, 16, block), target="tenstorrent")(q, k, v, out)
    want = _block_causal_ref(q, k, v, 16)
    assert float(np.abs(out.astype(np.float32) - want).max()) <= 2.0**-6 * float(np.abs(want).max())


def test_arms_made_by_different_kernels_are_refused_naming_the_buffer() -> None:
    with pytest.raises(TileLangError, match=r"on-chip buffer 'A_s' is made in both arms of \(if bx % 2 == 0\) by ops "
                       r"of different kernels \(reader in the then arm, compute in the else arm\)"):
        tilelang.compile(copy_or_fill(64, 128, 32), target="tenstorrent")


def test_a_value_made_in_both_arms_holds_in_its_padding_what_both_arms_hold() -> None:
    # N = 40: S's columns 40-63 are padding, -inf in the fill's arm, exp(A's padding) in the other; the row maximum
    # needs -inf there whichever arm ran, so it is refused (the fill's arm alone would pass)
    with pytest.raises(TileLangError, match=r"T.reduce_max into 'm' reads the padding of 'S'"):
        tilelang.compile(exp_or_fill_max(128, 40, 32), target="tenstorrent")
