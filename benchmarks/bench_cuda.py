"""The cuda backend's kernels against PyTorch on an NVIDIA GPU, in the same process (issue 32).

Two phases, because the GPU machine has neither apache-tvm nor this project installed:

    .venv/bin/python benchmarks/bench_cuda.py --emit build/bench_cuda [--arch sm_90] [--small]
    python benchmarks/bench_cuda.py --run build/bench_cuda

`--emit DIR` (here, with the project) lowers each kernel of the issue's table with `tilelang.lower(...,
target=Target({"kind": "cuda", "arch": ARCH}))` and writes its CUDA source (`NAME.cu`) and `manifest.json`: the
kernel's entry, its launch (grid and block from the kernel's thread_extent launches, as TVM records them, and its
dynamic shared memory), the order of the kernel's arguments in the source, every parameter's dtype and shape, which
are outputs, and what PyTorch computes for it. `--small` writes the same kernels at small sizes (the tests).

`--run DIR` (on the GPU machine) needs only Python's standard library, torch with CUDA and the CUDA driver: it
compiles each source with nvcc (`-cubin` for the device's own sm_XY; nvcc from $CUDA_HOME/bin, PATH,
/usr/local/cuda/bin or pip's nvidia-cuda-nvcc wheel), loads it through the driver API (libcuda.so.1 with ctypes:
cuModuleLoadData, cuLaunchKernel on torch's current stream), runs it on random inputs, checks the outputs against
PyTorch (torch.matmul, scaled_dot_product_attention, +, rms_norm, layer_norm), times both with CUDA events and
prints the time of each and their ratio (PyTorch's time / this project's: 1.0 is as fast as PyTorch). Without torch
or without a CUDA device it says so and exits 0. Exits 1 when a kernel fails to compile or gives a wrong result.

Kernels (TileLang's own bodies): the GEMM and element-wise add of tests/language/test_language_llvm.py (TileLang's
quickstart GEMM, 128x128x32 blocks, num_stages=3, 128 threads), flash attention forward of tests/tt_attention_kernels.py
(upstream example_mha_fwd_bhsd.py, 64x64 blocks), rms_norm of tests/tt_norm_kernels.py (fp32, one row per block),
layer norm (the same body with bf16 input, weight, bias and output, fp32 fragments; one row per block) and gemv
(tests/tt_thread_kernels.gemv_split_k: TileLang's splitk_gemv[_vectorized] in its T.get_thread_binding style, 4 rows
a block on 4 x 32 threads, each thread summing 8-element runs of its row, T.atomic_add into shared row sums).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cuda_driver import Driver, find_nvcc, nvcc_compile  # noqa: E402  (standard library only)

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = "manifest.json"

# name -> (title, kind, full-size arguments, small arguments, reference attributes)
TABLE: dict[str, tuple[str, str, dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "gemm": ("GEMM 4096^3 fp16 (128x128x32 blocks)", "gemm", {"M": 4096, "N": 4096, "K": 4096},
             {"M": 256, "N": 256, "K": 128}, {}),
    "flash_fwd": ("flash attention fwd B4 H16 S2048 D64", "attention", {"B": 4, "H": 16, "S": 2048, "D": 64},
                  {"B": 1, "H": 2, "S": 128, "D": 64}, {"causal": False}),
    "flash_fwd_causal": ("flash attention fwd B4 H16 S2048 D64 causal", "attention",
                         {"B": 4, "H": 16, "S": 2048, "D": 64}, {"B": 1, "H": 2, "S": 128, "D": 64},
                         {"causal": True}),
    "add": ("element-wise add 8192^2 bf16", "add", {"M": 8192, "N": 8192}, {"M": 256, "N": 256}, {}),
    "rms_norm": ("rms_norm 8192^2 fp32", "rms_norm", {"M": 8192, "N": 8192}, {"M": 64, "N": 512}, {"eps": 1e-6}),
    "layer_norm": ("layernorm 4096^2 bf16", "layer_norm", {"M": 4096, "N": 4096}, {"M": 64, "N": 512},
                   {"eps": 1e-5}),
    "gemv": ("gemv 8192^2 fp16 (split-K, 16-byte loads, atomicAdd)", "gemv", {"N": 8192, "K": 8192},
             {"N": 256, "K": 512}, {"block_n": 4, "split": 32, "tile_k": 8, "vectorized": True}),
    "gemv_scalar": ("gemv 8192^2 fp16 (split-K, one fp16 a load)", "gemv", {"N": 8192, "K": 8192},
                    {"N": 256, "K": 512}, {"block_n": 4, "split": 32, "tile_k": 8, "vectorized": False}),
}


# --------------------------------------------------------------------------------------------------- emit phase


def layer_norm_bf16(M: int, N: int, blk_m: int, eps: float = 1e-5) -> Any:
    """tests/tt_norm_kernels.layer_norm's body with bf16 tensors and fp32 fragments (the copies convert)."""
    import tilelang.language as T

    dtype, accum = "bfloat16", "float"

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), W: T.Tensor((N,), dtype), Bias: T.Tensor((N,), dtype),
             Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, N), accum)
            sq = T.alloc_fragment((blk_m, N), accum)
            mean = T.alloc_fragment((blk_m,), accum)
            var = T.alloc_fragment((blk_m,), accum)
            T.copy(X[bx * blk_m, 0], x)
            T.reduce_sum(x, mean, dim=1)
            for i in T.Parallel(blk_m):
                mean[i] = mean[i] / N
            for i, j in T.Parallel(blk_m, N):
                sq[i, j] = (x[i, j] - mean[i]) * (x[i, j] - mean[i])
            T.reduce_sum(sq, var, dim=1)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = (x[i, j] - mean[i]) * T.rsqrt(var[i] / N + eps) * W[j] + Bias[j]
            T.copy(x, Y[bx * blk_m, 0])

    return main


