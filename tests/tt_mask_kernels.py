"""Index-mask kernels for the Tenstorrent backend (tests/tenstorrent/test_tt_masks.py, the codegen corpus):
T.if_then_else stores whose condition is affine in the element indices, of the forms AddTTConstants lowers (column
bound, row bound, diagonals) with constant values or a buffer selected against -inf or 0; and value selections
(tests/tenstorrent/test_tt_select.py), whose condition compares on-chip values (a comparison with zero of their
difference, then where_tile), as TileLang's top-k example writes them."""

from typing import Any

import tilelang.language as T
from tilelang.tenstorrent import INTRINSICS, api_profile

__all__ = ["bound_select", "tril_select", "antidiagonal_constants", "row_bound", "in_place_bound", "drop_row_max",
           "threshold", "compare_blocks", "topk_index", "select_blocks", "guarded_rows",
           "MASK_CORPUS"]


def bound_select(M: int, N: int, block_N: int, bound: int) -> Any:
    """Out = A where the global column is below `bound`, else -inf (upstream attention's key bound on a buffer)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:
            A_s = T.alloc_shared((M, block_N), "float32")
            acc = T.alloc_fragment((M, block_N), "float32")
            T.copy(A[0, bx * block_N], A_s)
            for i, j in T.Parallel(M, block_N):
                acc[i, j] = T.if_then_else(bx * block_N + j >= bound, -T.infinity("float32"), A_s[i, j])
            T.copy(acc, Out[0, bx * block_N])

    return main


def tril_select(N: int, block: int) -> Any:
    """Out = A on and below the diagonal, 0 above it (a buffer against 0: a 1/0 table multiplied in)."""

    @T.prim_func
    def main(A: T.Tensor((N, N), "float32"), Out: T.Tensor((N, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(N, block), threads=128) as (bx, by):
            A_s = T.alloc_shared((block, block), "float32")
            acc = T.alloc_fragment((block, block), "float32")
            T.copy(A[by * block, bx * block], A_s)
            for i, j in T.Parallel(block, block):
                acc[i, j] = T.if_then_else(by * block + i >= bx * block + j, A_s[i, j], 0)
            T.copy(acc, Out[by * block, bx * block])

    return main


def antidiagonal_constants(N: int, block: int, limit: int) -> Any:
    """Out = 1.5 where row + column < limit, else -2 (p = q = -1: two constants, the table's own values)."""

    @T.prim_func
    def main(Out: T.Tensor((N, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(N, block), threads=128) as (bx, by):
            acc = T.alloc_fragment((block, block), "float32")
            for i, j in T.Parallel(block, block):
                acc[i, j] = T.if_then_else(by * block + i + bx * block + j < limit, 1.5, -2.0)
            T.copy(acc, Out[by * block, bx * block])

    return main


def row_bound(M: int, N: int, block_M: int, bound: int) -> Any:
    """Out = A + (0 where the global row is at most `bound`, else +inf): a row bound (q = 0), `<=`."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            A_s = T.alloc_shared((block_M, N), "float32")
            acc = T.alloc_fragment((block_M, N), "float32")
            T.copy(A[bx * block_M, 0], A_s)
            for i, j in T.Parallel(block_M, N):
                acc[i, j] = T.if_then_else(bx * block_M + i <= bound, A_s[i, j], T.infinity("float32"))
            T.copy(acc, Out[bx * block_M, 0])

    return main


def in_place_bound(M: int, N: int, block_N: int, bound: int) -> Any:
    """acc masked in place after it is computed: acc = if_then_else(col < bound, acc, -inf) (folded away where
    every block lies below the bound)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:
            A_s = T.alloc_shared((M, block_N), "float32")
            acc = T.alloc_fragment((M, block_N), "float32")
            T.copy(A[0, bx * block_N], A_s)
            for i, j in T.Parallel(M, block_N):
                acc[i, j] = T.exp(A_s[i, j])
            for i, j in T.Parallel(M, block_N):
                acc[i, j] = T.if_then_else(bx * block_N + j < bound, acc[i, j], -T.infinity("float32"))
            T.copy(acc, Out[0, bx * block_N])

    return main


# The mask kernels of the codegen corpus (tests/tt_kernels.py CORPUS).
def drop_row_max(M: int, N: int, blk_m: int) -> Any:
    """Out = X with each row's maximum replaced by -10000 (one step of upstream's example_topk.py: the row maximum,
    then `logits_frag[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], -10000.0, logits_frag[i, j])`)."""

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, N), "float32")
            max_val = T.alloc_fragment((blk_m,), "float32")
            T.copy(X[bx * blk_m, 0], x)
            T.reduce_max(x, max_val, dim=1, clear=True)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = T.if_then_else(max_val[i] == x[i, j], -10000.0, x[i, j])
            T.copy(x, Out[bx * blk_m, 0])

    return main


def threshold(M: int, N: int, block: int, limit: float) -> Any:
    """Out = X where X > limit, else 0 (a block against a constant: x - limit on the SFPU, then gtz)."""

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            x = T.alloc_shared((block, block), "float32")
            y = T.alloc_fragment((block, block), "float32")
            T.copy(X[by * block, bx * block], x)
            for i, j in T.Parallel(block, block):
                y[i, j] = T.if_then_else(x[i, j] > limit, x[i, j], 0.0)
            T.copy(y, Out[by * block, bx * block])

    return main


def compare_blocks(M: int, N: int, block: int) -> Any:
    """Out = A where A <= B, else 2.5 (two blocks: their difference on the FPU, then lez)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            a = T.alloc_shared((block, block), "float32")
            b = T.alloc_shared((block, block), "float32")
            y = T.alloc_fragment((block, block), "float32")
            T.copy(A[by * block, bx * block], a)
            T.copy(B[by * block, bx * block], b)
            for i, j in T.Parallel(block, block):
                y[i, j] = T.if_then_else(a[i, j] <= b[i, j], a[i, j], 2.5)
            T.copy(y, Out[by * block, bx * block])

    return main


def topk_index(M: int, N: int, blk_m: int, fill: int = -1) -> Any:
    """Idx[m] = the column of row m's maximum, as one step of upstream's example_topk.py computes it: the int32
    T.fill (upstream's -1), the row maximum, `expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j,
    expand_max_idx[i, j])` selecting the column index j, and the int32 row maximum."""

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Idx: T.Tensor((M,), "int32")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            logits_frag = T.alloc_fragment((blk_m, N), "float32")
            max_val = T.alloc_fragment((blk_m,), "float32")
            expand_max_idx = T.alloc_fragment((blk_m, N), "int32")
            max_idx = T.alloc_fragment((blk_m,), "int32")
            T.copy(X[bx * blk_m, 0], logits_frag)
            T.fill(expand_max_idx, fill)
            T.reduce_max(logits_frag, max_val, dim=1, clear=True)
            for i, j in T.Parallel(blk_m, N):
                expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])
            T.reduce_max(expand_max_idx, max_idx, dim=1, clear=True)
            T.copy(max_idx, Idx[bx * blk_m])

    return main


def topk_columns(M: int, N: int, topk: int, blk_m: int) -> Any:
    """Upstream example_topk.py as it is written: topk_rows' body storing the columns of [M, topk] outputs."""

    @T.prim_func
    def main(logits: T.Tensor((M, N), "float32"), gates: T.Tensor((M, topk), "float32"),
             indices: T.Tensor((M, topk), "int32")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            logits_frag = T.alloc_fragment((blk_m, N), "float32")
            max_val = T.alloc_fragment((blk_m,), "float32")
            expand_max_idx = T.alloc_fragment((blk_m, N), "int32")
            max_idx = T.alloc_fragment((blk_m,), "int32")
            T.copy(logits[bx * blk_m, 0], logits_frag)
            for k in T.serial(topk):
                T.fill(expand_max_idx, -1)
                T.reduce_max(logits_frag, max_val, dim=1, clear=True)
                for i, j in T.Parallel(blk_m, N):
                    expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])
                T.reduce_max(expand_max_idx, max_idx, dim=1, clear=True)
                for i, j in T.Parallel(blk_m, N):
                    logits_frag[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], -10000.0, logits_frag[i, j])
                for i in T.Parallel(blk_m):
                    gates[bx * blk_m + i, k] = max_val[i]
                    indices[bx * blk_m + i, k] = max_idx[i]

    return main


def topk_rows(M: int, N: int, topk: int, blk_m: int) -> Any:
    """Upstream example_topk.py's body (its k loop carrying `logits_frag` from the T.copy of `logits`, the int32
    index selection, the drop of the selected entry) with the outputs stored as rows: Gates[k, m] / Idx[k, m] are the
    k-th largest value of row m and its column (upstream stores the columns of [M, topk] outputs)."""

    @T.prim_func
    def main(logits: T.Tensor((M, N), "float32"), gates: T.Tensor((topk, M), "float32"),
             indices: T.Tensor((topk, M), "int32")):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            logits_frag = T.alloc_fragment((blk_m, N), "float32")
            max_val = T.alloc_fragment((blk_m,), "float32")
            expand_max_idx = T.alloc_fragment((blk_m, N), "int32")
            max_idx = T.alloc_fragment((blk_m,), "int32")
            T.copy(logits[bx * blk_m, 0], logits_frag)
            for k in T.serial(topk):
                T.fill(expand_max_idx, -1)
                T.reduce_max(logits_frag, max_val, dim=1, clear=True)
                for i, j in T.Parallel(blk_m, N):
                    expand_max_idx[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], j, expand_max_idx[i, j])
                T.reduce_max(expand_max_idx, max_idx, dim=1, clear=True)
                for i, j in T.Parallel(blk_m, N):
                    logits_frag[i, j] = T.if_then_else(max_val[i] == logits_frag[i, j], -10000.0, logits_frag[i, j])
                T.copy(max_val, gates[k, bx * blk_m])
                T.copy(max_idx, indices[k, bx * blk_m])

    return main


def select_blocks(M: int, N: int, block: int) -> Any:
    """Out = A where A > B, else B (a selection between two blocks: where_tile of three DST tiles)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            a = T.alloc_shared((block, block), "float32")
            b = T.alloc_shared((block, block), "float32")
            y = T.alloc_fragment((block, block), "float32")
            T.copy(A[by * block, bx * block], a)
            T.copy(B[by * block, bx * block], b)
            for i, j in T.Parallel(block, block):
                y[i, j] = T.if_then_else(a[i, j] > b[i, j], a[i, j], b[i, j])
            T.copy(y, Out[by * block, bx * block])

    return main


def guarded_rows(M: int, N: int, block_M: int, block_N: int, lo: int = 16, hi: int = 96) -> Any:
    """TileLang's if_range test (testing/python/language/test_tilelang_language_if_range.py): a guard lo < row < hi
    in a loop over DRAM choosing between A * 2 and A * 0.5 (a band: A times a 2/0.5 table)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                row_idx = by * block_M + i
                col_idx = bx * block_N + j
                if lo < row_idx < hi:
                    B[row_idx, col_idx] = A[row_idx, col_idx] * 2.0
                else:
                    B[row_idx, col_idx] = A[row_idx, col_idx] * 0.5

    return main


MASK_CORPUS: dict[str, Any] = {
    "mask_bound_select": lambda: bound_select(64, 128, 64, 80),
    "mask_tril_select": lambda: tril_select(64, 32),
    "mask_antidiagonal_constants": lambda: antidiagonal_constants(64, 32, 50),
    "mask_row_bound": lambda: row_bound(128, 64, 64, 70),
    "select_drop_row_max": lambda: drop_row_max(64, 64, 32),
    "select_compare_blocks": lambda: compare_blocks(64, 64, 32),
    "select_two_blocks": lambda: select_blocks(64, 64, 32),
    "mask_guarded_rows": lambda: guarded_rows(128, 128, 32, 32),
}
if api_profile() in INTRINSICS["sfpu_reduce_max_int32_rows"].cpp:  # ttnn 0.65's sfpu_reduce reduces columns only
    MASK_CORPUS["select_topk_index"] = lambda: topk_index(64, 64, 32)
    MASK_CORPUS["select_topk_rows"] = lambda: topk_rows(64, 32, 4, 64)
    MASK_CORPUS["select_topk_columns_ragged"] = lambda: topk_columns(100, 40, 4, 64)  # upstream's [M, k] stores
