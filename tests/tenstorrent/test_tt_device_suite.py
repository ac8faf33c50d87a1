"""The device-parametrised suite (issue 34): a cheap set of kernels (GEMM with multicast, softmax, causal flash
attention) compiled for each Tenstorrent device with performance facts, Wormhole n150 and
Blackhole p150, by one parameter, run in the emulator against numpy and modelled with that device's facts, so a
regression on one device is caught by `make test` whatever the default device is. Small shapes; one compile and one
emulated run per kernel and device. The n150 kernels are those of test_tt_codegen.py's multicast GEMM,
test_tt_softmax_norms.py's softmax and test_tt_masks.py's causal 128x128 attention (the emulator builds each once in a
full run); test_tt_devices.py's GEMM fills every core of n150, p150 and p100."""

from __future__ import annotations

import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import matmul
from tt_attention_kernels import flashattn
from tt_norm_kernels import softmax

import tilelang
from tilelang.tenstorrent import device, perf_model

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
DEVICES = sorted(device.PERF_BY_DEVICE)  # every device the model has facts for: n150, p150
BF16 = ml_dtypes.bfloat16


def compiled(func: Any, out_idx: list[int], name: str) -> Any:
    return tilelang.compile(func, out_idx=out_idx, target=f"tenstorrent:{name}")


def ran_on(kernel: Any, name: str, modelled: bool = True) -> dict[str, Any]:
    """The last run's report, checked to come from the device it was compiled for, with the plan's cores; the
    device's facts model it (`modelled`)."""
    report = kernel.last_report
    plan = kernel.artifact.rt_mod.plan
    assert report["status"] == "ok" and report["device"] == name and plan["device"]["name"] == name
    gx, gy = device.DEVICES[name].core_grid
    assert all(x < gx and y < gy for x, y in (w["core"] for w in plan["work_partition"]))
    if modelled:
        assert perf_model.estimate_kernel(kernel).modelled_seconds > 0
    return report


def test_the_suite_covers_both_architectures() -> None:
    assert {device.DEVICES[d].arch for d in DEVICES} == {"wormhole_b0", "blackhole"}


@pytest.mark.parametrize("name", DEVICES)
def test_gemm_with_multicast(name: str) -> None:
    """An 8x4 block grid: a uniform shard on either grid, so core rows and columns share blocks by multicast."""
    m, n, k = 256, 512, 128
    kernel = compiled(matmul(m, n, k, 64, 64, 32, dtype="bfloat16"), [-1], name)
    rng = np.random.default_rng(150)
    a, b = rng.uniform(-1, 1, (m, k)).astype(BF16), rng.uniform(-1, 1, (k, n)).astype(BF16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    got = np.asarray(kernel(a, b), dtype=np.float32)
    assert float(np.abs(got - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())
    ran_on(kernel, name)
    plan = kernel.artifact.rt_mod.plan
    assert plan["partition_mode"] == "shard" and len(plan["work_partition"]) == 32 and plan["semaphores"]


@pytest.mark.parametrize("name", DEVICES)
def test_softmax(name: str) -> None:
    x = np.random.default_rng(34).standard_normal((64, 128)).astype(np.float32) * 3
    kernel = compiled(softmax(64, 128, 32), [-1], name)
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(kernel(x), e / e.sum(-1, keepdims=True), rtol=1e-5, atol=1e-6)
    ran_on(kernel, name)


@pytest.mark.parametrize("name", DEVICES)
def test_causal_flash_attention(name: str) -> None:
    b, h, s, d = 1, 2, 128, 64
    rng = np.random.default_rng(16)
    q, k, v = (rng.standard_normal((b, h, s, d)).astype(np.float16) for _ in range(3))
    kernel = compiled(flashattn(b, h, s, s, d, True, 32, 32), [3], name)
    got = kernel(q, k, v).astype(np.float32)
    qf, kf, vf = (t.astype(np.float32) for t in (q, k, v))
    scores = np.einsum("bhqd,bhkd->bhqk", qf, kf) / np.sqrt(d)
    scores = np.where(np.tril(np.ones((s, s), dtype=bool)), scores, -np.inf)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    want = np.einsum("bhqk,bhkd->bhqd", e / e.sum(-1, keepdims=True), vf)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    ran_on(kernel, name, modelled=False)  # its P @ V has an fp32 operand: no device has a measured fp32 matmul rate
    with pytest.raises(ValueError, match="no measured tile-matmul rate for Float32 operands"):
        perf_model.estimate_kernel(kernel)