def kernel_of(name: str, size: dict[str, Any], attrs: dict[str, Any]) -> tuple[Any, list[str], float]:
    """The TileLang kernel of a table row at `size`, its output parameters and its floating-point operations."""
    sys.path.insert(0, str(ROOT / "tests"))
    import layers  # noqa: F401  (and the layer folders of tests/)
    from test_language_llvm import elementwise_add, matmul
    from tt_attention_kernels import flashattn
    from tt_norm_kernels import rms_norm
    from tt_thread_kernels import gemv_split_k

    kind = TABLE[name][1]
    if kind == "gemm":
        m, n, k = size["M"], size["N"], size["K"]
        return matmul(m, n, k, 128, 128, 32), ["C"], 2.0 * m * n * k
    if kind == "attention":
        b, h, s, d = size["B"], size["H"], size["S"], size["D"]
        flops = 4.0 * b * h * s * s * d * (0.5 if attrs["causal"] else 1.0)
        return flashattn(b, h, s, s, d, attrs["causal"]), ["Output"], flops
    if kind == "gemv":
        n, k = size["N"], size["K"]
        return gemv_split_k(n, k, attrs["block_n"], attrs["split"], attrs["tile_k"], attrs["vectorized"]), ["C"], \
            2.0 * n * k
    m, n = size["M"], size["N"]
    if kind == "add":
        return elementwise_add(m, n, 32, 32, "bfloat16", "bfloat16"), ["C"], float(m * n)
    if kind == "rms_norm":
        return rms_norm(m, n, 1, attrs["eps"]), ["B"], 3.0 * m * n
    if kind == "layer_norm":
        return layer_norm_bf16(m, n, 1, attrs["eps"]), ["Y"], 6.0 * m * n
    raise ValueError(f"unknown kernel kind {kind!r}")


SIGNATURE = re.compile(r'extern "C" __global__ void (?:__launch_bounds__\(\d+\) )?(\w+)\(([^)]*)\)\s*\{')


