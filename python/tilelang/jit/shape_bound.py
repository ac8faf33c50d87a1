"""A kernel factory's kernel whose tensor shapes carry `T.dynamic` names (TileLang's symbolic dimensions).

Calling it binds each name from the shapes of the tensors the call passes, then builds the factory's prim_func
again with those values and compiles it (cached per binding): the kernel each backend compiles has static shapes,
as an eager kernel's do. Outputs (`out_idx`) are allocated at the bound shapes; a name that only an output's shape
carries cannot be bound and is refused by name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tvm import tirx
from tvm.tirx import is_buffer_var

from ..errors import TileLangError
from .once import OnceCache
from .tensors import tensor_shape

Compile = Callable[[dict[str, int]], Any]


def _output_positions(out_idx: Any, count: int) -> set[int]:
    if out_idx is None:
        return set()
    requested = [out_idx] if isinstance(out_idx, int) else list(out_idx)
    return {int(i) % count for i in requested if isinstance(i, int) and -count <= i < count}


class ShapeBoundKernel:
    """`factory(...)` of a factory that declares `T.dynamic` names: `kernel(*tensors)` binds and runs."""

    def __init__(self, name: str, func: Any, dynamic: dict[str, Any], out_idx: Any, build: Compile) -> None:
        self.name, self.func, self.dynamic, self.out_idx = name, func, dynamic, out_idx
        self._build = build
        self.cache: OnceCache[Any] = OnceCache()  # each binding compiled once

    def _inputs(self) -> list[tuple[str, Any]]:
        outputs = _output_positions(self.out_idx, len(self.func.params))
        return [(str(p.name), list(p.ty.shape) if is_buffer_var(p) else None)
                for i, p in enumerate(self.func.params) if i not in outputs]

    def bind(self, *args: Any) -> dict[str, int]:
        """The value of each T.dynamic name, from the shapes of the tensors `args` (the non-output parameters)."""
        inputs = self._inputs()
        if len(args) != len(inputs):
            raise TileLangError(f"kernel '{self.name}' expects {len(inputs)} arguments "
                                f"({', '.join(n for n, _ in inputs)}), got {len(args)}")
        bound: dict[str, int] = {}
        for (name, dims), value in zip(inputs, args, strict=True):
            if dims is None:
                continue
            shape = tuple(tensor_shape(value))
            if len(shape) != len(dims):
                raise TileLangError(f"kernel '{self.name}': parameter '{name}' must be {len(dims)}-D, got "
                                    f"shape {shape}")
            for dim, actual in zip(dims, shape, strict=True):
                if isinstance(dim, tirx.Var) and dim.name in self.dynamic:
                    if bound.setdefault(dim.name, int(actual)) != int(actual):
                        raise TileLangError(f"kernel '{self.name}': T.dynamic '{dim.name}' is {bound[dim.name]} "
                                            f"from an earlier tensor but '{name}' has shape {shape}")
        missing = [n for n in self.dynamic if n not in bound]
        if missing:
            raise TileLangError(f"kernel '{self.name}': T.dynamic {', '.join(map(repr, missing))} is not a dimension "
                                "of any tensor the call passes, so no call binds it (only an output's shape or an "
                                "expression carries it); make it a factory argument")
        return bound

    def kernel_for(self, *args: Any) -> Any:
        """The compiled JITKernel that a call with these tensors runs."""
        bound = self.bind(*args)
        return self.cache.get(tuple(sorted(bound.items())), lambda: self._build(bound))

    def __call__(self, *args: Any) -> Any:
        return self.kernel_for(*args)(*args)

    def get_tir(self) -> Any:
        """The prim_func with the T.dynamic names free (as the factory returned it before any call)."""
        return self.func

    def __repr__(self) -> str:
        return f"ShapeBoundKernel({self.name}, dynamic={sorted(self.dynamic)}, out_idx={self.out_idx!r})"
