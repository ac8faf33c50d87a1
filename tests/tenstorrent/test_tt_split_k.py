"""Split-K GEMM on Tenstorrent (issue 16): TileLang's examples (tests/tt_split_k_kernels.py, unmodified) with bf16
inputs and an fp32 C, compiled for "tenstorrent" and run in the emulator.

T.atomic_add(C block, partial) is an ordered read-modify-write per split-K group: the split partition puts the
blockIdx.z members of one output block on consecutive cores, at the same step of the same block range; member m
reads C's block once member m - 1's writer has written its sum and incremented m's turn semaphore. So the result is
C_initial + sum_z partial_z, summed in blockIdx.z order in fp32 (no lost updates, no timing dependence).
Tolerance: the products of bf16 inputs are exact in fp32 and the sums are fp32, in another order than numpy's, so
|got - ref| <= 2^-16 * (|C_initial| + |A| @ |B|) element-wise (a few fp32 ulps of the terms summed).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_split_k_kernels import splitk_matmul, splitk_matmul_elementwise_atomic

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def operands(m: int, n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(BF16)
    bt = rng.uniform(-1, 1, (n, k)).astype(BF16)
    return a, bt, rng.uniform(-1, 1, (m, n)).astype(np.float32)


def check(got: np.ndarray, c0: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    af, bf = a.astype(np.float32), b.astype(np.float32)
    ref = c0 + af @ bf
    bound = 2.0**-16 * (np.abs(c0) + np.abs(af) @ np.abs(bf))
    assert np.all(np.abs(got - ref) <= bound), float(np.abs(got - ref).max())


CASES = [  # (M, N, K, split_k, core_grid): several output blocks; the last two loop over more blocks than cores
    (64, 96, 256, 2, [8, 8]),
    (64, 96, 256, 4, [8, 8]),
    (96, 64, 256, 2, [3, 2]),
    (64, 96, 512, 4, [5, 1]),
]


@pytest.mark.parametrize("form", ["tile", "element"])
@pytest.mark.parametrize(("m", "n", "k", "split_k", "grid"), CASES)
def test_split_k_gemm_adds_onto_c(form: str, m: int, n: int, k: int, split_k: int, grid: list[int]) -> None:
    a, bt, c0 = operands(m, n, k, seed=split_k * 7 + len(form))
    kernel_of = splitk_matmul if form == "tile" else splitk_matmul_elementwise_atomic
    kernel = tilelang.compile(kernel_of(m, n, k, 32, 32, 32, split_k, dtype="bfloat16"), target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.core_grid": grid})
    b = bt if form == "tile" else np.ascontiguousarray(bt.T)  # B is (N, K) in the tile example, (K, N) in the other
    c = c0.copy()
    kernel(a, b, c)
    check(c, c0, a, bt.T)
    plan = kernel.artifact.rt_mod.plan
    blocks = (m // 32) * (n // 32)
    groups = min(blocks, grid[0] * grid[1] // split_k)
    assert plan["partition_mode"] == "split"
    assert len(plan["work_partition"]) == groups * split_k
    assert sorted(w["z"] for w in plan["work_partition"]) == sorted(list(range(split_k)) * groups)
    assert sum(w["count"] for w in plan["work_partition"]) == blocks * split_k
    assert [s["name"] for s in plan["semaphores"]] == ["C_turn_sem"]
    assert {t["name"]: t["role"] for t in plan["tensors"]}["C"] == "inout"
    assert kernel.last_report["total"][COUNTERS.MATMUL_TILES] == blocks * (k // 32)


def test_atomic_add_is_refused_where_the_reduction_is_not_a_split_k_group() -> None:
    def kernel(dst: str, dtype: str = "float32") -> Any:
        @T.prim_func
        def main(A: T.Tensor((64, 64), dtype), C: T.Tensor((64, 64), dtype)):
            with T.Kernel(2, 2, 2) as (bx, by, bz):
                A_s = T.alloc_shared((32, 32), dtype)
                acc = T.alloc_fragment((32, 32), dtype)
                T.copy(A[by * 32, bz * 32], A_s)
                T.copy(A_s, acc)
                if dst == "corner":
                    T.atomic_add(C[0, 0], acc)
                elif dst == "in_loop":
                    for _ in T.serial(2):
                        T.atomic_add(C[by * 32, bx * 32], acc)
                elif dst == "in_branch":
                    if bz == 0:
                        T.atomic_add(C[by * 32, bx * 32], acc)
                else:
                    T.atomic_add(C[by * 32, bx * 32], acc)
                    if dst == "twice":
                        T.atomic_add(C[by * 32, bx * 32], acc)
        return main

    with pytest.raises(TileLangError, match=r"T.atomic_add into C\[0, 0\]: the block starts at 0 .*must be the "
                                            r"grid's output block") as e:
        tilelang.compile(kernel("corner"), target="tenstorrent")
    assert "Traceback" not in str(e.value)
    with pytest.raises(TileLangError, match=r"adds a bfloat16 fragment onto a bfloat16 tensor; .* fp32 only"):
        tilelang.compile(kernel("block", "bfloat16"), target="tenstorrent")
    with pytest.raises(TileLangError, match=r"T.atomic_add into 'C' is inside loop '_'; .* one atomic_add per output "
                                            r"block and tensor"):
        tilelang.compile(kernel("in_loop"), target="tenstorrent")
    with pytest.raises(TileLangError, match=r"T.atomic_add into 'C' is inside a branch of \(if bz == 0\); .* each "
                                            r"member adds once, unconditionally"):
        tilelang.compile(kernel("in_branch"), target="tenstorrent")
    with pytest.raises(TileLangError, match=r"T.atomic_add into 'C' appears twice in the kernel"):
        tilelang.compile(kernel("twice"), target="tenstorrent")
    forced = tilelang.compile(kernel("block"), target="tenstorrent", pass_configs={"tl.PartitionTTWork.mode": "shard"})
    assert forced.artifact.rt_mod.plan["partition_mode"] == "split"  # the mode option is for kernels without atomics
    with pytest.raises(TileLangError, match=r"reduces the 4 blocks along blockIdx.z .* has 2 cores"):
        tilelang.compile(splitk_matmul(64, 64, 128, 32, 32, 32, 4, dtype="bfloat16"), target="tenstorrent",
                         pass_configs={"tl.PartitionTTWork.core_grid": [2, 1]})


def test_atomic_add_on_a_2d_grid_adds_onto_c() -> None:
    """Without blockIdx.z each output block is one group of one core: read, add, write, no turns."""

    @T.prim_func
    def main(A: T.Tensor((64, 96), "float32"), C: T.Tensor((64, 96), "float32")):
        with T.Kernel(3, 2) as (bx, by):
            A_s = T.alloc_shared((32, 32), "float32")
            T.copy(A[by * 32, bx * 32], A_s)
            T.atomic_add(C[by * 32, bx * 32], A_s)

    rng = np.random.default_rng(2)
    a, c0 = (rng.uniform(-1, 1, (64, 96)).astype(np.float32) for _ in range(2))
    kernel = tilelang.compile(main, target="tenstorrent")
    c = c0.copy()
    kernel(a, c)
    np.testing.assert_allclose(c, c0 + a, rtol=2.0**-22, atol=2.0**-22)
    assert {w["z"] for w in kernel.artifact.rt_mod.plan["work_partition"]} == {0}


# ------------------------------------------------------------------------------------------------ sanitizer


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    emu.library()
    return emu


def seeded_error(emulator: Any, tmp_path: Path, file: str, pattern: str, replacement: str) -> str:
    """The emulator's error for the split-K kernel with `file` edited (the edit must change it)."""
    rt_mod = tilelang.compile(splitk_matmul(64, 64, 256, 32, 32, 32, 4, dtype="bfloat16"),
                              target="tenstorrent").artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    before = prog.files[file]
    prog.files[file] = re.sub(pattern, replacement, before, flags=re.M | re.S)
    assert prog.files[file] != before
    a, bt, c0 = operands(64, 64, 256, seed=5)
    with pytest.raises(emulator.TTEmulatorError) as caught:
        prog.run([a, bt, c0.copy()], workdir=tmp_path)
    return str(caught.value)


