"""A whole step under a condition read from a DRAM tensor on Tenstorrent (issue 28;
src/transform/tile_ops_flag_step.cc): block-sparse attention's control (`if BlockSparseMask[...]` around a step that
makes values the three kernels move between them). The reader reads the tile holding the value and reads its word
from L1 before pushing the page (read_flag), the compute kernel reads the same word (take_flag: read_tile_value), the
writer, where it has ops in the branch, reads the tile into a CB of its own (read_own_flag); each kernel's if tests
its own binding, so all three take the same arm. Run in the emulator against numpy."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from tt_data_kernels import masked_blocks, masked_step

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent import INTRINSICS, api_profile

pytestmark = [pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler"),
              pytest.mark.skipif(api_profile() not in INTRINSICS["read_tile_value"].cpp,
                                 reason="the API profile has no read_tile_value")]
RNG = np.random.default_rng(28)


@pytest.mark.parametrize("mask_dtype, staged", [("bool", False), ("int8", True)])
def test_a_step_under_a_mask_value_holds_and_carries_values(mask_dtype: str, staged: bool) -> None:
    """Steps whose value is set add x_k * a onto acc; `a` is held around the loop and `acc` stays at its CB's front
    in the steps not taken. The int8 mask is copied into a fragment first (upstream's attention form); its -1 is the
    top byte of a word whose lower bytes are set, which the kernels read unsigned."""
    a = RNG.standard_normal((32, 32)).astype(np.float32)
    x = RNG.standard_normal((32, 160)).astype(np.float32)
    mask = np.array([1, 0, 1, -1, 0]).astype(mask_dtype)  # int8: step 3's byte (255) tops a word with lower bytes set
    kernel = tilelang.compile(masked_step(160, mask_dtype, staged=staged), out_idx=[-1], target="tenstorrent")
    source = kernel.get_kernel_source()
    assert "read_tile_value(" in source and "reinterpret_cast<volatile tt_l1_ptr uint32_t*>" in source
    want = sum(x[:, k * 32:(k + 1) * 32] * a for k in np.nonzero(mask)[0])
    np.testing.assert_allclose(kernel(a, x, mask), want, rtol=1e-5, atol=1e-5)


def test_an_int32_value_compared_with_a_constant_picks_the_steps() -> None:
    a = RNG.standard_normal((32, 32)).astype(np.float32)
    x = RNG.standard_normal((32, 128)).astype(np.float32)
    sel = np.array([3, -1, 0, 2], np.int32)
    kernel = tilelang.compile(masked_step(128, "int32", lambda v: v > 0), out_idx=[-1], target="tenstorrent")
    want = sum(x[:, k * 32:(k + 1) * 32] * a for k in np.nonzero(sel > 0)[0])
    np.testing.assert_allclose(kernel(a, x, sel), want, rtol=1e-5, atol=1e-5)


def test_a_step_of_compute_ops_only_still_has_the_reader_push_the_value() -> None:
    """Only the compute kernel has ops in the branch: the reader keeps its binding (SplitTTKernels keeps a binding of
    an abstract op where nothing reads it) and pushes the page the compute kernel reads; int32 `== 2`."""
    @T.prim_func
    def main(A: T.Tensor((32, 32), "float32"), Mask: T.Tensor((4,), "int32"), B: T.Tensor((32, 32), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((32, 32), "float32")
            acc = T.alloc_fragment((32, 32), "float32")
            T.copy(A, a)
            T.clear(acc)
            for k in T.serial(4):
                if Mask[k] == 2:
                    for i, j in T.Parallel(32, 32):
                        acc[i, j] = acc[i, j] + a[i, j]
            T.copy(acc, B)

    a = RNG.standard_normal((32, 32)).astype(np.float32)
    kernel = tilelang.compile(main, out_idx=[-1], target="tenstorrent")
    np.testing.assert_allclose(kernel(a, np.array([2, 0, 2, 2], np.int32)), 3 * a, rtol=1e-5, atol=1e-5)


def test_the_writer_reads_its_own_value_in_both_arms() -> None:
    """Ragged mask over a 64x96 tensor in 32x32 blocks: each block doubled where set, zeros elsewhere; the writer writes
    in both arms, so it reads the value itself."""
    a = RNG.standard_normal((64, 96)).astype(np.float32)
    mask = RNG.random((2, 3)) > 0.5
    kernel = tilelang.compile(masked_blocks(64, 96, 32, 32), out_idx=[-1], target="tenstorrent")
    want = np.kron(mask, np.ones((32, 32))) * a * 2
    np.testing.assert_allclose(kernel(a, mask), want, rtol=1e-6, atol=1e-6)


def test_a_branch_of_copies_only_is_refused_naming_the_tensor() -> None:
    """The compute kernel reads the value the reader pushes; with no compute op in the branch nobody would."""
    @T.prim_func
    def main(A: T.Tensor((32, 64), "float32"), Mask: T.Tensor((2,), "bool"), B: T.Tensor((32, 64), "float32")):
        with T.Kernel(2, threads=128) as bx:
            s = T.alloc_shared((32, 32), "float32")
            if Mask[bx]:
                T.copy(A[0, bx * 32], s)
                T.copy(s, B[0, bx * 32])

    with pytest.raises(TileLangError, match=r"reads 'Mask' around copies only; the tenstorrent backend branches"):
        tilelang.lower(main, target="tenstorrent")


@pytest.mark.parametrize("mask", [[True, False], [False, True], [True, True]])
def test_k_steps_beside_other_ops_are_whole_products(mask: list[bool]) -> None:
    """A gemm accumulating across the loop in a whole step (nsa decode's `T.gemm(acc_s_cast, V_shared, acc_o)`)
    would hold DST from its first K step to its last, which a skipped step leaves unacquired: each step is one whole
    product added onto the accumulator (`c_product`), then doubled in the step."""
    @T.prim_func
    def main(A: T.Tensor((32, 64), "float16"), B: T.Tensor((64, 32), "float16"), Mask: T.Tensor((2,), "bool"),
             C: T.Tensor((32, 32), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((32, 32), "float16")
            b = T.alloc_shared((32, 32), "float16")
            c = T.alloc_fragment((32, 32), "float32")
            T.clear(c)
            for k in T.serial(2):
                if Mask[k]:
                    T.copy(A[0, k * 32], a)
                    T.copy(B[k * 32, 0], b)
                    T.gemm(a, b, c)
                    for i, j in T.Parallel(32, 32):
                        c[i, j] = c[i, j] * 2
            T.copy(c, C)

    a = RNG.standard_normal((32, 64)).astype(np.float16)
    b = RNG.standard_normal((64, 32)).astype(np.float16)
    kernel = tilelang.compile(main, out_idx=[-1], target="tenstorrent")
    assert "c_product" in kernel.get_kernel_source()
    ref = np.zeros((32, 32), np.float32)
    for k in range(2):
        if mask[k]:
            ref = (ref + a[:, k * 32:(k + 1) * 32].astype(np.float32) @ b[k * 32:(k + 1) * 32]) * 2
    np.testing.assert_allclose(kernel(a, b, np.array(mask)), ref, rtol=2e-2, atol=2e-2)
