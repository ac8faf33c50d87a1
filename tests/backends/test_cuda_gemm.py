"""T.gemm on tensor cores for the cuda backend (issue 32): BindCudaThreads runs a GEMM block on its warps
(src/transform/cuda_gemm.cc, cuda_gemm_emit.cc) through the package's device header tl_cuda/gemm_mma.h (ldmatrix,
mma.sync m16n8k16, fp32 accumulators in the mma layout), written in front of the kernel's source; blocks it cannot
prove keep their lowering. Correctness needs a GPU: benchmarks/bench_cuda.py --run checks the GEMM against
torch.matmul; here the source and nvcc."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tvm

import tilelang
import tilelang.language as T
from projects import REPO, TESTS
from tilelang.engine.codegen import launch_extents

sys.path.insert(0, str(REPO / "benchmarks"))
import bench_cuda  # noqa: E402

sys.path.insert(0, str(TESTS))
from test_language_llvm import matmul, matmul_t  # noqa: E402

SM90 = tvm.target.Target({"kind": "cuda", "arch": "sm_90"})


def _lower(func) -> tuple[str, dict[str, int]]:
    artifact = tilelang.lower(func, target=SM90)
    return artifact.kernel_source, next(iter(launch_extents(artifact.device_mod).values()))


def test_quickstart_gemm_runs_on_tensor_cores() -> None:
    source, launch = _lower(matmul(256, 256, 128, 128, 128, 32))
    assert launch == {"blockIdx.x": 2, "blockIdx.y": 2, "threadIdx.x": 128}
    assert "// tl_cuda/gemm_mma.h (tilelang package)" in source  # the header travels with the source
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in source
    assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in source
    assert "alignas(64) float C_local_ptr[128];" in source  # 128x128 floats on 128 threads, in registers
    # T.Pipelined(num_stages=3): three buffers a tile (3 x 2 x 8 KiB, static), cp.async copies of the first two
    # k steps, then each step waits for its own copies, a barrier, starts the copies of step k + 2, runs its gemm
    assert "__shared__ alignas(64) half A_shared_ptr[12288];" in source
    prologue = source[source.index("tl_cuda::copy_g2s<128, 32, 128, true, true>((&(A_shared_ptr[0])), "):]
    assert prologue.index("tl_cuda::copy_g2s<128, 32, 128, true, true>((&(A_shared_ptr[4096])), ") < \
           prologue.index("for (int k = 0; k < 4; ++k) {")
    step = source[source.index("for (int k = 0; k < 4; ++k) {"):]
    step = step[:step.index("tl_cuda::gemm_ss<") + 200]
    assert step.count("__syncthreads();") == 1
    for line in ("tl_cuda::async_wait<1>();\n    __syncthreads();\n    if (k < 2) {",
                 "tl_cuda::copy_g2s<128, 32, 128, true, true>((&(A_shared_ptr[(((k + 2) % 3) * 4096)])), "
                 "(&(A_ptr[(((((int)blockIdx.y) * 16384) + (k * 32)) + 64)])), 128);",
                 "tl_cuda::async_commit();",
                 "tl_cuda::gemm_ss<128, 128, 32, 2, 2, false, false>((&(A_shared_ptr[((k % 3) * 4096)])), "
                 "(&(B_shared_ptr[((k % 3) * 4096)])), (&(C_local_ptr[0])));"):
        assert line in step, line
    assert "cp.async.cg.shared.global" in source
    # the clear and the copy out: each thread's 128 elements at their (row, col) of the accumulator layout, two
    # adjacent columns at a time (8-byte float2 clears, 4-byte half2 stores: C's rows are even, so every pair is
    # aligned)
    assert source.count("*(float2*)(C_local_ptr + ") == 2 * 64 and source.count("*(half2*)(C_ptr + ") == 64
    assert "tl_cuda::acc_row<128, 128, 2, 2>(126) * 256)) + (((int)blockIdx.x) * 128)) + " \
           "(tl_cuda::acc_pair<128, 128, 2, 2>(126) * 2))) = " in source


@pytest.mark.parametrize(("ta", "tb", "dtype", "bm", "bn", "call"), [
    (True, True, "bfloat16", 128, 128, "gemm_ss<128, 128, 32, 2, 2, true, true>"),
    (True, False, "float16", 128, 64, "gemm_ss<128, 64, 32, 4, 1, true, false>"),  # the squarer warp tile, 32x64
    (False, True, "float16", 64, 128, "gemm_ss<64, 128, 32, 2, 2, false, true>"),
])
def test_transposed_operands_and_bf16(ta: bool, tb: bool, dtype: str, bm: int, bn: int, call: str) -> None:
    source, launch = _lower(matmul_t(256, 256, 128, bm, bn, 32, ta, tb, dtype))
    assert launch["threadIdx.x"] == 128
    assert f"tl_cuda::{call}(" in source
    assert f"mma.sync.aligned.m16n8k16.row.col.f32.{'bf16.bf16' if dtype == 'bfloat16' else 'f16.f16'}.f32" in source


def _gemm_loop(stages: int | None, bk: int):
    @T.prim_func
    def main(A: T.Tensor((128, 256), "float16"), B: T.Tensor((256, 128), "float16"), C: T.Tensor((128, 128), "float")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((128, bk), "float16")
            B_s = T.alloc_shared((bk, 128), "float16")
            acc = T.alloc_fragment((128, 128), "float")
            T.clear(acc)
            for k in (T.serial(256 // bk) if stages is None else T.Pipelined(256 // bk, num_stages=stages)):
                T.copy(A[0, k * bk], A_s)
                T.copy(B[k * bk, 0], B_s)
                T.gemm(A_s, B_s, acc)
            T.copy(acc, C)

    return main


@pytest.mark.parametrize(("stages", "bk"), [(None, 32), (3, 64)])
def test_a_loop_without_room_for_stages_copies_then_waits(stages: int | None, bk: int) -> None:
    """A serial loop, and T.Pipelined(num_stages=3) whose stages would take 96 KiB (64 KiB with two) of shared memory
    (over 48 KiB of static shared memory): each k step is a barrier, both copies, a barrier, the gemm."""
    source, launch = _lower(_gemm_loop(stages, bk))
    assert launch == {"blockIdx.x": 1, "threadIdx.x": 128}
    assert "tl_cuda::async_commit();" not in source
    assert f"__shared__ alignas(64) half A_s_ptr[{128 * bk}];" in source
    step = source[source.index(f"for (int k = 0; k < {256 // bk}; ++k) {{"):]
    assert step[:step.index("tl_cuda::gemm_ss<")].count("__syncthreads();") == 2
    assert f"tl_cuda::copy_g2s<128, {bk}, 128, true, false>((&(A_s_ptr[0])), (&(A_ptr[(k * {bk})])), 256);" in step


def test_a_copy_out_whose_pairs_are_not_provably_aligned_stores_one_element_at_a_time() -> None:
    """C's rows of 131 floats: an adjacent pair of row r starts at r * 131 + 2c, odd for odd r (a 2-element vector
    access there would fault), so the copy out stores each element on its own."""

    @T.prim_func
    def main(A: T.Tensor((128, 32), "float16"), B: T.Tensor((32, 128), "float16"), C: T.Tensor((128, 131), "float")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((128, 32), "float16")
            B_s = T.alloc_shared((32, 128), "float16")
            acc = T.alloc_fragment((128, 128), "float")
            T.clear(acc)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.gemm(A_s, B_s, acc)
            T.copy(acc, C[0, 0])

    source, launch = _lower(main)
    assert launch == {"blockIdx.x": 1, "threadIdx.x": 128} and "tl_cuda::gemm_ss<" in source
    assert "*(float2*)(C_ptr" not in source and source.count("] = acc_ptr[") == 128
    assert "C_ptr[((tl_cuda::acc_row<128, 128, 2, 2>(127) * 131) + tl_cuda::acc_col<128, 128, 2, 2>(127))]" in source


def _extra_fragment():
    @T.prim_func
    def main(A: T.Tensor((128, 64), "float16"), B: T.Tensor((64, 128), "float16"), C: T.Tensor((128, 128), "float")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((128, 64), "float16")
            B_s = T.alloc_shared((64, 128), "float16")
            acc = T.alloc_fragment((128, 128), "float")
            row = T.alloc_fragment((128,), "float")
            T.clear(acc)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.gemm(A_s, B_s, acc)
            for i in T.Parallel(128):
                row[i] = acc[i, 0]
            for i, j in T.Parallel(128, 128):
                C[i, j] = acc[i, j] - row[i]

    return main


def _shared_read_by_a_nest():
    @T.prim_func
    def main(A: T.Tensor((128, 64), "float16"), B: T.Tensor((64, 128), "float16"), C: T.Tensor((128, 128), "float"),
             D: T.Tensor((128, 64), "float16")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((128, 64), "float16")
            B_s = T.alloc_shared((64, 128), "float16")
            acc = T.alloc_fragment((128, 128), "float")
            T.clear(acc)
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.gemm(A_s, B_s, acc)
            T.copy(A_s, D)
            T.copy(acc, C)

    return main


@pytest.mark.parametrize("case", ["float32", "extra_fragment", "shared_read_by_a_nest", "threads_96"])
def test_gemm_blocks_the_engine_cannot_prove_keep_their_lowering(case: str) -> None:
    """fp32 operands (no tensor-core path), a fragment other than the accumulator (its own layout would differ), a
    gemm operand read by an element nest (the swizzled tile has no element layout), 3 warps that tile no 128x128
    accumulator in 16x16 pieces: no mma, the block as before (one thread)."""
    func = {"float32": lambda: matmul(256, 256, 128, 128, 128, 32, "float32"), "extra_fragment": _extra_fragment,
            "shared_read_by_a_nest": _shared_read_by_a_nest,
            "threads_96": lambda: matmul_t(256, 256, 128, 128, 128, 32, False, False, "float16")}[case]()
    if case == "threads_96":
        func = func.with_attr("tl.threads", 96)
    source, launch = _lower(func)
    assert "mma.sync" not in source and "tl_cuda::" not in source
    assert "threadIdx.x" not in launch


@pytest.mark.slow
def test_gemm_variants_compile_for_sm80_and_sm90(tmp_path: Path) -> None:
    """The transposed bf16 GEMM (the quickstart one is compiled with the benchmark's kernels) and the unaligned-copy
    path of the header, with nvcc."""
    nvcc = bench_cuda.find_nvcc()
    if nvcc is None:
        pytest.skip("no nvcc ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin, pip's nvidia-cuda-nvcc)")
    source, _ = _lower(matmul_t(256, 256, 128, 128, 128, 32, True, True, "bfloat16"))
    cu = tmp_path / "gemm_tt_bf16.cu"
    # the copy of A through the element-wise path (what a tile not provably 16-byte aligned takes)
    cu.write_text(source.replace("copy_g2s<32, 128, 128, true, false>", "copy_g2s<32, 128, 128, false, false>", 1))
    for arch in ("sm_80", "sm_90"):
        bench_cuda.nvcc_compile(nvcc, cu, arch, tmp_path / f"gemm.{arch}.cubin")
        assert (tmp_path / f"gemm.{arch}.cubin").stat().st_size > 0
