"""`kernel.get_profiler()`: inputs to run a compiled kernel on, `assert_allclose` against a reference, `do_bench`.

On the CPU backends `do_bench` measures: the kernel runs on tvm tensors made once, timed with `time.perf_counter`.
On Tenstorrent it runs the kernel once in the Metalium emulator and returns the performance model's modelled time on
a Wormhole n150 (tilelang.tenstorrent.perf_model), not a measurement; `Profiler.last_bench` says which it was.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import TileLangError
from ..testing import assert_close_ratio

MEASURED = "measured: wall time of the compiled kernel on this CPU"


class TensorSupplyType(enum.Enum):
    """How the profiler fills input tensors (TileLang's names)."""

    Integer = 1
    Uniform = 2
    Normal = 3
    Randn = 4
    Zero = 5
    One = 6
    Auto = 7


def supply(shape: Sequence[int], dtype: np.dtype[Any], kind: TensorSupplyType,
           rng: np.random.Generator) -> np.ndarray[Any, np.dtype[Any]]:
    """One input array of `shape` and `dtype` filled as `kind` says (Auto: integers for int dtypes, else normal)."""
    is_int = np.issubdtype(dtype, np.integer) or dtype == np.bool_
    if kind == TensorSupplyType.Auto:
        kind = TensorSupplyType.Integer if is_int else TensorSupplyType.Normal
    values: np.ndarray[Any, np.dtype[Any]]
    if kind == TensorSupplyType.Zero:
        values = np.zeros(shape)
    elif kind == TensorSupplyType.One:
        values = np.ones(shape)
    elif kind == TensorSupplyType.Integer:
        values = rng.integers(-2, 3, shape) if not is_int or np.issubdtype(dtype, np.signedinteger) else \
            rng.integers(0, 3, shape)
    elif kind == TensorSupplyType.Uniform:
        values = rng.uniform(-1.0, 1.0, shape)
    else:
        values = rng.standard_normal(shape)
    return np.asarray(values).astype(dtype)


class Profiler:
    def __init__(self, kernel: Any, supply_type: TensorSupplyType = TensorSupplyType.Auto, seed: int = 0) -> None:
        self.kernel = kernel
        self.supply_type = supply_type
        self.rng = np.random.default_rng(seed)
        self.last_bench = ""

    def inputs(self) -> list[Any]:
        """Arrays for the parameters the caller passes (all of them without out_idx)."""
        outputs = self.kernel.output_positions
        return [supply(p.shape, p.numpy_dtype(), self.supply_type, self.rng)
                for i, p in enumerate(self.kernel.params) if i not in outputs]

    def run_once(self, func: Callable[..., Any] | None = None) -> Any:
        return (func or self.kernel)(*self.inputs())

    def assert_allclose(self, reference_program: Callable[..., Any], input_tensors: Sequence[Any] | None = None,
                        atol: float = 1e-2, rtol: float = 1e-2, max_mismatched_ratio: float = 0.01) -> None:
        """Run the kernel and `reference_program` on the same inputs; at most `max_mismatched_ratio` of the elements
        of each output may differ by more than atol + rtol * |reference|."""
        inputs = list(input_tensors) if input_tensors is not None else self.inputs()
        outs = self.kernel(*[np.array(a, copy=True) for a in inputs])
        refs = reference_program(*inputs)
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        refs = refs if isinstance(refs, (list, tuple)) else [refs]
        if len(outs) != len(refs):
            raise TileLangError(f"kernel '{self.kernel.name}' returns {len(outs)} outputs, the reference {len(refs)}")
        for out, ref in zip(outs, refs, strict=True):
            assert_close_ratio(out, ref, atol=atol, rtol=rtol, max_mismatched_ratio=max_mismatched_ratio)

    def do_bench(self, func: Callable[..., Any] | None = None, warmup: int = 25, rep: int = 100,
                 input_tensors: Sequence[Any] | None = None, **ignored: Any) -> float:
        """Milliseconds per run: `func` timed on the inputs, else the kernel's backend runtime's `profile` (measured
        on TVM's backends, modelled on Tenstorrent); `last_bench` says which."""
        inputs = list(input_tensors) if input_tensors is not None else self.inputs()
        if func is None:
            latency, self.last_bench = self.kernel.runtime.profile(self.kernel, inputs, warmup, rep)
            return float(latency)
        self.last_bench = MEASURED
        return do_bench(lambda: func(*inputs), warmup, rep)


def do_bench(fn: Callable[[], Any], warmup: int = 25, rep: int = 100, **ignored: Any) -> float:
    """Milliseconds per call of `fn` on this CPU (TileLang's `tilelang.profiler.do_bench`)."""
    for _ in range(max(warmup, 1)):
        fn()
    start = time.perf_counter()
    for _ in range(max(rep, 1)):
        fn()
    return (time.perf_counter() - start) * 1e3 / max(rep, 1)


__all__ = ["MEASURED", "Profiler", "TensorSupplyType", "do_bench", "supply"]
