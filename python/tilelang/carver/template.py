"""`tilelang.carver.template`: kernel templates the carver's roller tunes. The template's problem (shapes, dtypes)
and its equivalent TileLang function are real; the roller's recommendations are not implemented here."""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import TileLangError
from .arch import GpuArch


class MatmulTemplate:
    """C[M, N] = A[M, K] @ B[N, K]^T in `in_dtype`, accumulated in `accum_dtype`, stored as `out_dtype`."""

    def __init__(self, M: int, N: int, K: int, in_dtype: Any = "float16", out_dtype: Any = "float16",  # noqa: N803
                 accum_dtype: Any = "float16", with_bias: bool = False) -> None:
        self.M, self.N, self.K = M, N, K
        self.in_dtype, self.out_dtype, self.accum_dtype = in_dtype, out_dtype, accum_dtype
        self.with_bias = with_bias
        self.arch: GpuArch | None = None

    def with_arch(self, arch: GpuArch) -> MatmulTemplate:
        self.arch = arch
        return self

    def equivalent_function(self) -> Any:
        """The template's computation as a T.prim_func (one block per 32x32 output tile)."""
        T: Any = importlib.import_module("tilelang.language")  # noqa: N806 (the kernel's `T.` spelling)

        m, n, k, block = self.M, self.N, self.K, 32
        in_dtype, out_dtype, accum = self.in_dtype, self.out_dtype, self.accum_dtype

        @T.prim_func  # type: ignore[untyped-decorator]
        def matmul(A: T.Tensor((m, k), in_dtype), B: T.Tensor((n, k), in_dtype),  # type: ignore[valid-type]
                   C: T.Tensor((m, n), out_dtype)) -> None:  # type: ignore[valid-type]
            with T.Kernel(T.ceildiv(n, block), T.ceildiv(m, block)) as (bx, by):
                a = T.alloc_shared((block, block), in_dtype)
                b = T.alloc_shared((block, block), in_dtype)
                c = T.alloc_fragment((block, block), accum)
                T.clear(c)
                for ko in T.Pipelined(T.ceildiv(k, block)):
                    T.copy(A[by * block, ko * block], a)
                    T.copy(B[bx * block, ko * block], b)
                    T.gemm(a, b, c, transpose_B=True)
                T.copy(c, C[by * block, bx * block])

        return matmul

    def recommend_hints(self, topk: int = 10) -> list[Any]:
        raise TileLangError("tilelang.carver.template.MatmulTemplate.recommend_hints: the carver's roller is not "
                            "implemented by this project; give the block sizes yourself (TileLang's examples list "
                            "them when with_roller is False) or tune them with tilelang.autotune")
