"""Callbacks on generated device source (upstream's tilelang.engine.callback): a function `(code, target) -> code`
registered here runs on every CUDA source this package generates, after the package's own header inlining
(tilelang.engine.codegen.cuda_postproc). TileLang's examples import the decorator to patch kernel source."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

from ..errors import TileLangError

PostProc = Callable[[str, Any], str]

_REGISTERED: dict[str, PostProc] = {}  # codegen ("cuda") -> the user's post-processing function


def register_cuda_postproc(func: PostProc, override: bool = True) -> None:
    """Run `func(code, target)` on each generated CUDA source; a second registration replaces the first only with
    `override` (upstream's TVM global function rule)."""
    if "cuda" in _REGISTERED and not override:
        raise TileLangError("a CUDA post-processing callback is already registered (pass override=True to replace "
                            f"it): {_REGISTERED['cuda']!r}")
    _REGISTERED["cuda"] = func


@overload
def register_cuda_postproc_callback(func: PostProc, override: bool = True) -> PostProc: ...


@overload
def register_cuda_postproc_callback(func: bool | None = None,
                                    override: bool = True) -> Callable[[PostProc], PostProc]: ...


def register_cuda_postproc_callback(func: PostProc | bool | None = None,
                                    override: bool = True) -> PostProc | Callable[[PostProc], PostProc]:
    """Decorator form, with or without parentheses: `@register_cuda_postproc_callback`,
    `@register_cuda_postproc_callback()`, `@register_cuda_postproc_callback(override=False)` (a bool first argument
    is the override flag)."""
    if callable(func):
        register_cuda_postproc(func, override)
        return func
    flag = func if isinstance(func, bool) else override

    def register(fn: PostProc) -> PostProc:
        register_cuda_postproc(fn, flag)
        return fn

    return register


def unregister_cuda_postproc() -> None:
    """Generated CUDA source is left as the package makes it again."""
    _REGISTERED.pop("cuda", None)


def apply_postproc(codegen: str, code: str, target: Any) -> str:
    """`code` after the callback registered for `codegen`, if any; a callback must return the source text."""
    func = _REGISTERED.get(codegen)
    if func is None:
        return code
    out = func(code, target)
    if not isinstance(out, str):
        raise TileLangError(f"the {codegen} post-processing callback {func!r} returned {type(out).__name__}, "
                            "not the source text")
    return out
