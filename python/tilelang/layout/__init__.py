"""`tilelang.layout`: the memory layouts TileLang's kernels annotate buffers with (`T.annotate_layout({buf: layout})`).

A layout says where each element of a buffer is stored, never which element an index names: a kernel reads and
writes its buffers by their logical indices whatever the layout. TileLang uses layouts to place shared-memory tiles
without bank conflicts (`make_swizzled_layout`), to lay register fragments over a warp's threads (`Fragment`), and to
reorder a global accumulator (`T.Layout`, example_mha_bwd's dQ). The backends here store every buffer in its logical
(row-major) order, on chip and in DRAM, so `T.annotate_layout` accepts these objects and the kernel's results are
those of the logical order: a swizzle only permutes storage inside a tile nobody else sees, and a reordered global
tensor is read and written in the same (logical) order by every kernel of this project.

`Layout` is computed for real (its index expressions, output shape, mapping of indices, repeat); what needs a GPU
thread model (which thread holds which fragment element) is a TileLangError naming the function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import tvm_ffi
from tvm import sym, tirx
from tvm.ir import Range
from tvm.tirx import is_buffer_var

from ..errors import TileLangError

__all__ = ["Fragment", "Layout", "make_full_bank_swizzled_layout", "make_gemm_fragment_8x8",
           "make_gemm_fragment_8x8_transposed", "make_half_bank_swizzled_layout", "make_linear_layout",
           "make_quarter_bank_swizzled_layout", "make_swizzled_layout", "make_wgmma_swizzled_layout"]


def _ints(shape: Sequence[Any], what: str) -> list[int]:
    dims = []
    for d in shape:
        value = d.value if isinstance(d, tirx.IntImm) else d
        if not isinstance(value, int) or value < 1:
            raise TileLangError(f"{what}: each dimension must be a positive constant, got shape {list(shape)}")
        dims.append(value)
    return dims


class Layout:
    """`T.Layout(shape, forward_fn)`: element (i0, i1, ...) of a buffer of `shape` is stored at
    `forward_fn(i0, i1, ...)` (one index expression or a list of them) in a storage of `get_output_shape()`."""

    def __init__(self, shape: Sequence[Any], forward_fn: Callable[..., Any]) -> None:
        self.input_shape = _ints(shape, "T.Layout")
        self.forward_vars = [tirx.Var(f"i{k}", "int32") for k in range(len(self.input_shape))]
        index = forward_fn(*self.forward_vars)
        self.index: list[Any] = list(index) if isinstance(index, (list, tuple)) else [index]
        if not self.index:
            raise TileLangError("T.Layout: forward_fn returned no index")

    def get_input_shape(self) -> list[int]:
        return list(self.input_shape)

    def get_forward_vars(self) -> list[Any]:
        return list(self.forward_vars)

    def get_forward_index(self) -> list[Any]:
        return list(self.index)

    def get_output_shape(self) -> list[int]:
        """The extent of each output index over the input shape (its largest value + 1)."""
        analyzer = sym.Analyzer()
        for var, extent in zip(self.forward_vars, self.input_shape, strict=True):
            analyzer.bind(var, Range.from_min_extent(0, extent))
        return [int(analyzer.const_int_bound(tirx.IntImm("int32", 0) + e).max_value) + 1 for e in self.index]

    def map_forward_index(self, indices: Sequence[Any]) -> list[Any]:
        """Where the element at `indices` is stored (the index expressions with the input variables replaced)."""
        if len(indices) != len(self.forward_vars):
            raise TileLangError(f"T.Layout of {len(self.forward_vars)}-D shape {self.input_shape} mapped with "
                                f"{len(indices)} indices")
        values = [tirx.IntImm("int32", i) if isinstance(i, int) else i for i in indices]

        def replace(var: Any) -> Any:
            return next((v for f, v in zip(self.forward_vars, values, strict=True) if f.same_as(var)), var)

        analyzer = sym.Analyzer()
        return [analyzer.simplify(tvm_ffi.structural_map(e, (tirx.Var, replace), order="post")) for e in self.index]

    def __call__(self, *indices: Any) -> list[Any]:
        return self.map_forward_index(list(indices))

    def repeat(self, dim: int, factor: int) -> Layout:
        """The layout tiled `factor` times along input dim `dim`: a new leading output index counts the copies."""
        ndim = len(self.input_shape)
        if not isinstance(factor, int) or factor < 1 or not -ndim <= dim < ndim:
            raise TileLangError(f"Layout.repeat(dim={dim}, factor={factor}) of a {ndim}-D layout")
        dim %= ndim
        extent = self.input_shape[dim]
        shape = [e * factor if k == dim else e for k, e in enumerate(self.input_shape)]

        def forward(*idx: Any) -> list[Any]:
            inner = [i % extent if k == dim else i for k, i in enumerate(idx)]
            return [idx[dim] // extent, *self.map_forward_index(inner)]

        return Layout(shape, forward) if factor > 1 else self

    def is_equal(self, other: Layout) -> bool:
        """The same input shape and the same place for every element."""
        if self.input_shape != other.input_shape:
            return False
        mapped = other.map_forward_index(self.forward_vars)
        return len(mapped) == len(self.index) and all(
            sym.Analyzer().can_prove_equal(a, b) for a, b in zip(self.index, mapped, strict=True))

    def inverse(self) -> Layout:
        raise TileLangError("tilelang.layout.Layout.inverse is not supported: no pass here inverts a layout (the "
                            "backends store buffers in their logical order)")

    def __repr__(self) -> str:
        return f"Layout({self.input_shape} -> {self.index})"


def _buffer_shape(buffer: Any, what: str) -> list[int]:
    source = buffer if is_buffer_var(buffer) else getattr(buffer, "source", None)
    if source is None or not is_buffer_var(source):
        raise TileLangError(f"tilelang.layout.{what} takes a buffer, got {type(buffer).__name__}")
    return _ints(list(source.ty.shape), f"tilelang.layout.{what}")


def make_linear_layout(buffer: Any) -> Layout:
    """The row-major (identity) layout of `buffer`: what every buffer here has."""
    shape = _buffer_shape(buffer, "make_linear_layout")
    return Layout(shape, lambda *idx: list(idx))


class SwizzledLayout(Layout):
    """A shared-memory swizzle TileLang applies on GPUs (`mode`: which one). The swizzle permutes where a tile's
    elements sit in shared memory, invisible to the kernel's results; the backends here store the tile unswizzled,
    so the layout they apply is the identity, and that is what this object's indices say."""

    def __init__(self, buffer: Any, mode: str) -> None:
        super().__init__(_buffer_shape(buffer, f"make_{mode}_layout"), lambda *idx: list(idx))
        self.mode = mode


