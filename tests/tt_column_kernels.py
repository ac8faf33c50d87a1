"""Row-major blocks of part of the last dim in the Tenstorrent corpus (issue 28; upstream kda's
`U[bb, s0:s1, bh, v0:v0 + 32]` of a (B, S, H, D) tensor): each block is a run of bytes of each page at the part's byte
offset, read by the reader_row_parts protocol and written by writer_row_parts (specs/protocols/), so tools/check_metal
compiles both against the real headers."""

from __future__ import annotations

from typing import Any

import tilelang.language as T

__all__ = ["head_part", "COLUMN_CORPUS"]


def head_part(S, H, D, width, start):  # noqa: N803
    """Y[0, :, h, part] = X[0, :, h, part] * 2 + 1 over parts of `width` of the last dim from `start`, laid out
    row-major: one page per (b, s, h) row."""

    @T.prim_func
    def main(X: T.Tensor((1, S, H, D), "bfloat16"), Y: T.Tensor((1, S, H, D), "bfloat16")):  # noqa: N803
        with T.Kernel((D - start) // width, H, threads=128) as (bv, bh):
            X_shared = T.alloc_shared((S, width), "bfloat16")
            Y_shared = T.alloc_shared((S, width), "bfloat16")
            T.copy(X[0, 0:S, bh, start + bv * width:start + (bv + 1) * width], X_shared)
            for i, j in T.Parallel(S, width):
                Y_shared[i, j] = X_shared[i, j] * 2.0 + 1.0
            T.copy(Y_shared, Y[0, 0:S, bh, start + bv * width:start + (bv + 1) * width])

    return main


# The codegen corpus entry (tests/tt_kernels.py CORPUS, through DATA_CORPUS): two 32-wide parts of a 64-wide last dim
# on two heads, four cores.
COLUMN_CORPUS: dict[str, Any] = {
    "row_parts_of_the_last_dim": lambda: head_part(64, 2, 64, 32, 0),
}
