"""`tilelang.testing`: the helpers TileLang's tests use, on numpy (torch tensors are accepted through DLPack)."""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np

from ._requires import (
    requires_cdna,
    requires_cuda,
    requires_cuda_compute_version,
    requires_cuda_compute_version_eq,
    requires_cuda_compute_version_ge,
    requires_cuda_compute_version_gt,
    requires_cuda_compute_version_le,
    requires_cuda_compute_version_lt,
    requires_cuda_or_cdna,
    requires_gfx950,
    requires_llvm,
    requires_metal,
    requires_metal4,
    requires_package,
    requires_rocm,
)


def _numpy(x: Any) -> np.ndarray:
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "detach"):  # torch
        x = x.detach().cpu()
        return np.asarray(x.float().numpy() if str(x.dtype) == "torch.bfloat16" else x.numpy())
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _float(x: Any) -> np.ndarray:
    a = _numpy(x)
    return a.astype(np.float64) if a.dtype.kind in "fciub" or a.dtype.name == "bfloat16" else a


def assert_close_ratio(actual: Any, expected: Any, atol: float = 1e-2, rtol: float = 1e-2,
                       max_mismatched_ratio: float = 0.0) -> None:
    """Like numpy's assert_allclose, tolerating up to `max_mismatched_ratio` of mismatched elements."""
    a, e = _float(actual), _float(expected)
    if a.shape != e.shape:
        raise AssertionError(f"shape mismatch: {a.shape} vs {e.shape}")
    bad = ~np.isclose(a, e, atol=atol, rtol=rtol, equal_nan=True)
    ratio = float(bad.mean()) if bad.size else 0.0
    if ratio > max_mismatched_ratio:
        worst = float(np.max(np.abs(a - e)[bad])) if bad.any() else 0.0
        raise AssertionError(f"{int(bad.sum())} of {bad.size} elements ({ratio:.2%}) differ by more than "
                             f"atol={atol} + rtol={rtol}*|expected| (allowed {max_mismatched_ratio:.2%}); "
                             f"largest difference {worst:g}")


def torch_assert_close(actual: Any, expected: Any, rtol: float = 1e-2, atol: float = 1e-2,
                       max_mismatched_ratio: float = 0.001, **ignored: Any) -> None:
    """TileLang's `torch_assert_close`, on numpy arrays or DLPack tensors."""
    assert_close_ratio(actual, expected, atol=atol, rtol=rtol, max_mismatched_ratio=max_mismatched_ratio)


def set_random_seed(seed: int = 42) -> None:
    """Seed Python's, numpy's and (when installed) torch's generators."""
    random.seed(seed)
    np.random.seed(seed)  # noqa: NPY002  (TileLang's tests draw from the global generator)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.manual_seed(seed)


def main() -> None:
    """Run the calling module's tests with pytest (TileLang's `tilelang.testing.main()`)."""
    import pytest  # a development dependency (the `dev` extra): only this entry point runs it

    module = sys.modules.get("__main__")
    path = getattr(module, "__file__", None)
    sys.exit(pytest.main([path] if path else []))


__all__ = ["assert_close_ratio", "main", "requires_cdna", "requires_cuda", "requires_cuda_compute_version",
           "requires_cuda_compute_version_eq", "requires_cuda_compute_version_ge", "requires_cuda_compute_version_gt",
           "requires_cuda_compute_version_le", "requires_cuda_compute_version_lt", "requires_cuda_or_cdna",
           "requires_gfx950", "requires_llvm", "requires_metal", "requires_metal4", "requires_package", "requires_rocm",
           "set_random_seed", "torch_assert_close"]
