"""`tilelang.jit`: compile TileLang kernels and call them on numpy arrays."""

from __future__ import annotations

from .decorator import jit
from .kernel import JITKernel, KernelFactory, LazyJITKernel, compile

__all__ = ["JITKernel", "KernelFactory", "LazyJITKernel", "compile", "jit"]
