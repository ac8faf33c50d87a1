"""Data formats of the compute units (issue 17): the hardware is configured once per kernel, and a kernel whose
operations read or write CBs of different data formats reconfigures the unpacker and the packer between them.

The fused kernels run with several output blocks per core (a 2x1 core grid), so the configuration left by the
epilogue meets the next block's matmul; the emulator's sanitizer (src/emulator/src/kapi_formats.cpp) rejects a
tile math or pack call whose CB format differs from the configured one, and a second full configuration."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import matmul
from tt_profiles import full_configurations, spelling

import tilelang
import tilelang.language as T

BF16 = ml_dtypes.bfloat16
TWO_CORES = {"tl.PartitionTTWork.core_grid": [2, 1]}


def matmul_epilogue(M, N, K, block_M, block_N, block_K, op, sfpu, accum_dtype="float"):
    """D = sfpu(op(A @ B, Bias)) with an fp32 (or bf16) accumulator and bf16 tensors: the fused kernels."""
    dtype = "bfloat16"

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), Bias: T.Tensor((M, N), dtype),
             D: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            Bias_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            D_local = T.alloc_fragment((block_M, block_N), dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(Bias[by * block_M, bx * block_N], Bias_shared)
            for (i, j) in T.Parallel(block_M, block_N):
                if op == "add" and sfpu == "relu":
                    D_local[i, j] = T.max(C_local[i, j] + Bias_shared[i, j], T.cast(0, accum_dtype))
                elif op == "sub" and sfpu == "exp":
                    D_local[i, j] = T.exp(C_local[i, j] - Bias_shared[i, j])
                else:
                    D_local[i, j] = C_local[i, j] * Bias_shared[i, j]
            T.copy(D_local, D[by * block_M, bx * block_N])
    return main


def reference(a: np.ndarray, b: np.ndarray, bias: np.ndarray, op: str, sfpu: str) -> np.ndarray:
    c = a.astype(np.float32) @ b.astype(np.float32)
    bias = bias.astype(np.float32)
    if op == "add":
        return np.maximum(c + bias, 0)
    if op == "sub":
        return np.exp(c - bias)
    return c * bias


def random(shape: tuple[int, ...], seed: int, low: float = -1.0, high: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(low, high, shape).astype(BF16)


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    if shutil.which("g++") is None:
        pytest.fail("g++ is required: the README lists a C++ compiler as a requirement")
    emu.library()
    return emu


FUSED = [("add", "relu", "float"), ("sub", "exp", "float"), ("mul", "none", "float"), ("add", "relu", "bfloat16")]


@pytest.mark.parametrize("op,sfpu,acc", FUSED, ids=["-".join(f) for f in FUSED])
def test_fused_kernels_with_several_blocks_per_core_match_numpy(emulator: Any, op: str, sfpu: str, acc: str) -> None:
    """4x2 output blocks on 2 cores: every core runs matmul, epilogue, matmul, ... with a Float32 (or bf16)
    intermediate CB between Float16_b CBs."""
    kernel = tilelang.compile(matmul_epilogue(256, 128, 64, 64, 64, 32, op, sfpu, acc), out_idx=[-1],
                              target="tenstorrent", pass_configs=TWO_CORES)
    work = kernel.artifact.rt_mod.plan["work_partition"]
    assert len(work) == 2 and all(w["count"] == 4 for w in work)
    a, b, bias = random((256, 64), 1), random((64, 128), 2), random((256, 128), 3, -0.5, 0.5)
    ref = reference(a, b, bias, op, sfpu)
    d = kernel(a, b, bias)
    err = float(np.abs(d.astype(np.float32) - ref).max())
    assert err <= 2.0**-5 * float(np.abs(ref).max()), err
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    full = "|".join(sorted({spelling(c) for c in full_configurations().values()}))  # the profile's, every family
    assert len(re.findall(rf"^ +({full})\b", compute, re.M)) == 1  # the one full configuration
    assert "reconfig_data_format(1, 0);" in compute
    assert kernel.last_report["status"] == "ok"


def test_spilled_gemm_with_several_blocks_per_core_matches_numpy(emulator: Any) -> None:
    """Blocks larger than a DST section keep fp32 partial sums in a Float32 CB: the reload through SrcA and the
    packs into the partial and output CBs switch formats at every step, on every block of the core."""
    kernel = tilelang.compile(matmul(256, 128, 128, 128, 64, 32, dtype="bfloat16"), out_idx=[-1],
                              target="tenstorrent", pass_configs=TWO_CORES)
    a, b = random((256, 128), 4), random((128, 128), 5)
    c = kernel(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    assert float(np.abs(c.astype(np.float32) - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())
    assert "reconfig_data_format_srca(24)" in kernel.artifact.rt_mod.files["compute.cpp"]


def run_edited(emulator: Any, tmp_path: Path, edit: Any) -> str:
    """Run the GEMM+bias+ReLU kernel with its compute.cpp edited; the emulator's error message."""
    program = tilelang.compile(matmul_epilogue(256, 128, 64, 64, 64, 32, "add", "relu"), target="tenstorrent",
                               pass_configs=TWO_CORES).artifact.rt_mod
    program.files["compute.cpp"] = edit(program.files["compute.cpp"])
    a, b, bias = random((256, 64), 1), random((64, 128), 2), random((256, 128), 3)
    with pytest.raises(emulator.TTEmulatorError) as caught:
        program.run([a, b, bias, np.zeros((256, 128), BF16)], workdir=tmp_path)
    return str(caught.value)


def test_the_sanitizer_catches_a_missing_unpacker_reconfiguration(emulator: Any, tmp_path: Path) -> None:
    message = run_edited(emulator, tmp_path, lambda s: s.replace("reconfig_data_format(24, 2);", "", 1))
    assert re.search(r"data format mismatch: add_tiles uses CB 24 \(Float32\) through the unpacker's SrcA, which is "
                     r"configured for Float16_b \(CB 1, by reconfig_data_format\(1, 0\)\)", message), message


def test_the_sanitizer_catches_a_missing_packer_reconfiguration(emulator: Any, tmp_path: Path) -> None:
    message = run_edited(emulator, tmp_path, lambda s: s.replace("pack_reconfig_data_format(16);", "", 1))
    assert re.search(r"data format mismatch: pack_tile uses CB 16 \(Float16_b\) through the packer, which is "
                     r"configured for Float32 \(CB 24", message), message


def test_the_sanitizer_catches_the_return_to_matmul_without_reconfiguration(emulator: Any, tmp_path: Path) -> None:
    """The second block's matmul after the epilogue: SrcA still holds the Float32 partial CB's format."""
    message = run_edited(emulator, tmp_path, lambda s: s.replace("reconfig_data_format(1, 0);", "", 1))
    assert re.search(r"data format mismatch: matmul_tiles uses CB 1 \(Float16_b\) through the unpacker's SrcA, which "
                     r"is configured for Float32 \(CB 24, by reconfig_data_format", message), message


def test_a_second_full_hardware_configuration_is_an_error(emulator: Any, tmp_path: Path) -> None:
    """What the kernel emitted before issue 17 did: a full configuration in front of the epilogue (the one the
    profile configures a binary operation with)."""
    full = spelling(next(call for branch, call in full_configurations().items() if 'family == "binary"' in branch))
    message = run_edited(emulator, tmp_path, lambda s: s.replace(
        "reconfig_data_format(24, 2);", f"{full}(24, 2, 16);", 1))
    assert f"full hardware configuration after the first compute call: {full}" in message
