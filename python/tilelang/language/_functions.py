"""The T.* functions of the frontend engine that are not tile operations (specs/language: `functions`).

Their signatures and documentation are stated in the language spec; the generated `tilelang.language` calls them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from tvm import tirx
from tvm.script import tirx as _T
from tvm.tirx import is_buffer_var

from .. import layout as _layout
from ..engine.registry import BACKENDS
from ..errors import TileLangError
from . import _eager, _factory_scope, _persistent
from ._frontend import alloc, normalize_dtype, tensor, thread_bindings
from ._macro import macro  # noqa: F401  (T.macro, rendered from the spec)


def alloc_var(dtype: Any, init: Any = None, scope: Any = "local.var") -> Any:
    """A 0-d local buffer; TVMScript turns the name it is assigned to into a mutable scalar variable."""
    var = _T.alloc_scalar(normalize_dtype(dtype), scope="local")
    if init is not None:
        value = init if hasattr(init, "ty") else tirx.const(init, normalize_dtype(dtype))
        _T.buffer_store(var.source, value, list(var.indices))
    return var


def _as_expr(value: Any, dtype: str) -> Any:
    if hasattr(value, "ty"):
        return value if str(value.ty.dtype) == dtype else _T.cast(value, dtype)
    return tirx.const(value, dtype)


REDUCER_OPS = ("sum", "max", "min")
REDUCER_REPLICATIONS = (None, "all", "none")


def alloc_reducer(shape: Any, dtype: Any = "float32", op: Any = "sum", replication: Any = None) -> Any:
    if op not in REDUCER_OPS:
        raise TileLangError(f"T.alloc_reducer: op must be one of {', '.join(REDUCER_OPS)}, got {op!r}")
    if replication not in REDUCER_REPLICATIONS:
        raise TileLangError(f"T.alloc_reducer: replication must be None, 'all' or 'none', got {replication!r}")
    return alloc(shape, dtype, "local.fragment")


def finalize_reducer(reducer: Any) -> None:
    if not is_buffer_var(reducer) or str(reducer.ty.storage_scope) != "local.fragment":
        raise TileLangError(f"T.finalize_reducer: expects a T.alloc_reducer buffer, got {reducer!r}")


def get_thread_binding(dim: Any = 0) -> Any:
    if not isinstance(dim, (int, np.integer)) or not 0 <= int(dim) <= 2:
        raise TileLangError(f"T.get_thread_binding(dim): dim must be 0, 1 or 2 (threadIdx.x, y, z), got {dim!r}")
    return thread_bindings("T.get_thread_binding")[int(dim)]


def get_thread_bindings() -> Any:
    return list(thread_bindings("T.get_thread_bindings"))


def clamp(dst: Any, min_val: Any, max_val: Any) -> Any:
    if not hasattr(dst, "ty"):
        raise TileLangError(f"T.clamp: dst must be a scalar expression, got {dst!r}")
    dtype = str(dst.ty.dtype)
    return tirx.min(tirx.max(dst, _as_expr(min_val, dtype)), _as_expr(max_val, dtype))


def dtype(value: Any) -> str:
    return normalize_dtype(value)


def dynamic(name: Any, dtype: Any = "int32") -> Any:
    """In an eager kernel a dynamic dimension is bound, like T.const, from the shapes of the tensors each call passes
    (the kernel is compiled per distinct shape and cached); elsewhere (a symbolic prim_func) it is refused."""
    if _eager.current() is not None and isinstance(name, str) and name.strip().isidentifier():
        return _eager.declare_consts(name.strip(), normalize_dtype(dtype))
    factory = _factory_scope.current()
    if factory is not None:
        return _factory_scope.declare_dynamic(factory, name, normalize_dtype(dtype))
    raise TileLangError(f"T.dynamic({name!r}): dynamic shapes are not supported by the backends of this project "
                        "outside an eager @tilelang.jit function or a @tilelang.jit kernel factory (where each "
                        "call's shapes bind it); give the dimension a static value (a Python int, or T.const bound "
                        "at compile time)")


def Persistent(domain: Any, wave_size: Any, index: Any, group_size: Any = 8) -> Any:  # noqa: N802
    return _persistent.persistent(domain, wave_size, index, group_size)


def reshape(src: Any, shape: Any) -> Any:
    if not is_buffer_var(src):
        raise TileLangError(f"T.reshape: src must be a buffer, got {src!r}")
    old = [int(d) for d in src.ty.shape]
    new = [int(d) for d in (shape if isinstance(shape, (list, tuple)) else [shape])]
    if int(np.prod(old)) != int(np.prod(new)):
        raise TileLangError(f"T.reshape: buffer '{src.name}' of shape {old} ({int(np.prod(old))} elements) cannot be "
                            f"viewed as shape {new} ({int(np.prod(new))} elements)")
    return tensor(new, str(src.ty.dtype), src.data)


def const(names: Any, dtype: Any = "int32") -> Any:
    return _eager.declare_consts(names, normalize_dtype(dtype))


def empty(shape: Any, dtype: Any = "float32") -> Any:
    return _eager.declare_output(shape, normalize_dtype(dtype))


def Serial(start: Any, stop: Any = None, *args: Any, **kwargs: Any) -> Any:  # noqa: N802
    return _T.serial(start, stop, *args, **kwargs)


def SharedBuffer(shape: Any, dtype: Any = "float32") -> Any:  # noqa: N802
    return tensor(shape, dtype)


FragmentBuffer = LocalBuffer = SharedBuffer


def Layout(shape: Any, forward_fn: Any) -> Any:  # noqa: N802
    return _layout.Layout(shape, forward_fn)


def Fragment(shape: Any, forward_fn: Any = None, forward_thread_fn: Any = None, replicate: Any = 1,  # noqa: N802
             forward_index_fn: Any = None) -> Any:
    return _layout.Fragment(shape, forward_fn, forward_thread_fn, replicate, forward_index_fn)


class TensorAnnotation:
    """`T.Tensor(shape, dtype)` / `T.Tensor[shape, dtype]`: a kernel parameter's annotation (see `tensor`)."""

    def __init__(self, default_dtype: str) -> None:
        self.default_dtype = default_dtype

    def __call__(self, shape: object, dtype: object = None, data: object = None, **ignored: object) -> Any:
        return tensor(shape, self.default_dtype if dtype is None else dtype, data)

    def __getitem__(self, key: object) -> Any:
        if isinstance(key, tuple) and len(key) == 2 and not isinstance(key[1], (int, np.integer)):
            return self(key[0], key[1])
        return self(key)


class UnsupportedName(TileLangError, AttributeError):
    """A T.* name TileLang has that this project does not provide (an AttributeError too, for hasattr)."""


def unsupported(name: str) -> UnsupportedName:
    return UnsupportedName(f"T.{name} is not supported by this project's backends ({', '.join(sorted(BACKENDS))}); "
                           "the supported T.* names are listed in generated/docs/language.md")
