"""The cuda backend's kernels outside a GPU (issue 32): benchmarks/bench_cuda.py's emit phase (sources, launches and
argument order of the issue's kernels), its run phase where no GPU is, and nvcc compiling every emitted kernel for
sm_80 and sm_90 (nvcc from $CUDA_HOME, PATH, /usr/local/cuda or pip's nvidia-cuda-nvcc; bench_cuda.find_nvcc)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tvm
from tvm.script import tirx as S

import tilelang
import tilelang.language as T
from projects import REPO, TESTS
from tilelang.engine.codegen import launch_extents
from tilelang.errors import TileLangError

ROOT = REPO
sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_cuda  # noqa: E402

sys.path.insert(0, str(TESTS))
from test_language_llvm import elementwise_add, matmul  # noqa: E402
from tt_norm_kernels import rms_norm, softmax  # noqa: E402
from tt_thread_kernels import gemv_split_k, reverse_through_shared  # noqa: E402

SM90 = tvm.target.Target({"kind": "cuda", "arch": "sm_90"})

ARCHS = ("sm_80", "sm_90")


@S.prim_func
def TWO_LAUNCHES_OK(A: S.Buffer((256,), "float32")):  # noqa: N802
    with S.launch_thread("blockIdx.x", 8) as bx:
        with S.launch_thread("threadIdx.x", 32) as tx:
            A[bx * 32 + tx] = S.float32(1)


@pytest.fixture(scope="module")
def emitted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("bench_cuda")
    assert bench_cuda.main(["--emit", str(folder), "--small"]) == 0
    return folder, json.loads((folder / bench_cuda.MANIFEST).read_text())


def test_emit_writes_each_kernel_with_its_launch_and_argument_order(emitted: tuple[Path, dict]) -> None:
    folder, manifest = emitted
    kernels = {k["name"]: k for k in manifest["kernels"]}
    assert list(kernels) == list(bench_cuda.TABLE)
    assert manifest["arch"] == "sm_90" and manifest["small"] is True
    for name, k in kernels.items():
        source = (folder / k["source"]).read_text()
        signature = re.search(r'__global__ void (?:__launch_bounds__\(\d+\) )?\w+\(([^)]*)\) \{', source)
        assert signature is not None, name
        assert [a.split()[-1].removesuffix("_ptr") for a in signature.group(1).split(",")] == k["launch_args"]
        assert sorted(k["launch_args"]) == sorted(p["name"] for p in k["params"])
        assert set(k["outputs"]) <= set(k["launch_args"])
    # grids from the kernels' blockIdx launches at the small sizes (256x256 GEMM in 128x128 blocks, ...)
    assert kernels["gemm"]["grid"] == [2, 2, 1]
    assert kernels["flash_fwd"]["grid"] == [2, 2, 1] and kernels["flash_fwd"]["launch_args"] == ["K", "Output", "Q",
                                                                                                 "V"]
    assert kernels["add"]["grid"] == [8, 8, 1] and kernels["add"]["block"] == [128, 1, 1]  # BindCudaThreads
    assert kernels["gemm"]["block"] == [1, 1, 1]  # a GEMM block keeps one thread (not bound yet)
    assert kernels["rms_norm"]["grid"] == [64, 1, 1]
    assert kernels["rms_norm"]["block"] == kernels["layer_norm"]["block"] == [128, 1, 1]  # cross-thread reductions
    assert kernels["layer_norm"]["params"][0] == {"name": "X", "dtype": "bfloat16", "shape": [64, 512]}
    # gemv: T.get_thread_binding's (4, 32) threads as written, 4 rows a block
    assert kernels["gemv"]["grid"] == [64, 1, 1] and kernels["gemv"]["block"] == [4, 32, 1]
    assert kernels["gemv"]["launch_args"] == ["A", "B", "C"] and kernels["gemv"]["outputs"] == ["C"]


def test_run_phase_without_a_gpu_says_so_and_exits_0(emitted: tuple[Path, dict]) -> None:
    folder, _ = emitted
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_cuda.py"), "--run", str(folder)],
                          capture_output=True, text=True, timeout=300)
    if tvm.cuda(0).exist:
        pytest.skip("a CUDA device is here: the run phase measures instead")
    assert done.returncode == 0, done.stderr
    assert re.search(r"bench_cuda --run: no (torch here|CUDA device here)", done.stdout), done.stdout


def test_run_phase_without_an_emitted_folder_says_what_to_do(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_cuda.py"), "--run", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 2)
    if done.returncode == 2:
        assert "manifest.json does not exist: run --emit" in done.stdout


def test_emit_refuses_an_unknown_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        bench_cuda.main(["--emit", "/nonexistent", "--only", "conv2d"])
    assert "unknown kernel(s) conv2d" in capsys.readouterr().err


def test_launch_extents_refuses_two_kernels_in_one_function() -> None:
    @S.prim_func
    def main(A: S.Buffer((64,), "float32")):
        with S.launch_thread("blockIdx.x", 2) as bx:
            A[bx] = S.float32(1)
        with S.launch_thread("blockIdx.x", 4) as bx:
            A[bx] = S.float32(2)

    assert launch_extents(tvm.IRModule({"one": TWO_LAUNCHES_OK})) == {"one": {"blockIdx.x": 8, "threadIdx.x": 32}}
    with pytest.raises(TileLangError, match=r"kernel 'main' launches blockIdx.x with two extents \(2 and 4\)"):
        launch_extents(main)


@pytest.mark.slow
def test_every_emitted_kernel_compiles_for_sm80_and_sm90(emitted: tuple[Path, dict], tmp_path: Path) -> None:
    nvcc = bench_cuda.find_nvcc()
    if nvcc is None:
        pytest.skip("no nvcc ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin, pip's nvidia-cuda-nvcc)")
    folder, manifest = emitted

    def compile_one(job: tuple[dict, str]) -> Path:
        kernel, arch = job
        out = tmp_path / f"{kernel['name']}.{arch}.cubin"
        bench_cuda.nvcc_compile(nvcc, folder / kernel["source"], arch, out)
        return out

    jobs = [(k, arch) for k in manifest["kernels"] for arch in ARCHS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        cubins = list(pool.map(compile_one, jobs))
    assert all(c.stat().st_size > 0 for c in cubins)


def test_nvcc_failure_names_the_source_and_arch(tmp_path: Path) -> None:
    nvcc = bench_cuda.find_nvcc()
    if nvcc is None:
        pytest.skip("no nvcc")
    bad = tmp_path / "bad.cu"
    bad.write_text('extern "C" __global__ void k(float* a) { a[0] = undefined_name; }\n')
    with pytest.raises(RuntimeError, match=r"nvcc failed on bad.cu for sm_80: .*undefined_name"):
        bench_cuda.nvcc_compile(nvcc, bad, "sm_80", tmp_path / "bad.cubin", kind="ptx")


# ------------------------------------------------------------------------------------------- BindCudaThreads


def _lower(func):
    artifact = tilelang.lower(func, target=SM90)
    return artifact.kernel_source, next(iter(launch_extents(artifact.device_mod).values()))


def test_element_wise_block_runs_on_its_threads() -> None:
    source, launch = _lower(elementwise_add(64, 64, 32, 32, "bfloat16", "bfloat16"))
    assert launch == {"blockIdx.x": 2, "blockIdx.y": 2, "threadIdx.x": 128}
    assert "__launch_bounds__(128)" in source
    # the 32x32 fragment: 8 elements on each of 128 threads, one 16-byte vector (uint4) after VectorizeLoop
    assert "alignas(64) uint4 C_local_ptr[1];" in source
    assert source.count("__syncthreads();") == 4  # between the nests that touch shared memory
    # each thread reads 8 consecutive bf16 of a row with one 16-byte load; 4 threads cover a row of 32 (coalesced)
    assert "*(uint4*)(A_ptr + ((((((int)blockIdx.y) * 2048) + ((((int)threadIdx.x) >> 2) * 64)) + " in source


def test_a_nest_threads_do_not_divide_is_guarded() -> None:
    @T.prim_func
    def main(A: T.Tensor((48, 40), "float32"), B: T.Tensor((48, 40), "float32")):
        with T.Kernel(2, threads=128) as bx:
            for i, j in T.Parallel(24, 40):
                B[bx * 24 + i, j] = A[bx * 24 + i, j] * 2.0

    source, launch = _lower(main)
    assert launch["threadIdx.x"] == 128
    assert "for (int it = 0; it < 8; ++it)" in source  # ceil(960 / 128)
    assert "if (((it * 2) + (((int)threadIdx.x) >> 6)) < 15)" in source  # element it * 128 + tx < 960, simplified


@pytest.mark.parametrize(("cols", "shift", "vector"), [(32, 0, True), (36, 4, True), (33, 1, False)])
def test_threads_access_16_bytes_at_a_time_only_where_aligned(cols: int, shift: int, vector: bool) -> None:
    """B[i, j] = A[i, j + shift]: 4 floats a thread with float4 accesses where every access of a run starts 16-byte
    aligned (a misaligned vector access faults); A's rows of 33 floats read from column 1 are read one float a time."""

    @T.prim_func
    def main(A: T.Tensor((64, cols), "float32"), B: T.Tensor((64, 32), "float32")):
        with T.Kernel(1, threads=128):
            for i, j in T.Parallel(64, 32):
                B[i, j] = A[i, j + shift]

    source, launch = _lower(main)
    assert launch["threadIdx.x"] == 128
    assert ("*(float4*)(A_ptr + " in source) is vector
    assert f"for (int it = 0; it < {4 if vector else 16}; ++it)" in source


