"""`tilelang.utils.tensor`: TileLang's tensor supply for kernel parameters (the examples' `get_tensor_supply`).

`get_tensor_supply(kind)` returns a function of a kernel parameter (anything with `shape` and `dtype`, e.g. a
`KernelParam` of `kernel.params`) that makes a numpy array filled as `kind` says, the same arrays the profiler
supplies (`tilelang.profiler.supply`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..engine.param import KernelParam
from ..errors import TileLangError
from ..profiler import TensorSupplyType, supply
from ..testing import torch_assert_close

__all__ = ["TensorSupplyType", "get_tensor_supply", "torch_assert_close"]


def get_tensor_supply(supply_type: TensorSupplyType = TensorSupplyType.Integer,
                      seed: int = 0) -> Callable[[Any], np.ndarray]:
    rng = np.random.default_rng(seed)

    def get_tensor(param: Any) -> np.ndarray:
        shape = tuple(getattr(param, "shape", ()) or ())
        if not shape or not all(isinstance(s, int) or hasattr(s, "__index__") for s in shape):
            raise TileLangError(f"tensor supply: parameter {getattr(param, 'name', param)!r} needs a static shape, "
                                f"got {shape!r}")
        dims = tuple(int(s) for s in shape)
        return supply(dims, KernelParam("", str(param.dtype), dims).numpy_dtype(), supply_type, rng)

    return get_tensor
