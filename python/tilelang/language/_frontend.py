"""The hand-written engine behind `import tilelang.language as T`.

TileLang kernels are ordinary TVMScript (`tvm.script.tirx`) functions: the tirx parser resolves `T.xxx` through the
kernel's globals, so the facade (`tilelang/language/__init__.py`) only exposes thin wrappers around the functions
here, which drive the tirx IRBuilder. Tile operations become `tirx.TilePrimitiveCall` statements
(`T.tile.copy/fill/gemm`, destination first); `tilelang.engine.cpu_lowering` turns them into loops.

Every user mistake detected here raises `TileLangError`. Raised while a kernel is parsed, it reaches the user through
`prim_func` as a `TileLangError` whose message also carries the source location.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from tvm import tirx
from tvm.error import DiagnosticError
from tvm.ir import TensorLoad, TensorRegion
from tvm.script import tirx as _T
from tvm.script.ir_builder import IRBuilder
from tvm.tirx import is_buffer_var

from ..errors import TileLangError
from . import _eager
from ._operands import (
    _check_in_bounds,
    _const,
    _element_region,
    _extents,
    _fmt,
    _full_region,
    _is_region_like,
    _kind_error,
    _name,
)
from ._scalars import known_extents
from .dtypes import DTYPE_ALIASES, SUPPORTED_DTYPES

_tirx_boolean = _T.bool  # T.bool: the one dtype tirx spells as a cast function

# --------------------------------------------------------------------------------------------------------- dtypes

# The dtype tables are facts of specs/language/*.yaml (generated into dtypes.py).


def normalize_dtype(dtype: object) -> str:
    """TileLang dtype spelling -> canonical TVM dtype string.

    Accepts strings (with the TileLang aliases `float`, `half`, `bf16`, `fp16`, `fp32`, `int`, `double`),
    `T.float16`-style dtype constructors, `tvm.DataType`, numpy dtypes and scalar types (incl. ml_dtypes.bfloat16).
    Raises `TileLangError` naming the dtype and the supported ones.
    """
    name: str | None
    if isinstance(dtype, str):
        name = dtype
    elif isinstance(getattr(dtype, "_dtype_str", None), str):  # T.float16 & co (tirx DtypeConstructor)
        name = dtype._dtype_str  # type: ignore[attr-defined]
    elif dtype is _tirx_boolean:  # T.bool is tirx's cast function `boolean`, not a DtypeConstructor
        name = "bool"
    elif isinstance(dtype, (np.dtype, type)):
        try:
            name = np.dtype(dtype).name
        except TypeError:
            name = None
    else:
        name = str(dtype)  # tvm.DataType, PrimType ...
    canonical = DTYPE_ALIASES.get(name, name) if name is not None else None
    if canonical not in SUPPORTED_DTYPES:
        raise TileLangError(f"unknown dtype {dtype!r}; supported dtypes: {', '.join(SUPPORTED_DTYPES)} "
                            f"(aliases: {', '.join(f'{k}={v}' for k, v in DTYPE_ALIASES.items())})")
    return str(canonical)


# ---------------------------------------------------------------------------------------------- parsing kernels


def _tilelang_cause(err: BaseException) -> TileLangError | None:
    seen: set[int] = set()
    cur: BaseException | None = err
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, TileLangError):
            return cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return None


_annotation_errors = threading.local()  # errors raised by `tensor` while a kernel's signature is parsed


def prim_func(func: Callable[..., Any] | None = None, **options: Any) -> Any:
    """`@T.prim_func` / `@T.prim_func(private=True)`: parse a kernel with the tirx TVMScript parser.

    A `TileLangError` raised while parsing is re-raised as a `TileLangError` carrying the parser's message with the
    source location (the parser itself would turn it into a `tvm.error.DiagnosticError`).
    """

    def parse(fn: Callable[..., Any]) -> Any:
        with _script_fixes.light_parser_stack():
            return parse_guarded(lambda: _T.prim_func(fn, **options), fn.__name__)

    if func is not None:
        return parse(func)
    parse.dispatch_token = "tirx"  # type: ignore[attr-defined]  # the parser dispatches on the decorator's token
    return parse


prim_func.dispatch_token = "tirx"  # type: ignore[attr-defined]


def parse_guarded(parse: Callable[[], Any], name: str) -> Any:
    """Run a TVMScript parse; a `TileLangError` raised inside it comes out as a `TileLangError` carrying the
    parser's message with the source location (the parser would turn it into a `tvm.error.DiagnosticError`)."""
    _annotation_errors.errors = []
    try:
        return parse()
    except DiagnosticError as err:
        cause = _tilelang_cause(err)
        if cause is not None:
            raise TileLangError(str(err).strip()) from cause
        pending = getattr(_annotation_errors, "errors", [])
        if pending:  # with postponed annotations the parser swallows the error and fails later on the string
            raise TileLangError(f"in a parameter annotation of '{name}': {pending[-1]}") from pending[-1]
        raise
    finally:
        _annotation_errors.errors = []


