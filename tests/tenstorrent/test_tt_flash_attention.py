"""TileLang's flash-attention forward on Tenstorrent (issue 16): upstream's current example_mha_fwd_bhsd.py body
unmodified (tests/tt_attention_kernels.py; fp16 Q/K/V/Output, fp32 accumulation), BHSD tensors with a 3-D grid, run
in the emulator and compared with numpy (causal and masked forms: tests/tenstorrent/test_tt_masks.py).

What it exercises: the macro's online softmax (carried running maximum and log-sum), the Q block read once and held
across the KV loop by both gemms' wait/pop flags, Q @ K^T cleared in the loop body (one product per iteration, not a
K loop), the fp32 scores converted to a bf16 gemm operand on chip, acc_o rescaled by a column vector and then
accumulated onto by P @ V (the product as a value of its own, then an element-wise add), and the constant loop bound
`loop_range` (a one-element local buffer folded to its constant), and the key-bound mask folded to a zero fill.

Tolerance: 2^-7 of the largest magnitude of the reference. The reference is computed in fp32 from the fp16 inputs;
the kernel rounds the probabilities P to fp16 before P @ V (as TileLang's acc_s_cast) and the output to fp16 (one
rounding each), on top of exp2 and the fp32 sums in another order."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from tt_attention_kernels import flashattn

import tilelang

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _reference(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    q, k, v = (x.astype(np.float32) for x in (q, k, v))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return np.einsum("bhqk,bhkd->bhqd", e / e.sum(-1, keepdims=True), v)


@pytest.mark.parametrize("block", [32, 64])
def test_flash_attention_forward_matches_numpy(block: int) -> None:
    b, h, s, d = 2, 2, 128, 64
    rng = np.random.default_rng(block)
    q, k, v = (rng.standard_normal((b, h, s, d)).astype(np.float16) for _ in range(3))
    kernel = tilelang.compile(flashattn(b, h, s, s, d, False, block, block), out_idx=[3], target="tenstorrent")
    got = kernel(q, k, v).astype(np.float32)
    want = _reference(q, k, v)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    assert kernel.last_report["status"] == "ok"


def test_flash_attention_holds_q_and_accumulates_after_the_product() -> None:
    art = tilelang.lower(flashattn(1, 1, 64, 64, 64, False, 32, 32), target="tenstorrent")
    plan = art.rt_mod.plan
    assert any(cb["buffer"] == "acc_o_product" for cb in plan["cbs"])
    compute = art.rt_mod.files["compute.cpp"]
    assert compute.count("matmul_tiles(") >= 2 and "add_tiles(" in compute and "mul_tiles_bcast_cols(" in compute
