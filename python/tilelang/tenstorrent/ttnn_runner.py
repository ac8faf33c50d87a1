"""A compiled Tenstorrent kernel run on a device through its run_ttnn.py (`execution_backend="ttnn"`): the script
ttnn_host.py renders, loaded and run in place of the emulator."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TileLangError
from .metalium import MetaliumProgram
from .records import PLAN, REPORT, TENSOR
from .ttnn_host import SCRIPT, load_script, unsupported


@dataclass
class TTNNProgram(MetaliumProgram):
    """A compiled kernel that runs on a Tenstorrent device through its run_ttnn.py (ttnn.generic_op)."""

    device_id: int = 0
    script: Any = None
    folder: Any = field(default=None, repr=False)  # the TemporaryDirectory holding the artifacts the script runs

    def run(self, arrays: Sequence[Any], workdir: str | Path | None = None,
            timeout: float | None = None) -> dict[str, Any]:
        """Run on the device: inputs read from `arrays` (parameter order), outputs written back into them.
        `workdir` and `timeout` are the emulator's (MetaliumProgram.run); a device run takes neither."""
        inputs = {t[TENSOR.NAME]: arrays[t[TENSOR.PARAMETER]] for t in self.plan[PLAN.TENSORS]
                  if t[TENSOR.ROLE] == "input" and TENSOR.CONSTANT not in t}  # constants are filled by the script
        outputs = self.script.run(inputs, self.device_id)
        for t in self.plan[PLAN.TENSORS]:
            if t[TENSOR.ROLE] == "output":
                target = arrays[t[TENSOR.PARAMETER]]
                target[...] = np.asarray(outputs[t[TENSOR.NAME]]).reshape(target.shape).astype(target.dtype)
        # a hardware run has no emulator counters: only the status of the report record, and where it ran
        self.last_report = {REPORT.STATUS: "ok", REPORT.EXECUTION_BACKEND: "ttnn"}
        return self.last_report


def ttnn_program(program: MetaliumProgram, kernel: str, device_id: int = 0) -> TTNNProgram:
    """`program` made to run through ttnn on device `device_id`; a TileLangError saying what is missing otherwise."""
    where = f"kernel '{kernel}': execution_backend='ttnn'"
    if SCRIPT not in program.files:
        raise TileLangError(f"{where}: {unsupported(program.plan)}")
    folder = tempfile.TemporaryDirectory(prefix="tt_ttnn_")
    runner = TTNNProgram(program.plan, program.files, program.params, device_id=device_id, folder=folder)
    path = runner.save(folder.name) / SCRIPT
    runner.script = load_script(path)
    try:
        runner.script.require_device(runner.script.import_ttnn(), device_id)
    except runner.script.Unavailable as exc:
        raise TileLangError(f"{where}: {exc}") from None
    return runner
