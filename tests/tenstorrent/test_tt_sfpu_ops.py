"""The SFPU operations of the element-wise op map (specs/ops/eltwise.yaml) on Tenstorrent, run in the emulator and
compared with numpy: functions of one buffer (exp2, log, sqrt, rsqrt, 1/x, sigmoid, tanh), max/min of two buffers
(copied into DST tiles 0 and 1, binary_{max,min}_tile), a constant store (fill), and T.Cast stores between bf16 and
fp32 (unpacked in one data format, packed in the other).

Tolerances: inputs are bf16 and numpy computes in float32 from the same values. The emulator computes each SFPU
function in float32 and DST holds bf16 without fp32 accumulation, so a bf16 result is the float32 value rounded
once: within 2^-8 relative (half a bf16 ulp at the bottom of a binade) plus 1e-6 absolute (float32 libm
differences around zero). A chain (max then exp, or x * 4 then sqrt) rounds twice: 2^-7. Casts are exact: bf16 ->
fp32 widens, fp32 -> bf16 rounds to nearest even like ml_dtypes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import SFPU_FORMS, cast_kernel, fill_max_kernel, sfpu_kernel

import tilelang
from projects import REPO
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")

# form -> (numpy reference over float32 operands, input range, the tile call the compute kernel makes)
REFERENCES: dict[str, tuple[Callable[..., np.ndarray], tuple[float, float], str]] = {
    "exp2": (lambda a, b: np.exp2(a), (-4, 4), "exp2_tile(0)"),
    "log": (lambda a, b: np.log(a), (0.05, 8), "log_tile(0)"),
    "sqrt": (lambda a, b: np.sqrt(a), (0, 8), "sqrt_tile(0)"),
    "rsqrt": (lambda a, b: 1 / np.sqrt(a), (0.05, 8), "rsqrt_tile(0)"),
    "recip": (lambda a, b: 1 / a, (0.1, 4), "recip_tile(0)"),
    "sigmoid": (lambda a, b: 1 / (1 + np.exp(-a)), (-6, 6), "sigmoid_tile(0)"),
    "tanh": (lambda a, b: np.tanh(a), (-3, 3), "tanh_tile(0)"),
    "max": (lambda a, b: np.maximum(a, b), (-2, 2), "binary_max_tile(0, 1, 0)"),
    "min": (lambda a, b: np.minimum(a, b), (-2, 2), "binary_min_tile(0, 1, 0)"),
    "max_exp": (lambda a, b: np.exp(np.maximum(a, b)), (-2, 2), "exp_tile(0)"),
    "sqrt_scaled": (lambda a, b: np.sqrt(a * 4), (0, 8), "sqrt_tile(0)"),
}
TWICE_ROUNDED = {"max_exp", "sqrt_scaled"}


def test_every_sfpu_form_has_a_reference() -> None:
    assert set(REFERENCES) == set(SFPU_FORMS)


@pytest.mark.parametrize("form", sorted(REFERENCES))
def test_an_sfpu_op_matches_numpy(form: str) -> None:
    reference, (low, high), tile_call = REFERENCES[form]
    arity = SFPU_FORMS[form][0]
    kernel = tilelang.compile(sfpu_kernel(64, 64, 32, form), out_idx=[-1], target="tenstorrent")
    assert tile_call in kernel.get_kernel_source()
    rng = np.random.default_rng(11)
    inputs = [rng.uniform(low, high, (64, 64)).astype(BF16) for _ in range(arity)]
    got = kernel(*inputs).astype(np.float32)
    operands = [x.astype(np.float32) for x in inputs]
    ref = reference(*operands, *([None] * (2 - arity)))
    bound = 2.0**-7 if form in TWICE_ROUNDED else 2.0**-8
    assert np.all(np.abs(got - ref) <= bound * np.abs(ref) + 1e-6), float(np.abs(got - ref).max())
    functions = 1 + (form in TWICE_ROUNDED)
    assert kernel.last_report["total"][COUNTERS.SFPU_TILES] == 4 * functions


def test_a_bf16_to_fp32_cast_store_converts_exactly() -> None:
    kernel = tilelang.compile(cast_kernel(64, 64, 32, "bfloat16", "float32"), out_idx=[-1], target="tenstorrent")
    a = np.random.default_rng(3).uniform(-100, 100, (64, 64)).astype(BF16)
    got = kernel(a)
    assert got.dtype == np.float32 and np.array_equal(got, a.astype(np.float32))
    assert kernel.last_report["total"][COUNTERS.SFPU_TILES] == 0  # copy_tile into DST, pack_tile into the Float32 CB


def test_an_fp32_to_bf16_cast_after_an_op_reconfigures_the_packer() -> None:
    """exp in fp32, then a cast store into bf16: the second op packs into another data format, so it re-initialises
    (pack_reconfig_data_format) although both ops are SFPU ops; the emulator checks the packer's format."""
    kernel = tilelang.compile(cast_kernel(64, 64, 32, "float32", "bfloat16", then_exp=True), out_idx=[-1],
                              target="tenstorrent")
    compute = kernel.get_kernel_source().split("compute.cpp")[1]
    assert "pack_reconfig_data_format(16);" in compute
    a = np.random.default_rng(5).uniform(-3, 3, (64, 64)).astype(np.float32)
    got = kernel(a)
    assert got.dtype == BF16
    ref = np.exp(a).astype(BF16).astype(np.float32)  # exp in fp32 (fp32 DST), then one rounding to bf16
    assert np.all(np.abs(got.astype(np.float32) - ref) <= 2.0**-8 * np.abs(ref)), "pack rounding differs"