# ---------------------------------------------------------------------------------------------- buffers


def _shape_tuple(shape: object) -> tuple[Any, ...]:
    if isinstance(shape, (list, tuple)):
        return tuple(shape)
    if isinstance(shape, (int, np.integer)) or hasattr(shape, "ty"):  # an int or a PrimExpr
        return (shape,)
    raise TileLangError(f"a shape must be an int, an expression or a tuple of them; got {shape!r}")


def tensor(shape: object, dtype: object = "float32", data: object = None) -> Any:
    """`T.Tensor(shape, dtype)`: the annotation of a global (kernel parameter) buffer (in an eager function's
    prelude, its description); with `data` (`T.Tensor(shape, dtype, A.data)`), a view of A's storage."""
    try:
        if data is not None:
            return _T.decl_buffer(_shape_tuple(shape), normalize_dtype(dtype), data=data)
        spec = _eager.tensor_annotation(_shape_tuple(shape), normalize_dtype(dtype))
        return spec if spec is not None else _T.Buffer(_shape_tuple(shape), normalize_dtype(dtype))
    except TileLangError as err:
        getattr(_annotation_errors, "errors", []).append(err)
        raise


def alloc(shape: object, dtype: object, scope: str) -> Any:
    """Allocate a buffer in `scope` ("shared", "local.fragment", "local") inside a kernel."""
    return _T.alloc_buffer(_shape_tuple(shape), normalize_dtype(dtype), scope=scope)


# ---------------------------------------------------------------------------------------------- kernel and loops

THREADS_ATTR = "tl.threads"  # function attribute recording `T.Kernel(..., threads=...)`
BLOCK_TAGS = ("blockIdx.x", "blockIdx.y", "blockIdx.z")


