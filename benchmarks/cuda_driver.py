"""What benchmarks/bench_cuda.py's run phase needs of CUDA, with the standard library only: nvcc found and run, and
the CUDA driver API (libcuda.so.1 through ctypes) loading a cubin and launching its kernel on torch's stream."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def find_nvcc() -> str | None:
    """nvcc from $CUDA_HOME/bin, PATH, /usr/local/cuda/bin, or pip's nvidia-cuda-nvcc wheels on sys.path
    (nvidia/cu13/bin for CUDA 13: the project's `cuda` extra; nvidia/cuda_nvcc/bin for CUDA 12), in that order; None
    when there is none."""
    candidates = [Path(os.environ[v]) / "bin" / "nvcc" for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    which = shutil.which("nvcc")
    candidates += [Path(which)] if which else []
    candidates.append(Path("/usr/local/cuda/bin/nvcc"))
    candidates += [Path(p) / "nvidia" / wheel / "bin" / "nvcc" for wheel in ("cu13", "cuda_nvcc")
                   for p in sys.path if p]
    return next((str(c) for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)


def nvcc_compile(nvcc: str, source: Path, arch: str, output: Path, kind: str = "cubin") -> None:
    """`nvcc -O3 --<kind> -arch=<arch>` (cubin or ptx); a failure raises RuntimeError with nvcc's message."""
    cmd = [nvcc, "-O3", f"--{kind}", f"-arch={arch}", "-o", str(output), str(source)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"nvcc failed on {source.name} for {arch}: {(done.stderr or done.stdout).strip()[-2000:]}")


class Driver:
    """The CUDA driver API through ctypes (the functions of cuda.h this benchmark calls)."""

    MAX_DYNAMIC_SHARED_SIZE_BYTES = 8  # CUfunction_attribute CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

    def __init__(self) -> None:
        import torch

        self.lib = ctypes.CDLL("libcuda.so.1")
        torch.zeros(1, device="cuda")  # torch makes the device's primary context current on this thread
        ctx = ctypes.c_void_p()
        self.check(self.lib.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
        if not ctx.value:
            raise RuntimeError("no current CUDA context after torch initialised the device")
        self.keep: list[Any] = []

    def check(self, result: int, what: str) -> None:
        if result != 0:
            text = ctypes.c_char_p()
            self.lib.cuGetErrorString(result, ctypes.byref(text))
            raise RuntimeError(f"{what} failed: CUDA error {result} ({(text.value or b'?').decode()})")

    def load(self, image: bytes, entry: str, dynamic_shared: int) -> ctypes.c_void_p:
        module, func = ctypes.c_void_p(), ctypes.c_void_p()
        buffer = ctypes.create_string_buffer(image)
        self.keep.append(buffer)
        self.check(self.lib.cuModuleLoadData(ctypes.byref(module), buffer), "cuModuleLoadData")
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(func), module, entry.encode()), "cuModuleGetFunction")
        if dynamic_shared > 48 * 1024:
            self.check(self.lib.cuFuncSetAttribute(func, self.MAX_DYNAMIC_SHARED_SIZE_BYTES, dynamic_shared),
                       "cuFuncSetAttribute")
        return func

    def launcher(self, func: ctypes.c_void_p, grid: list[int], block: list[int], shared: int,
                 tensors: list[Any]) -> Callable[[], None]:
        import torch

        pointers = [ctypes.c_void_p(t.data_ptr()) for t in tensors]
        params = (ctypes.c_void_p * len(pointers))(*[ctypes.addressof(p) for p in pointers])  # void** kernelParams
        self.keep += [pointers, params]
        u = ctypes.c_uint

        def launch() -> None:
            stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
            self.check(self.lib.cuLaunchKernel(func, u(grid[0]), u(grid[1]), u(grid[2]), u(block[0]), u(block[1]),
                                               u(block[2]), u(shared), stream, params, None), "cuLaunchKernel")

        return launch