def test_a_constant_store_is_a_fill() -> None:
    kernel = tilelang.compile(fill_max_kernel(64, 64, 32, 0.25), out_idx=[-1], target="tenstorrent")
    assert "fill_tile(0, 0.25" in kernel.get_kernel_source()
    a = np.random.default_rng(9).uniform(-1, 1, (64, 64)).astype(BF16)
    got = kernel(a).astype(np.float32)
    assert np.array_equal(got, np.maximum(a.astype(np.float32), np.float32(0.25)))


# Each profile's emulator headers declare the new calls in their own files (compute_kernel_api.h, eltwise_unary/,
# binary_max_min.h); one process per profile (the pass library reads $TILELANG_TT_API_PROFILE once).
PROFILE_RUN = """
import sys
import ml_dtypes, numpy as np, tilelang
from tt_kernels import fill_max_kernel, sfpu_kernel
rng = np.random.default_rng(1)
a, b = (rng.uniform(0.1, 4, (64, 64)).astype(ml_dtypes.bfloat16) for _ in range(2))
f = a.astype(np.float32)
for form, args, ref in (("log", (a,), np.log(f)), ("sqrt", (a,), np.sqrt(f)), ("max", (a, b), np.maximum(f, b))):
    kernel = tilelang.compile(sfpu_kernel(64, 64, 32, form), out_idx=[-1], target="tenstorrent")
    if form == "log":
        assert f'#include "{sys.argv[1]}"' in kernel.get_kernel_source(), "not the profile's header"
    got = kernel(*args)
    assert np.all(np.abs(got.astype(np.float32) - ref) <= 2.0**-8 * np.abs(ref) + 1e-6), form
got = tilelang.compile(fill_max_kernel(64, 64, 32, 1.5), out_idx=[-1], target="tenstorrent")(a)
assert np.array_equal(got.astype(np.float32), np.maximum(f, np.float32(1.5)))
"""


@pytest.mark.parametrize("profile,header", [("metal_d5f9bc4a", "api/compute/compute_kernel_api.h"),
                                            ("tilelang_tt_2025", "compute_kernel_api.h")])
def test_the_new_calls_run_in_every_api_profile(profile: str, header: str) -> None:
    env = {**os.environ, "TILELANG_TT_API_PROFILE": profile,
           "PYTHONPATH": os.pathsep.join([str(REPO / "python"), str(REPO), str(REPO / "tests")])}
    done = subprocess.run([sys.executable, "-c", PROFILE_RUN, header], capture_output=True, text=True, env=env,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
