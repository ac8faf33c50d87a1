# Copied unchanged from templates/runtime/tilelang/jit/__init__.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/jit/__init__.py and run `make generate`.
"""`tilelang.jit`: compile TileLang kernels and call them on numpy arrays."""

from __future__ import annotations

from .kernel import JITKernel, KernelFactory, LazyJITKernel, compile, jit

__all__ = ["JITKernel", "KernelFactory", "LazyJITKernel", "compile", "jit"]
