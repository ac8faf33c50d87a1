"""Element-wise operations of a buffer and a constant on Tenstorrent (`A[i, j] * 0.5`, `x + eps`, `1 - x`,
`x / n`), done in place on the SFPU (binop_with_scalar: the constant travels as its fp32 bits), optionally
followed by an SFPU function (`T.exp(A[i, j] * scale)`). Results against numpy: bf16 inputs from U(-1, 1); the
SFPU computes in fp32 and the result rounds once to bf16 (2^-8 relative), twice with exp (bound 2^-7)."""

from __future__ import annotations

import shutil
from collections.abc import Callable

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import scalar_kernel
from tt_loop_kernels import decayed_state

import tilelang
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


REFERENCES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "mul": lambda a: a * np.float32(-0.375),
    "add": lambda a: a + np.float32(1.5),
    "sub": lambda a: a - np.float32(0.25),
    "rsub": lambda a: np.float32(1.0) - a,
    "div": lambda a: a / np.float32(64.0),
    "exp_scaled": lambda a: np.exp(a * np.float32(1.4426950408889634)),
}


@pytest.mark.parametrize("form", list(REFERENCES))
def test_an_operation_with_a_constant_matches_numpy(form: str) -> None:
    kernel = tilelang.compile(scalar_kernel(64, 64, 32, form), out_idx=[-1], target="tenstorrent")
    a = np.random.default_rng(7).uniform(-1, 1, (64, 64)).astype(BF16)
    ref = REFERENCES[form](a.astype(np.float32))
    got = kernel(a).astype(np.float32)
    bound = 2.0**-7 if form == "exp_scaled" else 2.0**-8
    assert np.all(np.abs(got - ref) <= bound * np.abs(ref) + 1e-6), float(np.abs(got - ref).max())
    assert kernel.last_report["total"][COUNTERS.SFPU_TILES] == 4 * (2 if form == "exp_scaled" else 1)


def test_the_constant_is_passed_as_its_fp32_bits() -> None:
    source = tilelang.lower(scalar_kernel(64, 64, 32, "mul"), target="tenstorrent").kernel_source
    bits = int(np.array(-0.375, np.float32).view(np.uint32))
    assert "binop_with_scalar_tile_init();" in source
    assert f"mul_unary_tile(0, {bits}" in source


def test_a_function_of_constants_folds_to_one_constant() -> None:
    """Retention's decay T.exp2(64 * T.log2(1 - T.exp2(-5))) times a carried state: TVM's Simplify leaves the calls,
    constant_of (tile_ops_eltwise.cc) folds them to one fp32 constant, the SFPU multiplies by it. 32x32, 3 chunks."""
    x = np.random.default_rng(3).uniform(-1, 1, (96, 32)).astype(np.float32)
    kernel = tilelang.compile(decayed_state(32, 32, 3), out_idx=[-1], target="tenstorrent")
    decay = np.float32(np.exp2(64 * np.log2(1 - np.exp2(-5.0))))
    ref = np.zeros((32, 32), np.float32)
    for k in range(3):
        ref = decay * ref + x[k * 32:(k + 1) * 32]
    np.testing.assert_allclose(kernel(x), ref, rtol=1e-5, atol=1e-6)
