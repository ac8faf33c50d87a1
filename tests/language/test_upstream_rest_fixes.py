"""What the examples of tools/upstream_cases_rest.py (deepseek_mhc, gdn's backward) needed in the front end:

- `T.tfloat32` (gdn's chunk_delta_bwd and deepseek_mhc's pre gemm stage float32 data as TF32 for an MMA) is float32;
- `T.macro` parameters hide module globals of the same name (deepseek_mhc's backward: `n_stream` is both);
- `tilelang.autotuner.set_autotune_inputs(...)` makes the autotuning started inside it rank and verify each config on
  those tensors.
"""

import numpy as np

import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune, set_autotune_inputs

RNG = np.random.default_rng(2831)

n = 16  # a module global of the same name as scale_rows's parameter (deepseek_mhc's `n_stream`)


@T.macro
def scale_rows(buf, factor, n):
    for i, j in T.Parallel(n, n):
        buf[i, j] = buf[i, j] * factor


def test_tfloat32_is_float32_and_a_macro_parameter_hides_a_global():
    assert T.tfloat32 == T.float32

    @T.prim_func
    def main(A: T.Tensor((8, 8), "float32"), B: T.Tensor((8, 8), "float32")):
        with T.Kernel(1, threads=32) as _:
            a = T.alloc_shared((8, 8), T.tfloat32)
            T.copy(A, a)
            scale_rows(a, 3.0, 8)
            T.copy(a, B)

    kernel = tilelang.compile(main, out_idx=[1], target="llvm")
    a = RNG.standard_normal((8, 8)).astype(np.float32)
    np.testing.assert_allclose(kernel(a), a * 3, rtol=1e-6)
    assert n == 16


def test_set_autotune_inputs_ranks_and_verifies_on_the_given_tensors():
    seen = []

    def ref(a):
        seen.append(np.array(a))
        return a * 2

    @autotune(configs=[{"block": 8}, {"block": 16}], warmup=1, rep=1, ref_prog=ref)
    @tilelang.jit(out_idx=[1], target="llvm")
    def double(m, block=8):
        @T.prim_func
        def main(A: T.Tensor((m,), "float32"), B: T.Tensor((m,), "float32")):
            with T.Kernel(m // block, threads=32) as bx:
                for i in T.Parallel(block):
                    B[bx * block + i] = A[bx * block + i] * 2
        return main

    given = np.arange(32, dtype=np.float32)
    with set_autotune_inputs(given):
        kernel = double.compile(32)
    assert kernel.config in ({"block": 8}, {"block": 16})
    assert seen and all(np.array_equal(s, given) for s in seen)
