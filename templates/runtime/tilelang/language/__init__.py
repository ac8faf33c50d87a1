"""`import tilelang.language as T`: the TileLang kernel language.

A thin facade: the facts (names, scopes, defaults) are the assignments below; the work is done in `_frontend`.
`T.tt` is the generated namespace of Tenstorrent intrinsics (tilelang/language/tt.py).
"""

from __future__ import annotations

from typing import Any

from tvm.script import tirx as _tirx

from . import _frontend, tt
from ._frontend import TileLangError, normalize_dtype

# ------------------------------------------------------------------------------------------------------ facts
DEFAULT_DTYPE = "float32"
DEFAULT_THREADS = 128
SHARED_SCOPE = "shared"  # T.alloc_shared
FRAGMENT_SCOPE = "local.fragment"  # T.alloc_fragment (accepted by tvm 0.27 through llvm, c and cuda codegen)
LOCAL_SCOPE = "local"  # T.alloc_local

# ------------------------------------------------------------------------------ tirx names used unchanged
macro = _tirx.macro
ceildiv = _tirx.ceildiv
max = _tirx.max  # noqa: A001
min = _tirx.min  # noqa: A001
exp = _tirx.exp
exp2 = _tirx.exp2
log = _tirx.log
log2 = _tirx.log2
sqrt = _tirx.sqrt
rsqrt = _tirx.rsqrt
abs = _tirx.abs  # noqa: A001
if_then_else = _tirx.if_then_else
serial = _tirx.serial
unroll = _tirx.unroll
vectorized = _tirx.vectorized
grid = _tirx.grid
float16 = _tirx.float16
bfloat16 = _tirx.bfloat16
float32 = _tirx.float32
int32 = _tirx.int32
int64 = _tirx.int64

# ------------------------------------------------------------------------------------------------ kernels
prim_func = _frontend.prim_func


def Kernel(*grid: Any, threads: Any = DEFAULT_THREADS, **ignored: Any) -> _frontend.Kernel:  # noqa: N802
    return _frontend.Kernel(*grid, threads=threads, **ignored)


def Tensor(shape: Any, dtype: Any = DEFAULT_DTYPE) -> Any:  # noqa: N802
    return _frontend.tensor(shape, dtype)


Buffer = Tensor


def alloc_shared(shape: Any, dtype: Any = DEFAULT_DTYPE, scope: str = SHARED_SCOPE) -> Any:
    return _frontend.alloc(shape, dtype, scope)


def alloc_fragment(shape: Any, dtype: Any = DEFAULT_DTYPE, scope: str = FRAGMENT_SCOPE) -> Any:
    return _frontend.alloc(shape, dtype, scope)


def alloc_local(shape: Any, dtype: Any = DEFAULT_DTYPE, scope: str = LOCAL_SCOPE) -> Any:
    return _frontend.alloc(shape, dtype, scope)


def Pipelined(start: Any, stop: Any = None, num_stages: int = 0, **ignored: Any) -> Any:  # noqa: N802
    return _frontend.pipelined(start, num_stages, stop=stop, **ignored)


def Parallel(*extents: Any, **ignored: Any) -> Any:  # noqa: N802
    return _frontend.parallel(*extents, **ignored)


# ---------------------------------------------------------------------------------------------- tile ops
def copy(src: Any, dst: Any, **ignored: Any) -> Any:
    return _frontend.build_copy(src, dst)


def gemm(A: Any, B: Any, C: Any, transpose_A: Any = False, transpose_B: Any = False,  # noqa: N803
         clear_accum: Any = False, **ignored: Any) -> Any:
    return _frontend.build_gemm(A, B, C, transpose_A, transpose_B, clear_accum)


def fill(buffer: Any, value: Any) -> Any:
    return _frontend.build_fill(buffer, value)


def clear(buffer: Any) -> Any:
    return _frontend.build_fill(buffer, 0)


# ------------------------------------------------------------------------------ dtype-taking expressions
def cast(value: Any, dtype: Any) -> Any:
    return _tirx.cast(value, normalize_dtype(dtype))


def infinity(dtype: Any) -> Any:
    return _tirx.infinity(normalize_dtype(dtype))


def max_value(dtype: Any) -> Any:
    return _tirx.max_value(normalize_dtype(dtype))


def min_value(dtype: Any) -> Any:
    return _tirx.min_value(normalize_dtype(dtype))


__all__ = [
    "DEFAULT_DTYPE", "DEFAULT_THREADS", "FRAGMENT_SCOPE", "LOCAL_SCOPE", "SHARED_SCOPE",
    "Buffer", "Kernel", "Parallel", "Pipelined", "Tensor", "TileLangError",
    "abs", "alloc_fragment", "alloc_local", "alloc_shared", "bfloat16", "cast", "ceildiv", "clear", "copy",
    "exp", "exp2", "fill", "float16", "float32", "gemm", "grid", "if_then_else", "infinity", "int32", "int64",
    "log", "log2", "macro", "max", "max_value", "min", "min_value", "normalize_dtype", "prim_func", "rsqrt",
    "serial", "sqrt", "tt", "unroll", "vectorized",
]  # fmt: skip
