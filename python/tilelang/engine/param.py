"""What `tilelang.lower` returns (the backend interface contract)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class KernelParam:
    """One kernel parameter: a tensor (shape + dtype) or a scalar (shape ())."""

    name: str
    dtype: str
    shape: tuple[int, ...]

    @property
    def is_tensor(self) -> bool:
        return bool(self.shape)

    def numpy_dtype(self) -> np.dtype[Any]:
        import ml_dtypes  # bfloat16 and other ML dtypes numpy lacks

        return np.dtype(getattr(ml_dtypes, self.dtype)) if self.dtype == "bfloat16" else np.dtype(self.dtype)

    def __str__(self) -> str:
        return f"{self.name}: {self.dtype}{list(self.shape)}"


@dataclass
class CompiledArtifact:
    """The result of lowering one kernel for one backend."""

    host_mod: Any  # tvm.IRModule of host-side functions (or None)
    device_mod: Any  # tvm.IRModule of device-side functions
    params: list[KernelParam]
    kernel_source: str  # the text the backend produced (C, CUDA, Metalium ...)
    rt_mod: Any = None  # an executable runtime module when the backend can run here
    extras: dict[str, Any] = field(default_factory=dict)  # backend-specific artifacts (files, plans)
    entry_name: str = "main"  # the function to call in rt_mod
    target: str = ""  # the target kind the artifact was built for ("llvm", "c", "cuda", ...)
