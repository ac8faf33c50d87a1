"""The runtime of the backends whose code generator is TVM's (llvm, c, cuda, rocm, webgpu, tvmscript): the backend
interface (tilelang.engine.interface) over `tvm.compile` and TVM's runtime modules."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import tvm

from ..errors import TileLangError
from ..profiler import MEASURED, do_bench
from . import codegen  # its functions called through the module (tests substitute them)
from .backend import Backend, TargetError
from .interface import BackendRuntime, Kernel
from .param import CompiledArtifact, KernelParam

# Where a backend's kernels run (its spec's runs_on) -> the TVM device they are called on; the CPU otherwise.
DEVICES: dict[str, Callable[[int], Any]] = {"cuda": tvm.cuda}


def split_none(mod: tvm.IRModule) -> tuple[tvm.IRModule, Any]:
    """No host/device split: the whole module is the device module (TVM splits inside its own compile)."""
    return mod, None


class TVMRuntime(BackendRuntime):
    execution_backends: tuple[str, ...] = ()

    def build(self, backend: Backend, mod: Any, target: Any, params: Sequence[KernelParam],
              entry: str) -> tuple[Any, str]:
        """TVM's codegen. A codegen this TVM build lacks is a TargetError; a codegen the backend's pipeline did not
        prepare the module for (block launches left for llvm/c, none left for a GPU codegen) and any other
        code-generation failure are TileLangErrors naming the backend and what failed (never a missing backend)."""
        missing = codegen.missing_codegen(backend.codegen)
        if missing:
            raise TargetError(f"backend '{backend.name}' is not available in this TVM build: {missing}")
        mismatch = codegen.launch_mismatch(mod, backend.codegen)
        if mismatch:  # the spec pairs a codegen with a pipeline that does not prepare the module for it
            raise TileLangError(f"backend '{backend.name}': codegen '{backend.codegen}' does not fit its pipeline "
                                f"'{backend.pipeline}' ({backend.spec}): {mismatch}")
        try:
            rt_mod, source = codegen.build_tvm(mod, backend.codegen, target, pipeline=backend.tvm_pipeline,
                                       extern_math=backend.extern_math)
        except TileLangError:
            raise
        except Exception as exc:  # TVM raises generic errors; keep its reason, name what failed
            reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
            raise TileLangError(f"backend '{backend.name}' could not generate code for kernel '{entry}': "
                                f"{reason}") from exc
        return (None if backend.runs_on == "never" else rt_mod), source

    def runner(self, artifact: CompiledArtifact, execution_backend: str) -> CompiledArtifact:
        return artifact  # one runner: TVM's runtime module

    def compute_units(self, backend: Backend, device: str) -> int:
        """A CUDA backend: the device's SM count (libcudart; a TileLangError without one). Any other TVM backend:
        the host's cores (llvm and c kernels run on the CPU; a backend that cannot run here has no better answer)."""
        if backend.runs_on == "cuda":
            from ..carver.arch import driver  # the CUDA runtime's attributes (a lazy import: carver imports engine)

            return driver.cuda_num_sms(int(device or 0))
        return os.cpu_count() or 1

    def run(self, backend: Backend, artifact: CompiledArtifact, values: list[Any]) -> None:
        device = DEVICES[backend.runs_on](0) if backend.runs_on in DEVICES else None
        codegen.run_packed(artifact.rt_mod, artifact.entry_name, values, device)

    def save(self, artifact: CompiledArtifact, directory: str | Path) -> Path | None:
        return None  # the kernel source is all there is (get_kernel_source())

    def report(self, artifact: CompiledArtifact) -> dict[str, Any]:
        return {}

    def profile(self, kernel: Kernel, inputs: Sequence[Any], warmup: int, rep: int) -> tuple[float, str]:
        """The compiled function timed on tvm tensors made once (no per-call copies in the timing)."""
        artifact = kernel.artifact
        if artifact.rt_mod is None or not hasattr(artifact.rt_mod, "__getitem__"):
            raise TileLangError(f"backend '{artifact.target}' cannot run kernel '{artifact.entry_name}' here")
        outputs, values, supplied = kernel.output_positions, [], iter(inputs)
        for i, p in enumerate(kernel.params):
            value = np.zeros(p.shape, p.numpy_dtype()) if i in outputs else next(supplied)
            values.append(tvm.runtime.tensor(np.ascontiguousarray(value)) if isinstance(value, np.ndarray) else value)
        function = artifact.rt_mod[artifact.entry_name]
        return do_bench(lambda: function(*values), warmup, rep), MEASURED


RUNTIME = TVMRuntime()