class Kernel:
    """`with T.Kernel(gx[, gy[, gz]], threads=128) as (bx, by):` -- a grid of thread blocks.

    Each grid dimension becomes `T.launch_thread("blockIdx.{x,y,z}", extent)`. The block variable is returned alone
    for a 1-D grid, as a tuple otherwise. `threads` (an int or a list of up to 3 ints) is recorded as the function
    attribute `tl.threads`; no threadIdx is launched: tile operations are block-collective, the body is per block.
    Other TileLang keywords (`prelude`, `is_cpu`, ...) are accepted and ignored.
    """

    _open: list[Kernel] = []  # the T.Kernel frames being parsed, innermost last (T.get_thread_binding reads it)

    def __init__(self, *grid: object, threads: int | Sequence[int] = 128, **ignored: object) -> None:
        if not 1 <= len(grid) <= 3:
            raise TileLangError(f"T.Kernel takes 1 to 3 grid extents, got {len(grid)}")
        self.grid = grid
        self.threads = threads
        self._stack = contextlib.ExitStack()
        self._thread_vars: list[Any] | None = None

    def __enter__(self) -> Any:
        threads: int | list[int] = (
            [int(t) for t in self.threads] if isinstance(self.threads, (list, tuple)) else int(self.threads)  # type: ignore[arg-type]
        )
        _record_threads(threads)
        tags = BLOCK_TAGS[: len(self.grid)]
        block_vars = [self._stack.enter_context(_T.launch_thread(t, e)) for t, e in zip(tags, self.grid, strict=True)]
        self._frames = len(IRBuilder.current().frames)
        Kernel._open.append(self)
        return block_vars[0] if len(block_vars) == 1 else tuple(block_vars)

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        if Kernel._open and Kernel._open[-1] is self:
            Kernel._open.pop()
        return bool(self._stack.__exit__(exc_type, exc, tb))

    def thread_extents(self) -> list[int]:
        """blockDim (x, y, z) as TileLang normalises `threads` (an int is x; missing dims are 1)."""
        t: list[Any] = list(self.threads) if isinstance(self.threads, (list, tuple)) else [self.threads]
        extents = [int(e) for e in t] + [1] * (3 - len(t))
        if len(extents) != 3 or min(extents) < 1:
            raise TileLangError(f"T.Kernel: threads must be a positive int or up to 3 positive ints, "
                                f"got {self.threads!r}")
        return extents

    def thread_vars(self, what: str) -> list[Any]:
        """threadIdx.x/y/z of this block: launched (`T.launch_thread`) at the first T.get_thread_binding, around the
        rest of the kernel body; a dim of extent 1 is the constant 0. The block's body is then per thread, as in
        TileLang; backends without threads run it as loops over the thread indices (pass SerializeThreads)."""
        if self._thread_vars is None:
            if len(IRBuilder.current().frames) != self._frames:
                raise TileLangError(f"{what} must be called directly in the T.Kernel body (not inside a loop, a branch "
                                    "or another scope), so that the rest of the body runs on the block's threads")
            self._thread_vars = []
            for tag, extent in zip(("threadIdx.x", "threadIdx.y", "threadIdx.z"), self.thread_extents(), strict=True):
                launched = extent > 1 or tag == "threadIdx.x"
                self._thread_vars.append(self._stack.enter_context(_T.launch_thread(tag, extent)) if launched
                                         else tirx.const(0, "int32"))
        return self._thread_vars


def _record_threads(threads: int | list[int]) -> None:
    """`tl.threads` of the function: the first launch's. Several T.Kernel launches in one function run one after
    another, each as a kernel of its own (TileLang launches them in order); BindCudaThreads binds threads only in a
    function that is one launch, so the later launches' `threads` need no attribute."""
    attrs = getattr(IRBuilder.current().frames[0], "attrs", None)
    if attrs is None or THREADS_ATTR not in attrs:
        _T.func_attr({THREADS_ATTR: threads})


def thread_bindings(what: str) -> list[Any]:
    """The current T.Kernel's threadIdx.x/y/z (launched at the first call)."""
    if not Kernel._open:
        raise TileLangError(f"{what} is only valid inside a T.Kernel body")
    return Kernel._open[-1].thread_vars(what)


def pipelined(extent: object, num_stages: int = 0, *, stop: object = None, **ignored: object) -> Any:
    """`for k in T.Pipelined(n, num_stages=s)`: a serial loop annotated `{"num_stages": s}` (when s > 0).

    `pipelined(a, stop=b)` loops over range(a, b) (TileLang's `T.Pipelined(start, stop)`). `order`, `stage`, `sync`
    and `group` are accepted and ignored.
    """
    annotations = {"num_stages": int(num_stages)} if num_stages else None
    return _T.serial(extent, stop, annotations=annotations)


def parallel(*extents: object, **ignored: object) -> Any:
    """`for i, j in T.Parallel(M, N)`: an element-wise loop nest (a serial grid; `coalesced_width` ignored)."""
    if not extents:
        raise TileLangError("T.Parallel needs at least one extent")
    return _T.grid(*extents)


# ---------------------------------------------------------------------------------------------- tile operands


