"""The Tenstorrent backend's runtime (the backend interface of tilelang.engine.interface): the project's own code
generator (Metalium artifacts, tilelang.tenstorrent.metalium), runs in the emulator or through ttnn on a device, and
the performance model's modelled time in place of a measurement."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tvm
from tvm import tirx

from ..engine.backend import Backend
from ..engine.interface import BackendRuntime, Kernel
from ..engine.param import CompiledArtifact, KernelParam
from ..errors import TileLangError
from . import attr_keys, device, trace
from .host import host_plan
from .metalium import MetaliumProgram, metalium_program
from .perf_model import estimate, estimate_kernel
from .program_dirs import directory as directory_of
from .programs import MetaliumPrograms, metalium_programs
from .records import REPORT
from .ttnn_runner import ttnn_program

MODELLED = "modelled: tilelang.tenstorrent.perf_model's time on a Wormhole n150, after one run in the emulator"


def launches(split: Any, mod: tvm.IRModule, entry: str) -> list[tuple[tvm.IRModule, str]]:
    """The programs of the kernel in launch order, each a module of its own and its entry: `split` (SplitTTPrograms,
    the backend spec's `programs`) makes one PrimFunc per T.Kernel launch; a kernel of one launch is itself."""
    funcs = [(gv.name_hint, f) for gv, f in split(mod).functions.items() if isinstance(f, tirx.PrimFunc)]
    if len(funcs) == 1:
        return [(mod, entry)]
    funcs.sort(key=lambda named: int(named[1].attrs[attr_keys.TT_PROGRAM]))
    return [(tvm.IRModule({name: func}), name) for name, func in funcs]


def split_roles(mod: tvm.IRModule) -> tuple[tvm.IRModule, Any]:
    """The pipeline already split the kernel by roles: the device module holds the role kernels, and the
    host side is their metadata (core grid, work, CBs, runtime arguments) gathered from their attributes."""
    return mod, host_plan(mod)


class TenstorrentRuntime(BackendRuntime):
    # "emulator": the project's Metalium emulator (the default); "ttnn": a device, through the kernel's run_ttnn.py.
    execution_backends: tuple[str, ...] = ("emulator", "ttnn")

    def build(self, backend: Backend, mod: Any, target: Any, params: Sequence[KernelParam],
              entry: str) -> tuple[Any, str]:
        program: MetaliumProgram | MetaliumPrograms  # a list: one lowered module per T.Kernel launch
        if isinstance(mod, list):
            program = metalium_programs(mod, list(params))
        else:
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
            program = artifact.rt_mod
            if isinstance(program, MetaliumPrograms):  # each program through its run_ttnn.py, in launch order
                program.programs = [ttnn_program(p, artifact.entry_name) for p in program.programs]
                return artifact
            if not isinstance(program, MetaliumProgram):
                raise TileLangError(f"kernel '{artifact.entry_name}': execution_backend='ttnn' cannot run it: it "
                                    "has no Metalium program to run")
            artifact.rt_mod = ttnn_program(program, artifact.entry_name)
        return artifact

    def run(self, backend: Backend, artifact: CompiledArtifact, values: list[Any]) -> None:
        artifact.rt_mod(*values)

    def save(self, artifact: CompiledArtifact, directory: str | Path) -> Path | None:
        """reader/compute/writer.cpp, main.cpp, CMakeLists.txt, tt.plan.json, and run_ttnn.py where ttnn can run
        the kernel; after a run in the emulator also tt.trace.json, the performance model's timeline of that run
        (tilelang.tenstorrent.trace)."""
        program = artifact.rt_mod
        if isinstance(program, MetaliumPrograms):
            out = program.save(directory)
            for i, part in enumerate(program.programs):
                if part.last_report.get(REPORT.CORES):
                    trace.write(out / directory_of(i), part.plan, part.last_report)
            return out
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
        program = kernel.artifact.rt_mod
        if isinstance(program, MetaliumPrograms):  # the programs run one after another: their times add up
            seconds = sum(estimate(p.plan, p.last_report).modelled_seconds for p in program.programs)
            return float(seconds * 1e3), MODELLED
        return float(estimate_kernel(kernel).modelled_seconds * 1e3), MODELLED


RUNTIME = TenstorrentRuntime()
