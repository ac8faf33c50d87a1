"""Attention variants on Tenstorrent (issue 28), in the emulator against numpy (tests/tt_attention_variant_kernels.py):

- the sliding window of examples/attention_sink: a band mask (one table), a key loop starting at a block-dependent
  `start` (its K and V reads are per core: the cores of a row need different key blocks), and the check_inf
  `m[i] == -inf` of a row that a key block masks entirely (compared as m < -FLT_MAX: m - (-inf) is NaN at -inf);
- the two forms of block-causal attention (examples/block_causal_attention) that lower: an if/else choosing which
  block a T.copy reads is one read of the block the condition picks, and a mask in one arm of an if/else reads its
  table in that arm; the kernel itself is refused, naming acc_s, made in both arms (the mask, or `T.clear`) and
  read after the if/else by the gemm.

Tolerance: 2^-7 of the largest magnitude of the reference (fp16)."""

import shutil

import numpy as np
import pytest
from tt_attention_variant_kernels import block_causal, branch_copies, mask_in_branch, sliding_window

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


@pytest.mark.parametrize("dllm", [16, 64])
def test_block_causal_attention_is_refused_naming_the_value_made_in_both_arms(dllm: int) -> None:
    # the K/V reads the if/else picks and the mask in `if diagonal != 0` lower (both dllm blocks: dllm = 16's
    # mask stays one nest); `else: T.clear(acc_s)` then makes acc_s in both arms for the gemm after the if/else
    with pytest.raises(TileLangError, match=r"'acc_s' is written in the else branch .* by the fill op .* read "
                       r"outside the if/else by the gemm op .* made in both arms \(also the mask op writing 'acc_s'"):
        tilelang.compile(block_causal(1, 256, 64, dllm), target="tenstorrent")
