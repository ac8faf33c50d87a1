"""Several T.Kernel launches in one function (flash decoding's split then combine kernel): one Metalium program per
launch, run in launch order on the same tensors.

SplitTTPrograms (src/transform/programs.cc) makes one PrimFunc per launch, each lowered on its own
(tilelang.engine.lowering.launches), so each program has its own reader/compute/writer kernels, CBs, grid, main.cpp
and tt.plan.json, written into its own directory (program0, program1, ...); each plan's `program` record names the
directories in launch order and the program's workspaces. A run runs the programs one after another on the host's
arrays: what one program writes (a tensor, or a T.alloc_global workspace the host allocates once, zero-filled) is
what the next one reads. Each program is a host program of its own (its main.cpp opens the device, uploads its
inputs, enqueues the program, reads its outputs back); one host program enqueueing them all on the same device
buffers is not done yet.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .metalium import MetaliumProgram, metalium_program, validate_plan
from .program_dirs import PLAN_FILE, directory
from .records import PLAN, PROGRAM, REPORT, Program


@dataclass
class MetaliumPrograms:
    """The programs of one function, in launch order; runnable in the emulator (or, each set up by
    ttnn_runner.ttnn_program, through ttnn) one after another."""

    programs: list[MetaliumProgram]
    params: list[Any]  # the function's parameters (KernelParam)
    workspaces: dict[str, tuple[tuple[int, ...], str]]  # T.alloc_global tensors: name -> (shape, dtype)
    last_report: dict[str, Any] = field(default_factory=dict)

    @property
    def plan(self) -> Any:
        """The first program's plan (each program's plan names them all in its `program` record)."""
        return self.programs[0].plan

    @property
    def files(self) -> dict[str, str]:
        """Every program's files, under its directory."""
        return {f"{directory(i)}/{name}": text for i, p in enumerate(self.programs) for name, text in p.files.items()}

    @property
    def source(self) -> str:
        return "".join(f"// ==== {name} ====\n{text}\n" for name, text in self.files.items())

    def save(self, out: str | Path) -> Path:
        """Each program's artifacts into its directory under `out` (plans checked against their schema)."""
        for i, program in enumerate(self.programs):
            validate_plan(program.plan)
            program.save(Path(out) / directory(i))
        return Path(out)

    def run(self, arrays: Sequence[Any], workdir: str | Path | None = None,
            timeout: float | None = None) -> dict[str, Any]:
        """Run the programs in launch order: each reads its inputs from and writes its outputs into the function's
        arrays (`arrays`, in parameter order) and the workspaces. Returns the last program's report, with every
        program's report under `programs`."""
        spaces = {name: np.zeros(shape, dtype=dtype) for name, (shape, dtype) in self.workspaces.items()}
        reports = []
        for i, program in enumerate(self.programs):
            own = program.plan[PLAN.PROGRAM][PROGRAM.WORKSPACES]
            values = [*arrays[:len(self.params)], *(spaces[name] for name in own)]
            where = None if workdir is None else Path(workdir) / directory(i)
            reports.append(program.run(values, where, timeout))
        self.last_report = {**reports[-1], REPORT.PROGRAMS: reports}
        return self.last_report

    def __call__(self, *arrays: Any) -> dict[str, Any]:
        return self.run(arrays)


def metalium_programs(parts: Sequence[tuple[Any, Sequence[Any], str]], params: Sequence[Any]) -> MetaliumPrograms:
    """The programs of the lowered launches `parts` ((device module, its parameters, its entry) in launch order), each
    plan with its `program` record."""
    programs, workspaces = [], {}
    dirs = [directory(i) for i in range(len(parts))]
    for index, (mod, part_params, entry) in enumerate(parts):
        program = metalium_program(mod, part_params, entry)
        own = [p.name for p in part_params[len(params):]]  # SplitTTPrograms appends them (its tt.workspaces)
        for p in part_params[len(params):]:
            workspaces[p.name] = (tuple(p.shape), p.dtype)
        record: Program = {PROGRAM.INDEX: index, PROGRAM.DIRECTORIES: dirs, PROGRAM.WORKSPACES: own}
        program.plan[PLAN.PROGRAM] = record
        program.files[PLAN_FILE] = json.dumps(program.plan, indent=1) + "\n"
        programs.append(program)
    return MetaliumPrograms(programs, list(params), workspaces)

