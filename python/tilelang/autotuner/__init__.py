"""`tilelang.autotune` / `tilelang.autotuner`: pick the best of a list of configs for a kernel factory.

Each config (a dict of keyword arguments) is compiled and ranked by `Profiler.do_bench`: measured wall time on the
CPU backends, the performance model's modelled time on Tenstorrent (each config runs once in the emulator for its
counters). The winner is then verified against `ref_prog` when one is given (on Tenstorrent: in the emulator); a
winner that fails verification gives way to the next best. Configs that do not compile are recorded and skipped.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import TileLangError
from ..jit.eager import EagerFunction
from ..jit.kernel import JITKernel, KernelFactory, compile
from ..jit.tensors import is_tensor, tensor_dtype, tensor_shape
from ..profiler import MEASURED, TensorSupplyType


@dataclass
class AutotuneResult:
    latency: float  # ms of the best config (see `kind`)
    config: dict[str, Any]
    kernel: Any
    kind: str  # Profiler.last_bench of the ranking: measured (CPU) or modelled (Tenstorrent)
    ref_latency: float | None = None
    trials: list[tuple[dict[str, Any], float | str]] = field(default_factory=list)  # (config, ms or error)


class AutoTuner:
    """`AutoTuner.from_kernel(kernel=factory, configs=[...]).set_compile_args(...).set_profile_args(...).run()`."""

    def __init__(self, fn: Callable[..., Any], configs: Iterable[Mapping[str, Any]]) -> None:
        self.fn = fn
        self.configs = [dict(c) for c in configs]
        self.compile_args: dict[str, Any] = {"out_idx": None, "target": "auto", "pass_configs": None}
        self.profile_args: dict[str, Any] = {"supply_type": TensorSupplyType.Auto, "ref_prog": None, "atol": 1e-2,
                                             "rtol": 1e-2, "max_mismatched_ratio": 0.01, "skip_check": False}
        self.args: tuple[Any, ...] = ()
        self.kwargs: dict[str, Any] = {}
        self.inputs = _AUTOTUNE_INPUTS[-1] if _AUTOTUNE_INPUTS else None  # set_autotune_inputs around its making

    @classmethod
    def from_kernel(cls, kernel: Callable[..., Any], configs: Iterable[Mapping[str, Any]]) -> AutoTuner:
        return cls(kernel, configs)

    def set_compile_args(self, out_idx: Any = None, target: Any = "auto", pass_configs: Any = None,
                         **ignored: Any) -> AutoTuner:
        self.compile_args.update(out_idx=out_idx, target=target, pass_configs=pass_configs)
        return self

    def set_profile_args(self, supply_type: Any = None, ref_prog: Callable[..., Any] | None = None,
                         atol: float = 1e-2, rtol: float = 1e-2, max_mismatched_ratio: float = 0.01,
                         skip_check: bool = False, **ignored: Any) -> AutoTuner:
        self.profile_args.update(supply_type=supply_type or TensorSupplyType.Auto, ref_prog=ref_prog, atol=atol,
                                 rtol=rtol, max_mismatched_ratio=max_mismatched_ratio, skip_check=skip_check)
        return self

    def with_arguments(self, *args: Any, **kwargs: Any) -> AutoTuner:
        """The factory's arguments that every config shares (the shapes, ...)."""
        self.args, self.kwargs = args, kwargs
        return self

    def _compile(self, config: Mapping[str, Any]) -> Any:
        kwargs = {**self.kwargs, **config}
        if isinstance(self.fn, EagerFunction):
            # Called on tensors: the kernel for their shapes and dtypes; with no tensors, `compile(**consts)`.
            return self.fn.kernel_for(*self.args, **kwargs)[0] if self.args else self.fn.compile(**kwargs)
        made = self.fn(*self.args, **kwargs)
        if isinstance(made, JITKernel):
            return made
        if isinstance(self.fn, KernelFactory):
            return made
        return compile(made, self.compile_args["out_idx"], self.compile_args["target"],
                       pass_configs=self.compile_args["pass_configs"])

    def _verify(self, kernel: Any) -> str:
        ref, args = self.profile_args["ref_prog"], self.profile_args
        if ref is None or args["skip_check"]:
            return ""
        try:
            kernel.get_profiler(args["supply_type"]).assert_allclose(
                ref, self.inputs, atol=args["atol"], rtol=args["rtol"],
                max_mismatched_ratio=args["max_mismatched_ratio"])
        except AssertionError as err:
            return f"does not match ref_prog: {err}"
        return ""

    def run(self, warmup: int = 25, rep: int = 100, timeout: Any = None, **ignored: Any) -> AutotuneResult:
        if not self.configs:
            raise TileLangError("autotune: no configs to try")
        trials: list[tuple[dict[str, Any], float | str]] = []
        ranked: list[tuple[float, int, Any, str]] = []
        for index, config in enumerate(self.configs):
            try:
                kernel = self._compile(config)
                profiler = kernel.get_profiler(self.profile_args["supply_type"])
                latency = profiler.do_bench(warmup=warmup, rep=rep, input_tensors=self.inputs)
            except TileLangError as err:
                trials.append((config, f"error: {err}"))
                continue
            trials.append((config, latency))
            ranked.append((latency, index, kernel, profiler.last_bench))
        for latency, index, kernel, kind in sorted(ranked, key=lambda r: (r[0], r[1])):
            problem = self._verify(kernel)
            if problem:
                trials[[c for c, _ in trials].index(self.configs[index])] = (self.configs[index], problem)
                continue
            ref = self.profile_args["ref_prog"]
            ref_latency = (kernel.get_profiler().do_bench(ref, warmup=1, rep=max(rep // 10, 1),
                                                          input_tensors=self.inputs)
                           if ref is not None and kind == MEASURED else None)
            return AutotuneResult(latency, self.configs[index], kernel, kind, ref_latency, trials)
        reasons = "; ".join(f"{c}: {r}" for c, r in trials if isinstance(r, str))
        raise TileLangError(f"autotune: no config compiled and verified ({reasons})")


class _Autotuned:
    """`@autotune(configs=...)` over `@tilelang.jit` (or a plain factory): calling it tunes, caches, and returns the
    best kernel, with `.config`, `.latency` and `.ref_latency` set."""

    def __init__(self, fn: Callable[..., Any], configs: Any, settings: dict[str, Any]) -> None:
        functools.update_wrapper(self, fn)
        self.fn, self.configs, self.settings = fn, configs, settings
        self.cache: dict[Any, AutotuneResult] = {}

    def _tuned(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> AutotuneResult:
        """The tuning result for these arguments; tensors count by shape and dtype (configs are tuned per input
        shape and dtype, as TileLang's autotuner keys them)."""
        key = (_cache_key(args), _cache_key(tuple(sorted(kwargs.items()))))
        if key not in self.cache:
            configs = self.configs(*args, **kwargs) if callable(self.configs) else self.configs
            s = self.settings
            tuner = AutoTuner(self.fn, configs).with_arguments(*args, **kwargs)
            tuner.set_compile_args(s.get("out_idx"), s.get("target", "auto"), s.get("pass_configs"))
            tuner.set_profile_args(s.get("supply_type"), s.get("ref_prog"), s.get("atol", 1e-2),
                                   s.get("rtol", 1e-2), s.get("max_mismatched_ratio", 0.01),
                                   s.get("skip_check", False))
            self.cache[key] = tuner.run(s.get("warmup", 25), s.get("rep", 100))
        result = self.cache[key]
        kernel = result.kernel
        kernel.config, kernel.latency, kernel.ref_latency = result.config, result.latency, result.ref_latency
        return result

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """A kernel factory: the best kernel. An eager function called on tensors: the best config's kernel run on
        them (its outputs returned, as the eager function itself returns them)."""
        result = self._tuned(args, kwargs)
        if isinstance(self.fn, EagerFunction) and any(is_tensor(a) for a in (*args, *kwargs.values())):
            kernel, tensors = self.fn.kernel_for(*args, **{**kwargs, **result.config})
            return kernel(*tensors)
        return result.kernel

    def compile(self, *args: Any, **kwargs: Any) -> Any:  # noqa: A003
        """The best kernel for these arguments (tensors or constants), without running it."""
        return self._tuned(args, kwargs).kernel


def _cache_key(value: Any) -> Any:
    """A hashable stand-in: a tensor by its shape and dtype, containers element-wise, anything else unhashable by
    its repr."""
    if is_tensor(value):
        return ("tensor", tensor_shape(value), tensor_dtype(value))
    if isinstance(value, (tuple, list)):
        return tuple(_cache_key(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _cache_key(v)) for k, v in sorted(value.items()))
    try:
        hash(value)
    except TypeError:
        return ("unhashable", type(value).__name__, repr(value))
    return value


_AUTOTUNE_INPUTS: list[list[Any]] = []


@contextlib.contextmanager
def set_autotune_inputs(*tensors: Any) -> Iterator[None]:
    """`with set_autotune_inputs(a, b): kernel = tuned.compile(...)`: the autotuning started inside ranks and
    verifies each config on these tensors (the kernel's inputs, in order) instead of generated ones."""
    _AUTOTUNE_INPUTS.append(list(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (list, tuple))
                            else list(tensors))
    try:
        yield
    finally:
        _AUTOTUNE_INPUTS.pop()


def autotune(fn: Callable[..., Any] | None = None, *, configs: Any = None, warmup: int = 25, rep: int = 100,
             **settings: Any) -> Any:
    """`@tilelang.autotune(configs=[{...}, ...], warmup=..., rep=...)`; `configs` may be a function of the call's
    arguments. Other TileLang settings (`ref_prog`, `supply_type`, `atol`, `rtol`, `skip_check`, `out_idx`,
    `target`) are honoured; the rest (`timeout`, `cache_input_tensors`, ...) are accepted and ignored."""

    def wrap(f: Callable[..., Any]) -> _Autotuned:
        if configs is None:
            raise TileLangError(f"@autotune on '{getattr(f, '__name__', f)}' needs configs=[...]")
        return _Autotuned(f, configs, {"warmup": warmup, "rep": rep, **settings})

    return wrap(fn) if fn is not None else wrap


__all__ = ["AutoTuner", "AutotuneResult", "autotune", "set_autotune_inputs"]