def _scan(n: int):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=128):
            S_ = T.alloc_shared((n,), "float32")
            T.copy(A, S_)
            for i in T.serial(n - 1):
                S_[i + 1] = S_[i + 1] + S_[i]
            T.copy(S_, B)

    return main


def _row_broadcast(n: int):
    @T.prim_func
    def main(A: T.Tensor((4, n), "float32"), B: T.Tensor((4, n), "float32")):
        with T.Kernel(1, threads=128):
            x = T.alloc_fragment((4, n), "float32")
            s = T.alloc_fragment((4,), "float32")
            T.copy(A, x)
            for i in T.Parallel(4):
                s[i] = x[i, 0]
            for i, j in T.Parallel(4, n):
                x[i, j] = x[i, j] - s[i]
            T.copy(x, B)

    return main


@pytest.mark.parametrize("case", ["gemm", "scan", "row_broadcast", "one_thread", "too_many",
                                  "global_read_back"])
def test_blocks_keep_one_thread_where_threads_would_be_wrong(case: str) -> None:
    """A GEMM, a carried dependence (a scan over shared memory), a fragment read at another nest's element
    (row_broadcast), threads=1, threads=2048 (over CUDA's 1024 a block), and a global tensor written then read back
    all keep one thread."""

    @T.prim_func
    def one_thread(A: T.Tensor((32,), "float32"), B: T.Tensor((32,), "float32")):
        with T.Kernel(1, threads=1):
            for i in T.Parallel(32):
                B[i] = A[i]

    @T.prim_func
    def too_many(A: T.Tensor((4096,), "float32"), B: T.Tensor((4096,), "float32")):
        with T.Kernel(1, threads=2048):
            for i in T.Parallel(4096):
                B[i] = A[i]

    @T.prim_func
    def global_read_back(A: T.Tensor((32,), "float32"), B: T.Tensor((32,), "float32")):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(32):
                B[i] = A[i]
            for i in T.Parallel(32):
                B[i] = B[31 - i] + 1.0

    func = {"gemm": lambda: matmul(128, 128, 64, 64, 64, 32),
            "scan": lambda: _scan(64), "row_broadcast": lambda: _row_broadcast(64), "one_thread": lambda: one_thread,
            "too_many": lambda: too_many,
            "global_read_back": lambda: global_read_back}[case]()
    source, launch = _lower(func)
    assert "threadIdx.x" not in launch and "threadIdx" not in source


