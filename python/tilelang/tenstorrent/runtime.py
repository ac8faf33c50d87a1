"""The Tenstorrent backend's runtime (the backend interface of tilelang.engine.interface): the project's own code
generator (Metalium artifacts, tilelang.tenstorrent.metalium), runs in the emulator or through ttnn on a device, and
the performance model's modelled time in place of a measurement."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tvm

from ..engine.backend import Backend
from ..engine.interface import BackendRuntime, Kernel
from ..engine.param import CompiledArtifact, KernelParam
from ..errors import TileLangError
from . import device, trace
from .host import host_plan
from .metalium import MetaliumProgram, metalium_program
from .perf_model import estimate_kernel
from .records import REPORT
from .ttnn_runner import ttnn_program

MODELLED = "modelled: tilelang.tenstorrent.perf_model's time on a Wormhole n150, after one run in the emulator"


def split_roles(mod: tvm.IRModule) -> tuple[tvm.IRModule, Any]:
    """The pipeline already split the kernel by roles: the device module holds the role kernels, and the
    host side is their metadata (core grid, work, CBs, runtime arguments) gathered from their attributes."""
    return mod, host_plan(mod)


class TenstorrentRuntime(BackendRuntime):
    # "emulator": the project's Metalium emulator (the default); "ttnn": a device, through the kernel's run_ttnn.py.
    execution_backends: tuple[str, ...] = ("emulator", "ttnn")

    def build(self, backend: Backend, mod: Any, target: Any, params: Sequence[KernelParam],
              entry: str) -> tuple[Any, str]:
        program = metalium_program(mod, list(params), entry)
        return (None if backend.runs_on == "never" else program), program.source

    def compute_units(self, backend: Backend, device_name: str) -> int:
        """The worker cores of the device record's core grid (the grid PartitionTTWork spreads blocks over)."""
        gx, gy = device.DEVICES[device_name or device.DEVICE].core_grid
        return int(gx * gy)

    def runner(self, artifact: CompiledArtifact, execution_backend: str) -> CompiledArtifact:
        """execution_backend="ttnn": the kernel runs on a device through its run_ttnn.py, or a TileLangError says
        what is missing (never the emulator instead)."""
        if execution_backend == "ttnn":
            if not isinstance(artifact.rt_mod, MetaliumProgram):
                raise TileLangError(f"kernel '{artifact.entry_name}': execution_backend='ttnn' cannot run it: it "
                                    "has no Metalium program to run")
            artifact.rt_mod = ttnn_program(artifact.rt_mod, artifact.entry_name)
        return artifact

    def run(self, backend: Backend, artifact: CompiledArtifact, values: list[Any]) -> None:
        artifact.rt_mod(*values)

    def save(self, artifact: CompiledArtifact, directory: str | Path) -> Path | None:
        """reader/compute/writer.cpp, main.cpp, CMakeLists.txt, tt.plan.json, and run_ttnn.py where ttnn can run
        the kernel; after a run in the emulator also tt.trace.json, the performance model's timeline of that run
        (tilelang.tenstorrent.trace)."""
        program = artifact.rt_mod
        if not isinstance(program, MetaliumProgram):
            return None
        out = program.save(directory)
        if program.last_report.get(REPORT.CORES):
            trace.write(out, program.plan, program.last_report)
        return out

    def report(self, artifact: CompiledArtifact) -> dict[str, Any]:
        return dict(getattr(artifact.rt_mod, "last_report", {}) or {})

    def profile(self, kernel: Kernel, inputs: Sequence[Any], warmup: int, rep: int) -> tuple[float, str]:
        """One run in the emulator, then the performance model's time of that run (not a measurement)."""
        kernel(*inputs)
        return float(estimate_kernel(kernel).modelled_seconds * 1e3), MODELLED


RUNTIME = TenstorrentRuntime()