def launch_arguments(source: str, params: list[str]) -> tuple[str, list[str]]:
    """The kernel's entry and the parameter names in the order of its CUDA signature (TVM orders them its way:
    `K_ptr, Output_ptr, Q_ptr, V_ptr`), read from the one `extern "C" __global__` definition of the source."""
    from tilelang.errors import TileLangError

    found = SIGNATURE.findall(source)
    if len(found) != 1:
        raise TileLangError(f"expected one __global__ kernel definition in the CUDA source, found {len(found)}")
    entry, arglist = found[0]
    names = []
    for arg in (a.strip() for a in arglist.split(",") if a.strip()):
        word = arg.split()[-1]
        base = word[:-4] if word.endswith("_ptr") and word[:-4] in params else word
        if base not in params:
            raise TileLangError(f"kernel argument '{arg}' of {entry} names no kernel parameter ({', '.join(params)})")
        names.append(base)
    return entry, names


def emit_one(name: str, small: bool, arch: str, out: Path) -> dict[str, Any]:
    import tvm

    import tilelang
    from tilelang.engine.codegen import launch_extents
    from tilelang.errors import TileLangError

    title, kind, full, little, attrs = TABLE[name]
    size = little if small else full
    func, outputs, flops = kernel_of(name, size, attrs)
    artifact = tilelang.lower(func, target=tvm.target.Target({"kind": "cuda", "arch": arch}))
    source = artifact.kernel_source
    if "extern __shared__" in source:
        raise TileLangError(f"{name}: the source declares dynamic shared memory, whose size this benchmark does not "
                            "read yet")
    scalars = [p.name for p in artifact.params if not p.is_tensor]
    if scalars:
        raise TileLangError(f"{name}: scalar parameters ({', '.join(scalars)}) are not launched by this benchmark")
    launches = launch_extents(artifact.device_mod)
    if len(launches) != 1:
        raise TileLangError(f"{name}: expected one kernel launch, found {len(launches)}")
    tags = next(iter(launches.values()))
    entry, order = launch_arguments(source, [p.name for p in artifact.params])
    (out / f"{name}.cu").write_text(source)
    elements = sum(math.prod(p.shape) * _itemsize(p.dtype) for p in artifact.params)
    return {
        "name": name, "title": title + (f" (small: {size})" if small else ""), "kind": kind, "size": size,
        "attrs": attrs, "source": f"{name}.cu", "entry": entry, "arch": arch,
        "grid": [tags.get(f"blockIdx.{a}", 1) for a in "xyz"],
        "block": [tags.get(f"threadIdx.{a}", 1) for a in "xyz"],
        "dynamic_shared_bytes": 0, "launch_args": order, "outputs": outputs,
        "params": [{"name": p.name, "dtype": p.dtype, "shape": list(p.shape)} for p in artifact.params],
        "flops": flops, "bytes": elements,
    }