def test_sanitizer_catches_a_read_of_c_before_its_turn(emulator: Any, tmp_path: Path) -> None:
    """Without the turn wait, a member reads C's block (or writes its sum) unordered with the previous member's
    write: on hardware it may add onto the old value, and one partial is lost."""
    error = seeded_error(emulator, tmp_path, "reader.cpp", r"noc_semaphore_wait_min\((\w+), [^;]*\);", r"(void)\1;")
    assert re.search(r"(read|write) of page \d+ of tensor C lands while nothing orders it after core \(\d+,\d+\) "
                     r"\w+'s write of that page", error), error


def test_sanitizer_catches_a_turn_signalled_before_the_write_landed(emulator: Any, tmp_path: Path) -> None:
    """The signal must follow the write barrier: sent before it, the next member may read C before the sum lands."""
    error = seeded_error(emulator, tmp_path, "writer.cpp",
                         r"(^\s*noc_async_write_barrier\(\);\n)(.*?)(^\s*if \(z < 3\) \{\n.*?\n\s*\}\n)",
                         r"\3\1\2")
    assert re.search(r"(read|write) of page \d+ of tensor C lands while nothing orders it after", error), error


@pytest.mark.parametrize("form", ["tile", "element"])
def test_atomic_add_into_a_block_of_a_4d_tensor_sums_the_split_k_group(form: str) -> None:
    """Issue 28: the target is a block of an N-D tensor's last two dims, the dims before them held at one index each,
    addressed as T.copy addresses an N-D block (the leading dims fold into rows). The two blockIdx.z members add
    their halves of A onto C[1, 1]; the rest of C is untouched."""

    def kernel(lead: str) -> Any:
        @T.prim_func
        def main(A: T.Tensor((2, 64, 96), "float32"), C: T.Tensor((3, 2, 64, 96), "float32")):
            with T.Kernel(3, 2, 2) as (bx, by, bz):
                a = T.alloc_fragment((32, 32), "float32")
                T.copy(A[bz, by * 32, bx * 32], a)
                if lead == "z":
                    T.atomic_add(C[bz, 1, by * 32, bx * 32], a)
                elif form == "tile":
                    T.atomic_add(C[1, 1, by * 32, bx * 32], a)
                else:
                    for i, j in T.Parallel(32, 32):
                        T.atomic_add(C[1, 1, by * 32 + i, bx * 32 + j], a[i, j])
        return main

    rng = np.random.default_rng(8)
    a = rng.uniform(-1, 1, (2, 64, 96)).astype(np.float32)
    c0 = rng.uniform(-1, 1, (3, 2, 64, 96)).astype(np.float32)
    c = c0.copy()
    tilelang.compile(kernel("const"), target="tenstorrent")(a, c)
    want = c0.copy()
    want[1, 1] += a[0] + a[1]
    np.testing.assert_allclose(c, want, rtol=2.0**-22, atol=2.0**-21)
    with pytest.raises(TileLangError, match=r"T.atomic_add into C\[bz, 1, by \* 32, bx \* 32\]: index bz of dim 0 "
                                            r"depends on blockIdx.z"):
        tilelang.compile(kernel("z"), target="tenstorrent")
