# Copied unchanged from templates/runtime/tilelang/__init__.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/__init__.py and run `make generate`.
"""TileLang-compatible package generated from this project's specs.

`import tilelang` registers every `tt.*` intrinsic as a TVM op, exposes the `T.tt.*` script namespace and
the backend interface: `lower`, `compile`, `jit`, `CompiledArtifact`, `KernelParam`.
"""

from __future__ import annotations

from . import _ops
from .engine.backend import TargetError
from .engine.lower import lower
from .engine.param import CompiledArtifact, KernelParam
from .jit import JITKernel, compile, jit
from .language import tt as _tt_namespace
from .language._frontend import TileLangError
from .tenstorrent.intrinsics import INTRINSICS as _TT_INTRINSICS

__version__ = "0.1.0"

_ops.register_intrinsics(_TT_INTRINSICS)
_ops.register_script_namespace("tt", _tt_namespace)

__all__ = ["CompiledArtifact", "JITKernel", "KernelParam", "TargetError", "TileLangError", "compile", "jit", "lower"]
