"""A DRAM column stored to every element of its row of a 2-D on-chip buffer, and a float scalar assigned an element
of a DRAM tensor (issue 28; upstream gdn's chunk state: `G_shared[i_s2, i_v] = G[bb, i_s * block_S + i_s2, bh]`,
`G_last_local = G[...]` then `G_last_local = T.exp2(G_last_local * 1.442695)`). The column is read into a 1-D buffer
and broadcast (loop_dram_element.cc); the scalar is a one-element on-chip buffer. Run in the emulator against numpy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(2829)


def gated(S, H, chunk, D):  # noqa: N803
    """A = X * exp2((last - G[i]) * log2(e)) where last - G[i] <= 0 (else 0), B = X * exp2(last * log2(e)): G of
    (1, S, H) as gdn lays it, `last` one element of L per (head, chunk), X and both outputs (S, D) per head."""

    @T.prim_func
    def main(X: T.Tensor((H * S, D), "float32"), G: T.Tensor((1, S, H), "float32"),  # noqa: N803
             L: T.Tensor((H, S // chunk), "float32"), A: T.Tensor((H * S, D), "float32"),  # noqa: N803
             B: T.Tensor((H * S, D), "float32")):  # noqa: N803
        with T.Kernel(S // chunk, H, threads=128) as (bs, bh):
            G_shared = T.alloc_shared((chunk, D), "float32")
            X_shared = T.alloc_shared((chunk, D), "float32")
            A_fragment = T.alloc_fragment((chunk, D), "float32")
            B_fragment = T.alloc_fragment((chunk, D), "float32")
            last = T.alloc_var(T.float32)
            T.copy(X[bh * S + bs * chunk:bh * S + (bs + 1) * chunk, :], X_shared)
            last = L[bh, bs]
            for i_s2, i_v in T.Parallel(chunk, D):
                G_shared[i_s2, i_v] = G[0, bs * chunk + i_s2, bh]
            for i, j in T.Parallel(chunk, D):
                A_fragment[i, j] = T.if_then_else(last - G_shared[i, j] <= 0,
                                                  X_shared[i, j] * T.exp2((last - G_shared[i, j]) * 1.442695), 0)
            last = T.exp2(last * 1.442695)
            for i, j in T.Parallel(chunk, D):
                B_fragment[i, j] = X_shared[i, j] * last
            T.copy(A_fragment, A[bh * S + bs * chunk:bh * S + (bs + 1) * chunk, :])
            T.copy(B_fragment, B[bh * S + bs * chunk:bh * S + (bs + 1) * chunk, :])

    return main


def test_a_dram_column_broadcast_and_a_scalar_read_from_dram() -> None:
    s, h, chunk, d = 128, 2, 64, 32
    x = RNG.uniform(-1, 1, (h * s, d)).astype(np.float32)
    g = RNG.uniform(-2, 0, (1, s, h)).astype(np.float32)
    last = RNG.uniform(-2, 0, (h, s // chunk)).astype(np.float32)
    kernel = tilelang.compile(gated(s, h, chunk, d), out_idx=[-2, -1], target="tenstorrent")
    a, b = kernel(x, g, last)
    gc = g[0].T.reshape(h, s // chunk, chunk, 1)  # (head, chunk, row, 1)
    lc = last.reshape(h, s // chunk, 1, 1)
    xc = x.reshape(h, s // chunk, chunk, d)
    want_a = np.where(lc - gc <= 0, xc * np.exp(np.minimum(lc - gc, 0)), 0).reshape(h * s, d)
    want_b = (xc * np.exp(lc)).reshape(h * s, d)
    assert np.allclose(a, want_a, atol=1e-2, rtol=1e-2), float(np.abs(a - want_a).max())
    assert np.allclose(b, want_b, atol=1e-2, rtol=1e-2), float(np.abs(b - want_b).max())
