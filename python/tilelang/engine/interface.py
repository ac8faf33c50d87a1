"""The runtime backend interface: what a backend implements beyond its pass pipelines.

Each backend spec names the module whose `RUNTIME` implements it (`runtime:` in specs/backends/*.yaml, rendered into
the registry; `Backend.load_runtime()`); the backend-neutral modules (`engine`, `jit`, `profiler`, `autotuner`) reach
a backend only through it:

* lower: `tilelang.engine.<backend>.lower` (generated from the backend's specs: legalize, optimize, then the
  runtime module's `split_<split>` and `build` below);
* build: code generation of the lowered device module;
* run: one call of a compiled kernel on arrays (`execution_backend` picks among the backend's own runners);
* save: the backend's artifact files;
* report: what the last run reported (counters);
* profile: milliseconds per run of a compiled kernel, and whether measured or modelled;
* compute_units: how many blocks run at once (what `driver.get_num_sms()` answers off a GPU).

TVM's code generators share one implementation (tilelang.engine.tvm_runtime); Tenstorrent has its own
(tilelang.tenstorrent.runtime).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from .backend import Backend
from .param import CompiledArtifact, KernelParam


class Kernel(Protocol):
    """What `profile` reads of a compiled kernel (tilelang.jit.JITKernel)."""

    @property
    def artifact(self) -> CompiledArtifact: ...

    @property
    def params(self) -> list[KernelParam]: ...

    @property
    def output_positions(self) -> list[int]: ...  # the parameters the kernel allocates and returns (out_idx)

    def __call__(self, *args: Any) -> Any: ...


class BackendRuntime(Protocol):
    """The runtime half of a backend (see the module docstring)."""

    # The backend's own runners a user may name as `execution_backend` ("auto" runs the default one).
    execution_backends: tuple[str, ...]

    def build(self, backend: Backend, mod: Any, target: Any, params: Sequence[KernelParam],
              entry: str) -> tuple[Any, str]:
        """Code generation: (the runnable program, or None where kernels cannot run here; the kernel source)."""
        ...

    def runner(self, artifact: CompiledArtifact, execution_backend: str) -> CompiledArtifact:
        """`artifact` set up to run on `execution_backend` ("auto" or one of `execution_backends`); a
        TileLangError saying what is missing when it cannot."""
        ...

    def run(self, backend: Backend, artifact: CompiledArtifact, values: list[Any]) -> None:
        """One call of the kernel: `values` in parameter order (numpy arrays, scalars); outputs written back."""
        ...

    def save(self, artifact: CompiledArtifact, directory: str | Path) -> Path | None:
        """Write the artifact files into `directory` and return it; None when the backend has none."""
        ...

    def report(self, artifact: CompiledArtifact) -> dict[str, Any]:
        """What the last run of the kernel reported (status, counters); {} where runs report nothing."""
        ...

    def profile(self, kernel: Kernel, inputs: Sequence[Any], warmup: int, rep: int) -> tuple[float, str]:
        """Milliseconds per run of `kernel` on `inputs`, and how they were obtained (measured or modelled)."""
        ...

    def compute_units(self, backend: Backend, device: str) -> int:
        """How many blocks of a grid run at once on the target (`device`: the one a target names, "" for the
        default): a GPU's SM count, a Tenstorrent device's worker cores, the host's cores for the CPU backends.
        `tilelang.carver.arch.driver.get_num_sms()` answers with it, so a persistent kernel sizes its waves."""
        ...


def runtime_of(backend: Backend) -> BackendRuntime:
    """The backend's runtime (its spec's `runtime` module)."""
    runtime: BackendRuntime = backend.load_runtime()
    return runtime
