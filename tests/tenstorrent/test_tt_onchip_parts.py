"""Parts of an on-chip buffer in a T.copy or T.gemm (issue 28; src/transform/loop_onchip_parts.cc): a CB moves whole
blocks, so LowerTTLoopsToTileOps makes each part a buffer of its own where the parts are fixed.

- a leading dim indexed at one enclosing loop's variable (TileLang's gemm_batched: `A_shared[b, :, :]`) is dropped;
- a 2-D buffer used in tile-aligned parts (TileLang's gemm_with_stride: `A_shared[:, block_K:]`) becomes one buffer per
  part, its whole-buffer T.clear a clear of each part, a part nothing uses dropped;
- a part that is not tile-aligned stays refused, naming the buffer.

Both kernels run in the emulator against numpy at one or two 32x32 tiles per operand.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
RNG = np.random.default_rng(28)


def batched(batch: int, size: int):  # type: ignore[no-untyped-def]
    @T.prim_func
    def main(A: T.Tensor((batch, size, size), "float32"), B: T.Tensor((batch, size, size), "float32"),  # noqa: N803
             C: T.Tensor((batch, size, size), "float32")):  # noqa: N803
        with T.Kernel(1, threads=128) as _:
            A_shared = T.alloc_shared((batch, size, size), "float32")
            B_shared = T.alloc_shared((batch, size, size), "float32")
            C_local = T.alloc_fragment((size, size), "float32")
            for b in T.serial(batch):
                T.copy(A[b, 0, 0], A_shared[b, :, :])
                T.copy(B[b, 0, 0], B_shared[b, :, :])
                T.clear(C_local)
                T.gemm(A_shared[b, :, :], B_shared[b, :, :], C_local)
                T.copy(C_local, C[b, 0, 0])

    return main


def batched_twice(batch: int, size: int):  # type: ignore[no-untyped-def]
    """The batch loop inside another loop: B's slice b is read before it is written, holding the previous pass's."""

    @T.prim_func
    def main(A: T.Tensor((batch, size, size), "float32"), B: T.Tensor((batch, size, size), "float32"),  # noqa: N803
             C: T.Tensor((batch, size, size), "float32")):  # noqa: N803
        with T.Kernel(1, threads=128) as _:
            A_shared = T.alloc_shared((size, size), "float32")
            B_shared = T.alloc_shared((batch, size, size), "float32")
            C_local = T.alloc_fragment((size, size), "float32")
            for _p in T.serial(2):
                for b in T.serial(batch):
                    T.copy(A[b, 0, 0], A_shared)
                    T.clear(C_local)
                    T.gemm(A_shared, B_shared[b, :, :], C_local)
                    T.copy(B[b, 0, 0], B_shared[b, :, :])
                    T.copy(C_local, C[b, 0, 0])

    return main


def strided(size: int, offset: int):  # type: ignore[no-untyped-def]
    """A in the right half of a buffer twice its width, B in the top half of one twice its height."""

    @T.prim_func
    def main(A: T.Tensor((size, size), "float32"), B: T.Tensor((size, size), "float32"),  # noqa: N803
             C: T.Tensor((size, size), "float32")):  # noqa: N803
        with T.Kernel(1, threads=128) as _:
            A_shared = T.alloc_shared((size, 2 * size), "float32")
            B_shared = T.alloc_shared((2 * size, size), "float32")
            C_local = T.alloc_fragment((size, size), "float32")
            T.clear(A_shared)
            T.clear(B_shared)
            T.clear(C_local)
            T.copy(A, A_shared[:, offset:offset + size])
            T.copy(B, B_shared[0:size, :])
            T.gemm(A_shared[:, offset:offset + size], B_shared[0:size, :], C_local)
            T.copy(C_local, C)

    return main


def test_a_slice_per_loop_iteration_matches_numpy() -> None:
    a, b = (RNG.uniform(-1, 1, (2, 32, 32)).astype("float32") for _ in range(2))
    kernel = tilelang.compile(batched(2, 32), out_idx=[-1], target="tenstorrent")
    np.testing.assert_allclose(kernel(a, b), np.einsum("bmk,bkn->bmn", a, b), rtol=1e-4, atol=1e-4)


def test_tile_aligned_parts_match_numpy_and_unused_parts_go() -> None:
    a, b = (RNG.uniform(-1, 1, (32, 32)).astype("float32") for _ in range(2))
    kernel = tilelang.compile(strided(32, 32), out_idx=[-1], target="tenstorrent")
    np.testing.assert_allclose(kernel(a, b), a @ b, rtol=1e-4, atol=1e-4)
    plan = kernel.artifact.rt_mod.files["tt.plan.json"]  # type: ignore[attr-defined]
    assert "A_shared_0_32" in plan and "B_shared_0_0" in plan
    assert "A_shared_0_0" not in plan and "B_shared_32_0" not in plan  # only the whole T.clear touched them


def test_a_slice_per_iteration_of_a_loop_inside_another_stays_refused() -> None:
    with pytest.raises(TileLangError, match=r"part of on-chip buffer 'B_shared' \(extents \[1, 32, 32\] of \[2, 32"):
        tilelang.compile(batched_twice(2, 32), out_idx=[-1], target="tenstorrent")


def test_a_part_off_the_tile_grid_is_refused_by_name() -> None:
    with pytest.raises(TileLangError, match=r"part of on-chip buffer 'A_shared' \(extents \[32, 32\] of \[32, 64\]\)"):
        tilelang.compile(strided(32, 16), out_idx=[-1], target="tenstorrent")