# ------------------------------------------------------------------------------ reductions across the threads


def test_row_reduction_runs_on_the_threads_with_tvm_thread_allreduce() -> None:
    """rms_norm, one row of 256 floats a block: each thread squares and sums its own 2 elements, TVM's lowered
    tvm_thread_allreduce combines the 128 partial sums (warp shuffles, then 4 warps through shared memory), every
    thread scales its elements by the shared rsqrt."""
    source, launch = _lower(rms_norm(8, 256, 1))
    assert launch == {"blockIdx.x": 8, "threadIdx.x": 128}
    assert "alignas(64) float2 A_local_ptr[1];" in source  # 256 / 128 floats a thread
    assert source.count("= __shfl_down_sync(") == 7  # 5 within a warp (offsets 16..1), 2 across the 4 warps
    assert "__shared__ alignas(64) float red_buf_staging_ptr[4];" in source
    assert "A_powsum_ptr[0] = (A_powsum_ptr[0] + ((volatile float*)red_result_ptr)[0]);" in source
    assert "*(float2*)(B_ptr + ((((int)blockIdx.x) * 256) + (((int)threadIdx.x) * 2))) = A_local_ptr[0];" in source


def test_max_and_sum_reductions_of_softmax_run_on_the_threads() -> None:
    source, launch = _lower(softmax(4, 1024, 1))
    assert launch["threadIdx.x"] == 128
    assert "max(acc_ptr[0], " in source and source.count("= __shfl_down_sync(") == 14  # reduce_max, then reduce_sum


