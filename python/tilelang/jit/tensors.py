"""Tensors in, tensors out: numpy arrays and any DLPack tensor (torch CPU tensors, tvm tensors, ...).

A kernel's arguments are handed to TVM without a copy (`tvm.runtime.from_dlpack`; numpy arrays are copied in and
back, as before). Outputs the kernel allocates come back as the kind of tensor the caller passed: numpy arrays for
numpy (or no) inputs, else the first DLPack input's library's `from_dlpack` of the result.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import tvm

from ..language._frontend import normalize_dtype


def is_dlpack(value: Any) -> bool:
    return not isinstance(value, np.ndarray) and hasattr(value, "__dlpack__") and hasattr(value, "shape")


def is_tensor(value: Any) -> bool:
    return isinstance(value, np.ndarray) or is_dlpack(value)


def tensor_shape(value: Any) -> tuple[int, ...]:
    return tuple(int(s) for s in value.shape)


def tensor_dtype(value: Any) -> str:
    """The canonical dtype of a numpy array or a DLPack tensor (torch.float16 -> float16)."""
    dtype = value.dtype
    if isinstance(dtype, np.dtype):
        return normalize_dtype(dtype)
    name = str(dtype)
    return normalize_dtype(name.split(".", 1)[1] if name.startswith("torch.") else name)


def to_tvm(value: Any) -> Any:
    """A DLPack tensor as a tvm tensor sharing its memory (the kernel's writes land in the caller's tensor)."""
    return tvm.runtime.from_dlpack(value)


def output_kind(inputs: Sequence[Any]) -> Any:
    """The library whose tensors the caller passed (None: numpy)."""
    for value in inputs:
        if is_dlpack(value):
            return importlib.import_module(type(value).__module__.split(".", 1)[0])
    return None


def as_kind(array: np.ndarray, kind: Any) -> Any:
    """An output array as the caller's kind of tensor."""
    if kind is None:
        return array
    tensor = tvm.runtime.tensor(array)
    from_dlpack = getattr(kind, "from_dlpack", None)
    return tensor if from_dlpack is None or kind is tvm else from_dlpack(tensor)
