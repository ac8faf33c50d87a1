"""What issue 28's upstream cases that failed on llvm too needed of the language: several T.Kernel launches in one
function (flash_decoding's split + combine, fusedmoe's shared expert), run one after another on llvm and refused by
name on Tenstorrent; a copy slice bounded by two assigned scalars (deepseek_mla's `KV[b, kv_start:kv_end, ...]`);
`T.clear` of a `T.alloc_var` scalar (deepseek_mla's combine)."""

import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

RNG = np.random.default_rng(2830)
needs_cc = pytest.mark.skipif(shutil.which("g++") is None and shutil.which("clang") is None, reason="no C compiler")


def two_launches(n, block):
    """Kernel 1 writes a workspace from sliding windows of A (slices bounded by assigned scalars), kernel 2 (other
    grid, other threads) sums the workspace's rows into a T.alloc_var scalar cleared with T.clear: the second reads
    what the first wrote, so it only matches when the launches run in order."""
    parts = n // block

    @T.prim_func
    def main(A: T.Tensor((n + block,), "float32"), Out: T.Tensor((block,), "float32")):
        work = T.alloc_global((parts, block), "float32")
        with T.Kernel(parts, threads=128) as bx:
            window = T.alloc_shared((block,), "float32")
            start = bx * block + 1
            end = (bx + 1) * block + 1
            T.copy(A[start:end], window)
            for i in T.Parallel(block):
                work[bx, i] = window[i] * 2
        with T.Kernel(block, threads=32) as i:
            total = T.alloc_var("float32")
            T.clear(total)
            for p in T.serial(parts):
                total = total + work[p, i]
            Out[i] = total

    return main


def two_launches_ref(a, n, block):
    return sum(2 * a[p * block + 1:(p + 1) * block + 1] for p in range(n // block))


@needs_cc
def test_two_launches_run_in_order_on_llvm_and_are_two_programs_on_tenstorrent() -> None:
    a = RNG.standard_normal(96 + 32).astype("float32")
    kernel = tilelang.compile(two_launches(96, 32), out_idx=[-1], target="llvm")
    np.testing.assert_allclose(kernel(a), two_launches_ref(a, 96, 32), rtol=1e-5, atol=1e-5)
    # Tenstorrent lowers each launch as a program (test_tt_programs.py); this first one's window starts off the tile
    # grid (A[bx * 32 + 1:...]), which a T.copy refuses naming the block.
    with pytest.raises(TileLangError, match=r"block of 'A' starts at \(0, bx \* 32 \+ 1\), not on a tile boundary"):
        tilelang.lower(two_launches(96, 32), target="tenstorrent")


def test_a_slice_whose_bounds_are_stored_twice_is_still_refused_by_name() -> None:
    with pytest.raises(TileLangError, match="TVM cannot prove equal"):

        @T.prim_func
        def main(A: T.Tensor((64,), "float32"), B: T.Tensor((16,), "float32")):
            with T.Kernel(1) as bx:
                s = T.alloc_shared((16,), "float32")
                start = bx * 16
                start = start + 1  # stored twice: its value at the copy is not a single let binding
                T.copy(A[start:bx * 16 + 16], s)
                T.copy(s, B)


def test_a_scalar_stored_before_a_loop_that_may_change_it_is_not_seen_through() -> None:
    with pytest.raises(TileLangError, match="TVM cannot prove equal"):

        @T.prim_func
        def main(A: T.Tensor((64,), "float32"), B: T.Tensor((16,), "float32")):
            with T.Kernel(1) as bx:
                s = T.alloc_shared((16,), "float32")
                start = bx * 16
                end = bx * 16 + 16
                for _k in T.serial(2):
                    T.copy(A[start:end], s)  # the loop's rest could store start again for its next iteration
                T.copy(s, B)