def test_layer_norm_reductions_run_on_the_threads() -> None:
    source, launch = _lower(bench_cuda.layer_norm_bf16(8, 512, 1))
    assert launch["threadIdx.x"] == 128
    assert source.count("= __shfl_down_sync(") == 14  # mean, then variance
    assert "*(nv_bfloat164*)(Y_ptr + " in source  # 4 bf16 a thread at a time (16 bytes of the float fragment)


def test_rows_of_a_block_reduce_on_the_threads_one_allreduce_a_row() -> None:
    """rms_norm with blk_m=4: the [4, 256] fragment strided over 128 threads (8 floats a thread, two 16-byte runs),
    each thread sums its elements of each row into acc[row], then one allreduce a row (7 shuffles each) with a
    barrier between rows; every thread scales by its copy of the 4 row results."""
    source, launch = _lower(rms_norm(16, 256, 4))
    assert launch == {"blockIdx.x": 4, "threadIdx.x": 128}
    assert "alignas(64) float acc_ptr[4];" in source
    assert source.count("= __shfl_down_sync(") == 28
    assert "A_powsum_ptr[3] = (A_powsum_ptr[3] + " in source


def test_layer_norm_with_rows_per_block_on_the_threads() -> None:
    source, launch = _lower(bench_cuda.layer_norm_bf16(16, 512, 4))
    assert launch["threadIdx.x"] == 128
    assert source.count("= __shfl_down_sync(") == 2 * 4 * 7  # mean, then variance, of each of 4 rows


# ------------------------------------------------------------------------------------ T.get_thread_binding kernels


def test_split_k_gemv_keeps_its_threads_with_atomic_adds_and_barriers() -> None:
    """TileLang's splitk_gemv_vectorized (tests/tt_thread_kernels.gemv_split_k): the (4, 32) threads it binds itself,
    its T.atomic_add into the shared row sums as atomicAdd, and ThreadSync's barriers between thread tk == 0 clearing
    the sums, the other threads adding into them and every thread reading them (TileLang's kernels write none)."""
    source, launch = _lower(gemv_split_k(64, 512, 4, 32, 8, vectorized=True))
    assert launch == {"blockIdx.x": 16, "threadIdx.x": 4, "threadIdx.y": 32}
    assert "atomicAdd((&(sums_ptr[((int)threadIdx.x)])), acc_ptr[0]);" in source
    assert source.count("__syncthreads();") == 2
    clear, atomic, read = (source.index(s) for s in ("sums_ptr[((int)threadIdx.x)] = 0", "atomicAdd(", "C_ptr["))
    barriers = [i for i in range(len(source)) if source.startswith("__syncthreads();", i)]
    assert clear < barriers[0] < atomic < barriers[1] < read
    assert "*(uint4*)(B_ptr + " in source  # 8 fp16 of B a thread with one 16-byte load


def test_a_thread_reading_what_another_wrote_in_shared_memory_waits_at_a_barrier() -> None:
    """reverse_through_shared: thread t writes s[t] and reads s[31 - t], which thread 31 - t wrote."""
    source, launch = _lower(reverse_through_shared(64, 32))
    assert launch == {"blockIdx.x": 2, "threadIdx.x": 32}
    write, barrier, read = (source.index(s) for s in ("s_ptr[((int)threadIdx.x)] = ", "__syncthreads();",
                                                      "s_ptr[(31 - ((int)threadIdx.x))]"))
    assert write < barrier < read