def _copy_region(operand: object, role: str, other: object) -> TensorRegion:
    op, allowed = "T.copy", "a buffer, a slice (A[a:b, ...]) or an element access (A[i, j])"
    if is_buffer_var(operand):
        return _full_region(operand)
    if isinstance(operand, TensorRegion):
        return known_extents(operand)  # `kv_start:kv_end` of two assigned scalars: block_N
    if isinstance(operand, TensorLoad) and is_buffer_var(operand.source):
        if not _is_region_like(other):
            raise TileLangError(f"{op}: src and dst are both element accesses; one operand must be a buffer or a "
                                "slice so that the copied shape is known")
        return _element_region(op, operand, _extents(other), _name(other))
    raise _kind_error(op, role, operand, allowed)


def _non_unit(extents: Sequence[Any]) -> list[Any]:
    return [e for e in extents if _const(e) != 1]


def build_copy(src: object, dst: object) -> Any:
    """`T.copy(src, dst)`: emit `T.tile.copy(dst_region, src_region)`.

    Operands are buffers, slices or element accesses (the start of a tile sized like the other operand). Unit dims
    are ignored when matching the two regions' shapes, so `A[bz, y, x]` -> a 2-D tile works. Two element accesses
    copy one element (a store, as TileLang lowers them).
    """
    if (isinstance(src, TensorLoad) and isinstance(dst, TensorLoad) and is_buffer_var(src.source)
            and is_buffer_var(dst.source)):
        # TileLang's copy(a[i], b[j]) of two element accesses: one element, a store `b[j] = a[i]`
        value = src if str(src.ty.dtype) == str(dst.ty.dtype) else _T.cast(src, str(dst.ty.dtype))
        return _T.buffer_store(dst.source, value, list(dst.indices))
    src_r = _copy_region(src, "src", dst)
    dst_r = _copy_region(dst, "dst", src_r)
    s_ext, d_ext = _non_unit(_extents(src_r)), _non_unit(_extents(dst_r))
    s_c, d_c = [_const(e) for e in s_ext], [_const(e) for e in d_ext]
    if None not in s_c and None not in d_c and s_c != d_c:
        raise TileLangError(f"T.copy: shapes cannot match: src {_name(src_r)} region has shape "
                            f"{_fmt(_extents(src_r))} but dst {_name(dst_r)} region has shape {_fmt(_extents(dst_r))}")
    _check_in_bounds("T.copy", src_r)
    _check_in_bounds("T.copy", dst_r)
    try:
        return _T.tile.copy(dst_r, src_r)
    except ValueError as err:  # TVM's copy: extents it cannot prove equal (`n - m` of two scalars stored twice)
        raise TileLangError(
            f"T.copy: src {_name(src_r)} region has shape {_fmt(_extents(src_r))} and dst {_name(dst_r)} region has "
            f"shape {_fmt(_extents(dst_r))}, which TVM cannot prove equal; write the slice as start:start + extent "
            f"({err})") from err


def _gemm_region(operand: object, role: str) -> TensorRegion:
    op = "T.gemm"
    if is_buffer_var(operand):
        region = _full_region(operand)
    elif isinstance(operand, TensorRegion):
        region = operand
    else:
        raise _kind_error(op, f"operand {role}", operand, "a buffer or a slice (A[a:b, c:d])")
    ext = _extents(region)
    if len(ext) < 2 or any(_const(e) != 1 for e in ext[:-2]):
        raise TileLangError(f"T.gemm: operand {role} ({_name(region)}, shape {_fmt(ext)}) must be a 2-D tile "
                            "(batched gemm is not supported)")
    _check_in_bounds(op, region)
    return region


def _as_flag(value: object, what: str) -> bool:
    if isinstance(value, (bool, int, np.bool_, np.integer)):
        return bool(value)
    const = _const(value)
    if const is None:
        raise TileLangError(f"T.gemm: {what} must be a compile-time bool, got {value!r}")
    return bool(const)


