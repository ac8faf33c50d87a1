"""1-D on-chip buffers read at the column index beside the row index (issue 28; upstream gdn's scaled K K^T and chunk
output: `G_diff[i, j] = G_shared[i] - G_shared[j]`, then `exp(G_diff)` under `G_diff <= 0 and i > j`). A 1-D on-chip
buffer is a column vector; read at j it is transposed on chip into row tiles. Two vectors combined (an outer sum,
difference or product) make one of them a block (a zero fill plus its broadcast, exact) and combine the other with it
by its own broadcast; v[i] - w[j], which has no row-broadcast form, is -(W - v[i]). A selection's conjunction of a
value comparison and an element-index comparison is the product of their 1.0 / 0.0 blocks, and a guard without else
(`if i < j: A[i, j] = 0`) keeps the element's value otherwise. Run in the emulator against numpy."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest
from tt_column_kernels import head_part

import tilelang
import tilelang.language as T

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(2828)


def decay(S, H, chunk, form):  # noqa: N803
    """gdn's decay of a chunk's scores: G of (1, S, H) as upstream lays it (head_first=False, one column per head read
    into a 1-D buffer), X and the output one (S, chunk) matrix per head stacked. `form` "and": upstream K K^T's
    `G_diff <= 0 and i > j`; "guard": chunk_o's data condition then `if i < j: A = 0`; "rows": G[j] - G[i]."""

    @T.prim_func
    def main(X: T.Tensor((H * S, chunk), "float32"), G: T.Tensor((1, S, H), "float32"),  # noqa: N803
             A: T.Tensor((H * S, chunk), "float32")):  # noqa: N803
        with T.Kernel(S // chunk, H, threads=128) as (bs, bh):
            G_shared = T.alloc_shared((chunk,), "float32")
            X_shared = T.alloc_shared((chunk, chunk), "float32")
            G_diff = T.alloc_fragment((chunk, chunk), "float32")
            A_fragment = T.alloc_fragment((chunk, chunk), "float32")
            T.copy(X[bh * S + bs * chunk:bh * S + (bs + 1) * chunk, :], X_shared)
            for i_s in T.Parallel(chunk):
                G_shared[i_s] = G[0, bs * chunk + i_s, bh]
            for i, j in T.Parallel(chunk, chunk):
                if form == "rows":
                    G_diff[i, j] = G_shared[j] - G_shared[i]
                else:
                    G_diff[i, j] = G_shared[i] - G_shared[j]
            for i, j in T.Parallel(chunk, chunk):
                if form == "and":
                    A_fragment[i, j] = T.if_then_else(G_diff[i, j] <= 0 and i > j,
                                                      X_shared[i, j] * T.exp(G_diff[i, j]), 0)
                else:
                    A_fragment[i, j] = T.if_then_else(G_diff[i, j] <= 0, X_shared[i, j] * T.exp(G_diff[i, j]), 0)
            for i, j in T.Parallel(chunk, chunk):
                if i < j:
                    A_fragment[i, j] = 0
            T.copy(A_fragment, A[bh * S + bs * chunk:bh * S + (bs + 1) * chunk, :])

    return main


def _decay_ref(x: np.ndarray, g: np.ndarray, s: int, h: int, chunk: int, form: str) -> np.ndarray:
    gc = g[0].T.reshape(h, s // chunk, chunk)  # (head, chunk, position)
    diff = gc[..., :, None] - gc[..., None, :]
    if form == "rows":
        diff = -diff
    i, j = np.indices((chunk, chunk))
    keep = (diff <= 0) & ((i > j) if form == "and" else (i >= j))
    out = np.where(keep, x.reshape(h, s // chunk, chunk, chunk) * np.exp(np.minimum(diff, 0)), 0)
    return out.reshape(h * s, chunk).astype(np.float32)


@pytest.mark.parametrize("form", ["and", "guard", "rows"])
def test_outer_difference_of_a_vector_decays_scores(form: str) -> None:
    s, h, chunk = 128, 2, 64
    x = RNG.uniform(-1, 1, (h * s, chunk)).astype(np.float32)
    steps = -np.log1p(np.exp(-RNG.standard_normal((1, s // chunk, chunk, h))))  # gdn's gates: falling in a chunk
    g = np.cumsum(steps, 2).reshape(1, s, h).astype(np.float32)
    kernel = tilelang.compile(decay(s, h, chunk, form), out_idx=[-1], target="tenstorrent")
    got = kernel(x, g)
    want = _decay_ref(x, g, s, h, chunk, form)
    assert np.allclose(got, want, atol=1e-3, rtol=1e-3), float(np.abs(got - want).max())
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    assert "add_tiles_bcast_" in compute  # one vector made a block
    assert ("sub_tiles_bcast_cols(" in compute) and ("transpose_wh_tile(" in compute or "transpose" in compute)


def outer_product(n):
    """C[i, j] = R[i] * R[j], R the row maxima of A (a bf16 column vector on chip)."""

    @T.prim_func
    def main(A: T.Tensor((n, n), "bfloat16"), C: T.Tensor((n, n), "bfloat16")):  # noqa: N803
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((n, n), "bfloat16")
            R_s = T.alloc_fragment((n,), "bfloat16")
            C_l = T.alloc_fragment((n, n), "bfloat16")
            T.copy(A[0, 0], A_s)
            T.reduce_max(A_s, R_s, dim=1)
            for i, j in T.Parallel(n, n):
                C_l[i, j] = R_s[i] * R_s[j]
            T.copy(C_l, C[0, 0])

    return main


def broadcast_copies(n):
    """C[i, j] = R[i] and D[i, j] = R[j] (a vector stored to every element of its row or column)."""

    @T.prim_func
    def main(A: T.Tensor((n, n), "bfloat16"), C: T.Tensor((n, n), "bfloat16"),  # noqa: N803
             D: T.Tensor((n, n), "bfloat16")):  # noqa: N803
        with T.Kernel(1, threads=128) as _:
            A_s = T.alloc_shared((n, n), "bfloat16")
            R_s = T.alloc_fragment((n,), "bfloat16")
            C_l = T.alloc_fragment((n, n), "bfloat16")
            D_l = T.alloc_fragment((n, n), "bfloat16")
            T.copy(A[0, 0], A_s)
            T.reduce_max(A_s, R_s, dim=1)
            for i, j in T.Parallel(n, n):
                C_l[i, j] = R_s[i]
            for i, j in T.Parallel(n, n):
                D_l[i, j] = R_s[j]
            T.copy(C_l, C[0, 0])
            T.copy(D_l, D[0, 0])

    return main


def test_a_vector_stored_to_every_element_is_a_broadcast_copy() -> None:
    a = RNG.uniform(-1, 1, (64, 64)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(broadcast_copies(64), out_idx=[-2, -1], target="tenstorrent")
    r = a.astype(np.float32).max(1)
    c, d = (x.astype(np.float32) for x in kernel(a))
    assert np.array_equal(c, np.broadcast_to(r[:, None], (64, 64)))
    assert np.array_equal(d, np.broadcast_to(r[None, :], (64, 64)))


def test_outer_product_of_an_on_chip_vector() -> None:
    """R[i] made a block, times R[j] by mul_tiles_bcast_rows (the right vector keeps its broadcast)."""
    a = RNG.uniform(-1, 1, (64, 64)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(outer_product(64), out_idx=[-1], target="tenstorrent")
    r = a.astype(np.float32).max(1)
    got = kernel(a).astype(np.float32)
    assert float(np.abs(got - r[:, None] * r[None, :]).max()) <= 2.0**-8
    assert "mul_tiles_bcast_rows(" in kernel.artifact.rt_mod.files["compute.cpp"]


def test_row_major_block_of_part_of_the_last_dim() -> None:
    """Each (S, 32) block is a run of 64 bytes of each page, at byte 64 * bv (reader_row_parts, writer_row_parts);
    the rows of the other part of every page are written by the other core, none by both."""
    x = RNG.uniform(-1, 1, (1, 64, 2, 64)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(head_part(64, 2, 64, 32, 0), out_idx=[-1], target="tenstorrent")
    got = kernel(x).astype(np.float32)
    assert np.array_equal(got, (x.astype(np.float32) * 2 + 1).astype(ml_dtypes.bfloat16).astype(np.float32))
    files = kernel.artifact.rt_mod.files
    assert "noc_async_read(" in files["reader.cpp"] and "noc_async_write(" in files["writer.cpp"]

