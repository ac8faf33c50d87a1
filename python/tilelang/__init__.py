"""TileLang-compatible package: hand-written runtime plus the modules rendered from this project's specs.

`import tilelang` registers every `tt.*` intrinsic as a TVM op, exposes the `T.tt.*` script namespace and
the backend interface: `lower`, `compile`, `jit`, `CompiledArtifact`, `KernelParam`.
"""

from __future__ import annotations

from ._layout import merged_path

__path__ = merged_path(__path__, __name__)

import tvm  # noqa: E402  (TileLang re-exports it: `from tilelang import tvm as tvm` in its tests and examples)

from . import _ops  # noqa: E402
from .autotuner import autotune  # noqa: E402
from .engine.backend import TargetError  # noqa: E402
from .engine.lower import lower  # noqa: E402
from .engine.param import CompiledArtifact, KernelParam  # noqa: E402
from .errors import TileLangError  # noqa: E402
from .jit import JITKernel, compile, jit  # noqa: E402
from .language import tt as _tt_namespace  # noqa: E402
from .math import cdiv, next_power_of_2  # noqa: E402
from .pass_config_key import PassConfigKey  # noqa: E402
from .profiler import TensorSupplyType  # noqa: E402
from .tenstorrent.intrinsics import INTRINSICS as _TT_INTRINSICS  # noqa: E402

__version__ = "0.1.0"

_ops.register_intrinsics(_TT_INTRINSICS)
_ops.register_script_namespace("tt", _tt_namespace)

__all__ = ["CompiledArtifact", "JITKernel", "KernelParam", "PassConfigKey", "TargetError", "TensorSupplyType",
           "TileLangError", "autotune", "cdiv", "compile", "jit", "lower", "next_power_of_2", "tvm"]
