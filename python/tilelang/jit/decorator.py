"""`@tilelang.jit`: a prim_func, a kernel factory or an eager function made into what compiles and calls it."""

from __future__ import annotations

from typing import Any

from tvm import tirx

from ..errors import TileLangError
from .eager import EagerFunction, is_eager
from .kernel import KernelFactory, LazyJITKernel, OutIdx


def jit(
    func: Any = None, *, out_idx: OutIdx = None, target: Any = "auto", target_host: Any = None,
    pass_configs: Any = None, execution_backend: str = "auto", **ignored: Any
) -> Any:
    """`@jit` / `@jit(out_idx=[-1], target="llvm")`.

    On a kernel factory (`def matmul(M, N, K, ...): return prim_func`) calling the result returns the compiled
    `JITKernel`, cached per (args, sorted kwargs). On a prim_func it returns a `LazyJITKernel` (compiled on first use).
    On an eager function (a `with T.Kernel` block in its body, `T.const`/`T.empty` declarations) it returns an
    `EagerFunction` (tilelang.jit.eager): call it on tensors, or `.compile(M=..., ...)`.
    """

    def wrap(f: Any) -> Any:
        if isinstance(f, tirx.PrimFunc):
            return LazyJITKernel(f, out_idx, target, target_host, pass_configs, execution_backend)
        if callable(f):
            if is_eager(f):
                return EagerFunction(f, target, target_host, pass_configs, execution_backend)
            return KernelFactory(f, out_idx, target, target_host, pass_configs, execution_backend)
        raise TileLangError(f"@jit applies to a prim_func or a function returning one, got {type(f).__name__}")

    return wrap(func) if func is not None else wrap
