"""TileLang-compatible package: hand-written runtime plus the modules rendered from this project's specs.

`import tilelang` registers every `tt.*` intrinsic as a TVM op, exposes the `T.tt.*` script namespace and
the backend interface: `lower`, `compile`, `jit`, `CompiledArtifact`, `KernelParam`.
"""

from __future__ import annotations

from ._layout import merged_path

__path__ = merged_path(__path__, __name__)

import tvm  # noqa: E402  (TileLang re-exports it: `from tilelang import tvm as tvm` in its tests and examples)

from . import language  # noqa: E402, F401  (registers the intrinsic ops and their T.* script namespaces)
from .autotuner import autotune  # noqa: E402
from .engine.backend import TargetError  # noqa: E402
from .engine.lower import lower  # noqa: E402
from .engine.param import CompiledArtifact, KernelParam  # noqa: E402
from .errors import TileLangError  # noqa: E402
from .jit import JITKernel, compile, jit  # noqa: E402
from .math import cdiv, next_power_of_2  # noqa: E402
from .pass_config_key import PassConfigKey  # noqa: E402
from .profiler import TensorSupplyType  # noqa: E402

__version__ = "0.1.0"

__all__ = ["CompiledArtifact", "JITKernel", "KernelParam", "PassConfigKey", "TargetError", "TensorSupplyType",
           "TileLangError", "autotune", "cdiv", "compile", "jit", "lower", "next_power_of_2", "tvm"]
