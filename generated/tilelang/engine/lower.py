# Copied unchanged from templates/runtime/tilelang/engine/lower.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/engine/lower.py and run `make generate`.
"""`tilelang.lower`: dispatch to the backend the target names (see tilelang/engine/registry.py)."""

from __future__ import annotations

from typing import Any

from .backend import resolve
from .param import CompiledArtifact
from .pass_config import implementation
from .registry import BACKENDS


def lower(func_or_mod: Any, target: Any = "llvm", target_host: Any = None, *, runtime_only: bool = False,
          enable_host_codegen: bool = True, enable_device_compile: bool = True,
          pass_impl: str | None = None) -> CompiledArtifact:
    """Lower a TileLang kernel for `target` (a registered name or a tvm Target) and generate its code.

    `pass_impl` runs the pipelines with the Python passes ("python") or their C++ rendering ("cpp"); by default
    $TILELANG_PASS_IMPL, else "python"."""
    backend = resolve(target, BACKENDS)
    module = backend.load()
    with implementation(pass_impl):
        result: CompiledArtifact = module.lower(
            func_or_mod, target=target if not isinstance(target, str) else backend.name, target_host=target_host,
            runtime_only=runtime_only, enable_host_codegen=enable_host_codegen,
            enable_device_compile=enable_device_compile)
    return result
