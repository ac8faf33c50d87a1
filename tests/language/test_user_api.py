"""TileLang's user API around kernels: tilelang.cdiv/next_power_of_2, PassConfigKey, get_kernel_source/get_tir,
get_profiler (do_bench measured on llvm, modelled on Tenstorrent; assert_allclose), TensorSupplyType and
tilelang.testing."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.profiler import MEASURED, TensorSupplyType, do_bench, supply
from tilelang.tenstorrent.runtime import MODELLED


def scale_add(M, N, block, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(tilelang.cdiv(N, block), tilelang.cdiv(M, block)) as (bx, by):
            for i, j in T.Parallel(block, block):
                C[by * block + i, bx * block + j] = A[by * block + i, bx * block + j] * 2 + B[by * block + i,
                                                                                            bx * block + j]
    return main


def test_cdiv_and_next_power_of_2():
    assert [tilelang.cdiv(n, 32) for n in (1, 32, 33, 64)] == [1, 1, 2, 2]
    assert [tilelang.next_power_of_2(n) for n in (0, 1, 3, 64, 65)] == [1, 1, 4, 64, 128]
    assert tilelang.math.cdiv(7, 2) == 4


def test_pass_config_keys_are_accepted_and_ignored_where_meaningless():
    configs = {tilelang.PassConfigKey.TL_DISABLE_TMA_LOWER: True, tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True,
               "tl.disable_warp_specialized": True}
    kernel = tilelang.compile(scale_add(64, 64, 32), out_idx=-1, target="llvm", pass_configs=configs)
    a, b = np.ones((64, 64), "float32"), np.full((64, 64), 3, "float32")
    np.testing.assert_array_equal(kernel(a, b), np.full((64, 64), 5, "float32"))
    assert tilelang.PassConfigKey.TL_DISABLE_TMA_LOWER == "tl.disable_tma_lower"
    with pytest.raises(tilelang.TileLangError, match="pass PartitionTTWork has no option 'nope'"):
        tilelang.compile(scale_add(64, 64, 32), target="llvm", pass_configs={"tl.PartitionTTWork.nope": 1})


def test_kernel_source_and_tir():
    func = scale_add(64, 64, 32)
    kernel = tilelang.compile(func, out_idx=-1, target="llvm")
    assert "define" in kernel.get_kernel_source()
    assert kernel.get_tir() is func
    lazy = tilelang.jit(out_idx=-1, target="llvm")(func)
    assert lazy.get_tir() is func


def test_profiler_measures_on_llvm_and_checks_against_a_reference():
    kernel = tilelang.compile(scale_add(64, 64, 32), out_idx=-1, target="llvm")
    profiler = kernel.get_profiler(tensor_supply_type=TensorSupplyType.Normal)
    profiler.assert_allclose(lambda a, b: a * 2 + b, atol=1e-5, rtol=1e-5)
    with pytest.raises(AssertionError, match=r"4096 of 4096 elements \(100.00%\) differ"):
        profiler.assert_allclose(lambda a, b: a * 2 + b + 1, atol=1e-5, rtol=1e-5)
    latency = profiler.do_bench(warmup=2, rep=5)
    assert latency > 0 and profiler.last_bench == MEASURED
    assert profiler.do_bench(lambda a, b: a * 2 + b, warmup=1, rep=2) > 0
    assert do_bench(lambda: None, warmup=1, rep=2) >= 0


@pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="no C++ compiler")
def test_profiler_reports_the_perf_model_on_tenstorrent():
    from tt_kernels import elementwise_binary

    kernel = tilelang.compile(elementwise_binary(64, 64, 32, 32, "add"), out_idx=-1, target="tenstorrent")
    profiler = kernel.get_profiler()
    modelled = profiler.do_bench()
    assert modelled > 0 and profiler.last_bench == MODELLED
    from tilelang.tenstorrent.perf_model import estimate_kernel

    assert modelled == pytest.approx(estimate_kernel(kernel).modelled_seconds * 1e3)


def test_tensor_supply_types():
    rng = np.random.default_rng(0)
    assert not supply((4, 4), np.dtype("float32"), TensorSupplyType.Zero, rng).any()
    assert (supply((4, 4), np.dtype("float16"), TensorSupplyType.One, rng) == 1).all()
    ints = supply((64,), np.dtype("int32"), TensorSupplyType.Auto, rng)
    assert ints.dtype == np.int32 and set(np.unique(ints)) <= {-2, -1, 0, 1, 2}
    uniform = supply((256,), np.dtype("float32"), TensorSupplyType.Uniform, rng)
    assert uniform.min() >= -1 and uniform.max() <= 1 and uniform.std() > 0.3


def test_testing_helpers():
    tilelang.testing.set_random_seed(7)
    first = np.random.rand(3)  # noqa: NPY002
    tilelang.testing.set_random_seed(7)
    np.testing.assert_array_equal(first, np.random.rand(3))  # noqa: NPY002
    a = np.zeros(1000, "float32")
    b = a.copy()
    b[0] = 1
    tilelang.testing.torch_assert_close(a, b, max_mismatched_ratio=0.01)
    with pytest.raises(AssertionError, match=r"1 of 1000 elements"):
        tilelang.testing.torch_assert_close(a, b, max_mismatched_ratio=0.0)


def test_tensor_supply_of_kernel_params_as_tilelang_utils_gives_it():
    """`from tilelang.utils.tensor import get_tensor_supply, TensorSupplyType` (upstream example_blocksparse_gemm)."""
    from tilelang.engine.param import KernelParam
    from tilelang.errors import TileLangError
    from tilelang.utils.tensor import TensorSupplyType, get_tensor_supply

    ints = get_tensor_supply()(KernelParam("A", "int32", (4, 8)))
    assert ints.shape == (4, 8) and ints.dtype == np.int32 and ints.min() >= -2 and ints.max() <= 2
    mask = get_tensor_supply(TensorSupplyType.Auto)(KernelParam("M", "bool", (3,)))
    assert mask.dtype == np.bool_
    halves = get_tensor_supply(TensorSupplyType.Uniform)(KernelParam("B", "float16", (2, 2)))
    assert halves.dtype == np.float16 and np.abs(halves).max() <= 1
    with pytest.raises(TileLangError, match="needs a static shape"):
        get_tensor_supply()(KernelParam("s", "int32", ()))