def _itemsize(dtype: str) -> int:
    bits = int(re.sub(r"\D", "", dtype) or 8)
    return max(1, bits // 8)


def emit(out: Path, small: bool, arch: str, only: list[str]) -> int:
    out.mkdir(parents=True, exist_ok=True)
    kernels = [emit_one(name, small, arch, out) for name in (only or TABLE)]
    (out / MANIFEST).write_text(json.dumps({"arch": arch, "small": small, "kernels": kernels}, indent=1) + "\n")
    for k in kernels:
        print(f"{k['name']}: {k['source']} entry {k['entry']} grid {k['grid']} block {k['block']} "
              f"args {', '.join(k['launch_args'])}")
    print(f"wrote {len(kernels)} kernels and {MANIFEST} to {out}")
    return 0


# ---------------------------------------------------------------------------------------------------- run phase


def make_inputs(kernel: dict[str, Any], seed: int) -> dict[str, Any]:
    """Random inputs for every parameter and NaN-filled outputs (an element the kernel never writes shows)."""
    import torch

    gen = torch.Generator(device="cuda").manual_seed(seed)
    tensors = {}
    for p in kernel["params"]:
        dtype = getattr(torch, p["dtype"])
        if p["name"] in kernel["outputs"]:
            tensors[p["name"]] = torch.full(p["shape"], float("nan"), dtype=dtype, device="cuda")
        else:
            tensors[p["name"]] = torch.randn(p["shape"], generator=gen, device="cuda", dtype=torch.float32).to(dtype)
    return tensors


def reference(kernel: dict[str, Any], t: dict[str, Any]) -> tuple[Callable[[], Any], str]:
    """PyTorch's computation of the kernel (a function of no arguments returning its output) and its name."""
    import torch
    import torch.nn.functional as F  # noqa: N812

    kind, attrs = kernel["kind"], kernel["attrs"]
    if kind == "gemm":
        return (lambda: torch.matmul(t["A"], t["B"])), "torch.matmul"
    if kind == "attention":
        return (lambda: F.scaled_dot_product_attention(t["Q"], t["K"], t["V"], is_causal=attrs["causal"])), "SDPA"
    if kind == "add":
        return (lambda: t["A"] + t["B"]), "torch +"
    if kind == "rms_norm":
        n = kernel["params"][0]["shape"][-1]
        return (lambda: F.rms_norm(t["A"], (n,), eps=attrs["eps"])), "F.rms_norm"
    if kind == "layer_norm":
        n = t["W"].shape[0]
        return (lambda: F.layer_norm(t["X"], (n,), t["W"], t["Bias"], eps=attrs["eps"])), "F.layer_norm"
    if kind == "gemv":  # C = B @ A: B (N, K), A (K,)
        return (lambda: torch.mv(t["B"], t["A"])), "torch.mv"
    raise ValueError(f"unknown kernel kind {kind!r}")


TOLERANCE = {"gemm": 1e-2, "attention": 2e-2, "add": 1e-2, "rms_norm": 1e-3, "layer_norm": 3e-2, "gemv": 1e-2}


def relative_error(out: Any, ref: Any) -> float:
    out, ref = out.float(), ref.float()
    if not bool(out.isfinite().all()):
        return float("inf")
    return float((out - ref).abs().max() / ref.abs().max().clamp_min(1e-6))


def time_ms(fn: Callable[[], Any], budget_s: float = 0.5, most: int = 200) -> float:
    """Mean milliseconds per call with CUDA events: one warm-up call, one timed to size the repetitions."""
    import torch

    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    once = start.elapsed_time(end)
    reps = max(1, min(most, int(budget_s * 1000 / max(once, 1e-3))))
    if reps == 1:
        return once
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / reps


def measure(kernel: dict[str, Any], folder: Path, tmp: Path, nvcc: str, arch: str, driver: Driver,
            seed: int) -> tuple[dict[str, Any], bool, float, float, float, str]:
    """Compile, run, check and time one kernel and its PyTorch baseline (printing a line as it goes)."""
    import torch

    name = kernel["name"]
    cubin = tmp / f"{name}.cubin"
    nvcc_compile(nvcc, folder / kernel["source"], arch, cubin)
    func = driver.load(cubin.read_bytes(), kernel["entry"], kernel["dynamic_shared_bytes"])
    tensors = make_inputs(kernel, seed)
    ours = driver.launcher(func, kernel["grid"], kernel["block"], kernel["dynamic_shared_bytes"],
                           [tensors[a] for a in kernel["launch_args"]])
    theirs, theirs_name = reference(kernel, tensors)
    ours()
    torch.cuda.synchronize()
    error = relative_error(tensors[kernel["outputs"][0]], theirs())
    correct = error <= TOLERANCE[kernel["kind"]]
    ours_ms, theirs_ms = time_ms(ours), time_ms(theirs)
    print(f"{name}: {'correct' if correct else 'WRONG'} (max rel. error {error:.1e}), "
          f"{ours_ms:.4g} ms vs {theirs_name} {theirs_ms:.4g} ms", flush=True)
    return kernel, correct, error, ours_ms, theirs_ms, theirs_name


def run(folder: Path) -> int:
    try:
        import torch
    except ImportError as err:
        print(f"bench_cuda --run: no torch here ({err}); nothing to measure")
        return 0
    if not torch.cuda.is_available():
        print("bench_cuda --run: no CUDA device here (torch.cuda.is_available() is False); nothing to measure")
        return 0
    if not (folder / MANIFEST).is_file():
        print(f"bench_cuda --run: {folder / MANIFEST} does not exist: run --emit {folder} first (with the project)")
        return 2
    manifest = json.loads((folder / MANIFEST).read_text())
    nvcc = find_nvcc()
    if nvcc is None:
        print("bench_cuda --run: no nvcc found ($CUDA_HOME/bin, PATH, /usr/local/cuda/bin, pip's nvidia-cuda-nvcc)")
        return 1
    major, minor = torch.cuda.get_device_capability()
    arch = f"sm_{major}{minor}"
    print(f"device: {torch.cuda.get_device_name()} ({arch}), torch {torch.__version__}, nvcc {nvcc}; "
          f"kernels emitted for {manifest['arch']}")
    driver, failures, rows = Driver(), 0, []
    with tempfile.TemporaryDirectory() as tmp:
        for kernel in manifest["kernels"]:
            try:
                row = measure(kernel, folder, Path(tmp), nvcc, arch, driver, seed=len(rows))
            except RuntimeError as err:  # nvcc or the driver failed: name it, go on with the next kernel
                print(f"{kernel['name']}: {err}", flush=True)
                failures += 1
                continue
            rows.append(row)
            failures += not row[1]
    print()
    print("| kernel | correct | grid x block | this project | PyTorch | ratio (PyTorch time / ours) |")
    print("|---|---|---|---|---|---|")
    for kernel, correct, error, ours_ms, theirs_ms, theirs_name in rows:
        compute = kernel["kind"] in ("gemm", "attention")

        def rate(ms: float, kernel: dict[str, Any] = kernel, compute: bool = compute) -> str:
            return f"{kernel['flops'] / ms / 1e9:.3g} TF/s" if compute else f"{kernel['bytes'] / ms / 1e6:.3g} GB/s"

        print(f"| {kernel['title']} | {'yes' if correct else f'no ({error:.1e})'} | {kernel['grid']} x "
              f"{kernel['block']} | {ours_ms:.4g} ms ({rate(ours_ms)}) | {theirs_ms:.4g} ms ({rate(theirs_ms)}, "
              f"{theirs_name}) | {theirs_ms / ours_ms:.3g}x |")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    phase = parser.add_mutually_exclusive_group(required=True)
    phase.add_argument("--emit", type=Path, metavar="DIR", help="lower the kernels and write sources + manifest")
    phase.add_argument("--run", type=Path, metavar="DIR", help="compile, run and time the emitted kernels")
    parser.add_argument("--arch", default="sm_90", help="the cuda target's arch for --emit (default sm_90)")
    parser.add_argument("--small", action="store_true", help="--emit at small sizes (tests)")
    parser.add_argument("--only", default="", help=f"comma-separated kernels for --emit ({', '.join(TABLE)})")
    args = parser.parse_args(argv)
    if args.emit is not None:
        only = [n for n in args.only.split(",") if n]
        unknown = [n for n in only if n not in TABLE]
        if unknown:
            parser.error(f"unknown kernel(s) {', '.join(unknown)}; known: {', '.join(TABLE)}")
        return emit(args.emit, args.small, args.arch, only)
    return run(args.run)


if __name__ == "__main__":
    sys.exit(main())