def make_swizzled_layout(buffer: Any, k_major: bool = True, allow_pad: bool = True) -> Layout:
    return SwizzledLayout(buffer, "swizzled")


def make_wgmma_swizzled_layout(buffer: Any, *args: Any, **kwargs: Any) -> Layout:
    return SwizzledLayout(buffer, "wgmma_swizzled")


def make_full_bank_swizzled_layout(buffer: Any) -> Layout:
    return SwizzledLayout(buffer, "full_bank_swizzled")


def make_half_bank_swizzled_layout(buffer: Any) -> Layout:
    return SwizzledLayout(buffer, "half_bank_swizzled")


def make_quarter_bank_swizzled_layout(buffer: Any) -> Layout:
    return SwizzledLayout(buffer, "quarter_bank_swizzled")


def _no_thread_model(what: str) -> TileLangError:
    return TileLangError(f"{what} is not supported: it lays a register fragment over a GPU warp's threads, and the "
                         "backends here keep a fragment as the block's whole tile (no thread owns part of it)")


class Fragment(Layout):
    """`T.Fragment`: which thread of a block holds which element of a register fragment. The backends here keep a
    fragment as the block's whole tile, so a fragment layout cannot be honoured: constructing one is an error."""

    def __init__(self, shape: Sequence[Any], forward_fn: Any = None, forward_thread_fn: Any = None,
                 replicate: int = 1, forward_index_fn: Any = None) -> None:
        raise _no_thread_model("T.Fragment")


def make_gemm_fragment_8x8() -> Fragment:
    raise _no_thread_model("tilelang.layout.make_gemm_fragment_8x8")


def make_gemm_fragment_8x8_transposed() -> Fragment:
    raise _no_thread_model("tilelang.layout.make_gemm_fragment_8x8_transposed")