def build_gemm(A: object, B: object, C: object, transpose_A: object = False, transpose_B: object = False,  # noqa: N803
               clear_accum: object = False) -> Any:
    """`T.gemm(A, B, C)`: C += op(A) @ op(B), or C = op(A) @ op(B) with `clear_accum`.

    Emits `T.tile.gemm(C, A, B, C, transpose_A, transpose_B, 1.0, beta)` (D = alpha*A@B + beta*C, beta 0 or 1).
    A is (M, K) -- (K, M) when transposed --, B is (K, N) -- (N, K) when transposed --, C is (M, N).
    """
    ta, tb = _as_flag(transpose_A, "transpose_A"), _as_flag(transpose_B, "transpose_B")
    a, b, c = _gemm_region(A, "A"), _gemm_region(B, "B"), _gemm_region(C, "C")
    a0, a1 = _extents(a)[-2:]
    b0, b1 = _extents(b)[-2:]
    c0, c1 = _extents(c)[-2:]
    dims = {"A": (a1, a0) if ta else (a0, a1), "B": (b1, b0) if tb else (b0, b1)}
    m_a, k_a = dims["A"]
    k_b, n_b = dims["B"]

    def describe(role: str, region: TensorRegion, flag: bool | None) -> str:
        extra = f", transpose_{role}={flag}" if flag is not None else ""
        return f"{role}={_name(region)} {_fmt(_extents(region)[-2:])}{extra}"

    checks = (("M", m_a, c0, ("A", a, ta), ("C", c, None)),
              ("K", k_a, k_b, ("A", a, ta), ("B", b, tb)),
              ("N", n_b, c1, ("B", b, tb), ("C", c, None)))
    for dim, x, y, (r1, reg1, f1), (r2, reg2, f2) in checks:
        xc, yc = _const(x), _const(y)
        if xc is not None and yc is not None and xc != yc:
            raise TileLangError(f"T.gemm: {dim} mismatch: {describe(r1, reg1, f1)} gives {dim}={xc} but "
                                f"{describe(r2, reg2, f2)} gives {dim}={yc}")
    kinds = {role: str(r.source.dtype) for role, r in (("A", a), ("B", b), ("C", c))}
    if any(kinds[r].startswith(("float", "bfloat")) for r in "AB") and not kinds["C"].startswith(("float", "bfloat")):
        raise TileLangError(f"T.gemm: floating-point operands (A={_name(a)} {kinds['A']}, B={_name(b)} {kinds['B']}) "
                            f"need a floating-point accumulator, but C={_name(c)} is {kinds['C']} (each product "
                            "would be truncated to an integer); accumulate in float32 and cast the result")
    beta = 0.0 if _as_flag(clear_accum, "clear_accum") else 1.0
    return _T.tile.gemm(c, a, b, c, ta, tb, 1.0, beta)


def build_fill(buffer: object, value: object) -> Any:
    """`T.fill(buffer, value)` (`T.clear(buffer)` is `value=0`): emit `T.tile.fill(region, value)`.

    A Python number becomes a constant of the buffer's dtype; an expression of another dtype is cast.
    """
    if is_buffer_var(buffer):
        region = _full_region(buffer)
    elif isinstance(buffer, TensorRegion):
        region = buffer
    elif isinstance(buffer, TensorLoad) and is_buffer_var(buffer.source) and _const(np.prod(
            [_const(d) or 0 for d in buffer.source.ty.shape])) == 1:  # a T.alloc_var scalar reads as a load
        region = _full_region(buffer.source)
    else:
        raise _kind_error("T.fill", "the destination", buffer, "a buffer, a slice or a T.alloc_var scalar")
    _check_in_bounds("T.fill", region)
    dtype = str(region.source.dtype)
    if isinstance(value, (bool, int, float, np.number, np.bool_)):
        expr = tirx.const(value, dtype)
    elif hasattr(value, "ty") and hasattr(value.ty, "dtype"):  # a PrimExpr
        expr = value if str(value.ty.dtype) == dtype else _T.cast(value, dtype)
    else:
        raise _kind_error("T.fill", "the value", value, "a number or a scalar expression")
    return _T.tile.fill(region, expr)


from . import _script_fixes  # noqa: E402, F401  (TVMScript parser fixes, applied on import)
from ._tile_builders import build_atomic_add, build_cumsum, build_im2col, build_reduce, build_transpose  # noqa: E402, F401
