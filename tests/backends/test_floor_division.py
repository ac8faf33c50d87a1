"""TIR's floor division and modulus of negative values on the CPU (llvm) backend: TVM's own codegen lowers them (the
project has no printer of its own there, unlike the Tenstorrent kernels, tests/tenstorrent/test_tt_floordiv.py)."""

from __future__ import annotations

import numpy as np

import tilelang
import tilelang.language as T


def test_floor_division_and_modulus_of_negative_values_on_llvm() -> None:
    @T.prim_func
    def main(A: T.Tensor((64,), "int32"), B: T.Tensor((64,), "int32"), C: T.Tensor((64,), "int32")):
        with T.Kernel(1, threads=64) as _bx:
            for i in T.Parallel(64):
                B[i] = A[i] // 7
                C[i] = A[i] % 7

    a = np.arange(-32, 32, dtype=np.int32) * 3
    b, c = tilelang.compile(main, out_idx=[1, 2], target="llvm")(a)
    np.testing.assert_array_equal(b, a // 7)
    np.testing.assert_array_equal(c, a % 7)
