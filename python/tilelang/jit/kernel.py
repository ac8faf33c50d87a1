"""`JITKernel`: a compiled TileLang kernel callable on numpy arrays, plus `compile` and the `jit` decorator.

Calling conventions (TileLang's):

* `out_idx=[-1]` (a list or an int; negatives count from the end): those parameters are allocated (zeros of the
  right dtype, ml_dtypes for bfloat16) and returned -- one output alone, several as a list; the caller passes the
  other parameters, in order, as numpy arrays.
* Without `out_idx` the caller passes every parameter; results are written back into the given arrays in place.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from tvm import tirx

from ..engine.backend import Backend, resolve, split_device
from ..engine.compile_target import building_for
from ..engine.interface import BackendRuntime, runtime_of
from ..engine.lower import lower
from ..engine.param import CompiledArtifact, KernelParam
from ..engine.pass_config import configured
from ..engine.registry import BACKENDS
from ..errors import TileLangError
from ..language import _factory_scope
from ..profiler import Profiler, TensorSupplyType
from .once import OnceCache
from .shape_bound import ShapeBoundKernel
from .tensors import as_kind, is_tensor, output_kind, tensor_dtype, tensor_shape, to_tvm

OutIdx = int | Sequence[int] | None


def _target_name(target: Any) -> str:
    """A target as the name `resolve` takes: a dict naming a device as "<kind>:<device>"."""
    if isinstance(target, Mapping):
        kind, device = split_device(target)
        return f"{kind}:{device}" if device else str(kind)
    return target if isinstance(target, str) else str(target.kind.name)


def _out_positions(out_idx: OutIdx, params: Sequence[KernelParam], kernel: str) -> list[int] | None:
    if out_idx is None:
        return None
    requested = [out_idx] if isinstance(out_idx, int) else list(out_idx)
    positions: list[int] = []
    for idx in requested:
        if not isinstance(idx, int) or not -len(params) <= idx < len(params):
            raise TileLangError(f"kernel '{kernel}': out_idx {idx!r} is out of range for {len(params)} parameters "
                                f"({', '.join(p.name for p in params)})")
        pos = idx % len(params)
        if not params[pos].is_tensor:
            raise TileLangError(f"kernel '{kernel}': out_idx {idx} names the scalar parameter '{params[pos].name}'")
        if pos in positions:
            raise TileLangError(f"kernel '{kernel}': out_idx names parameter '{params[pos].name}' twice")
        positions.append(pos)
    return positions


def _shape_str(shape: Sequence[int]) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


class JITKernel:
    """A compiled kernel: `kernel(*arrays)`, `kernel.params`, `kernel.artifact`, `kernel.get_kernel_source()`."""

    def __init__(self, artifact: CompiledArtifact, out_idx: OutIdx = None, target: str | None = None,
                 prim_func: Any = None) -> None:
        self._artifact = artifact
        self.prim_func = prim_func
        self.out_idx = out_idx
        self.target = target or artifact.target or "unknown"
        self._outputs = _out_positions(out_idx, artifact.params, artifact.entry_name)

    def _ready(self) -> None:
        """Hook for lazily compiled kernels."""

    @property
    def artifact(self) -> CompiledArtifact:
        self._ready()
        return self._artifact

    @property
    def params(self) -> list[KernelParam]:
        return self.artifact.params

    @property
    def name(self) -> str:
        return self.artifact.entry_name

    @property
    def output_positions(self) -> list[int]:
        """The parameters the kernel allocates and returns (out_idx), in order."""
        self._ready()
        return list(self._outputs or [])

    @property
    def backend(self) -> Backend:
        return resolve(self.artifact.target or self.target, BACKENDS)

    @property
    def runtime(self) -> BackendRuntime:
        """The backend's runtime (tilelang.engine.interface): build, run, save, report, profile."""
        return runtime_of(self.backend)

    def save(self, directory: Any) -> Any:
        """Write the backend's artifacts into `directory` (its runtime's `save`; tenstorrent: reader/compute/
        writer.cpp, main.cpp, CMakeLists.txt, tt.plan.json, and run_ttnn.py where ttnn can run the kernel); returns
        the directory."""
        saved = self.runtime.save(self.artifact, directory)
        if saved is None:
            raise TileLangError(f"backend '{self.target}' has no artifact files to save for kernel '{self.name}' "
                                "(use get_kernel_source())")
        return saved

    @property
    def last_report(self) -> dict[str, Any]:
        """The report of the last call (the emulator's: status, counters per core and total); {} before a call or
        on backends without one."""
        return self.runtime.report(self.artifact)

    def get_kernel_source(self) -> str:
        """The source text the backend produced (LLVM IR, C, CUDA ...)."""
        return self.artifact.kernel_source

    def get_tir(self) -> Any:
        """The kernel's prim_func as written (before lowering)."""
        self._ready()
        return self.prim_func

    def get_profiler(self, tensor_supply_type: Any = None, **ignored: Any) -> Any:
        """A `tilelang.profiler.Profiler` of this kernel (`do_bench`, `assert_allclose`, `run_once`)."""
        return Profiler(self, tensor_supply_type or TensorSupplyType.Auto)

    def _check(self, param: KernelParam, value: Any) -> Any:
        where = f"kernel '{self.name}': parameter '{param.name}'"
        if not param.is_tensor:
            if not isinstance(value, (int, float, np.number, np.bool_)):
                raise TileLangError(f"{where} expects a {param.dtype} scalar, got {type(value).__name__}")
            return value
        expected = f"a numpy array of shape {_shape_str(param.shape)} and dtype {param.dtype} (or a DLPack tensor)"
        if not is_tensor(value):
            raise TileLangError(f"{where} expects {expected}, got {type(value).__name__}")
        if tensor_shape(value) != tuple(param.shape):
            raise TileLangError(f"{where} expects shape {_shape_str(param.shape)}, got {_shape_str(value.shape)}")
        if isinstance(value, np.ndarray) and value.dtype != param.numpy_dtype() or (
                not isinstance(value, np.ndarray) and tensor_dtype(value) != param.dtype):
            raise TileLangError(f"{where} expects dtype {param.dtype}, got {value.dtype}")
        return value if isinstance(value, np.ndarray) else to_tvm(value)

    def __call__(self, *args: Any) -> Any:
        artifact = self.artifact
        if artifact.rt_mod is None:
            raise TileLangError(f"backend '{self.target}' produces source only; it cannot run kernel '{self.name}' "
                                "here (use get_kernel_source(), or compile for target='llvm' to run on the CPU)")
        params = artifact.params
        outputs = self._outputs or []
        inputs = [i for i in range(len(params)) if i not in outputs]
        if len(args) != len(inputs):
            names = ", ".join(params[i].name for i in inputs)
            allocated = f"; {', '.join(params[i].name for i in outputs)} allocated and returned" if outputs else ""
            raise TileLangError(f"kernel '{self.name}' expects {len(inputs)} arguments ({names}{allocated}), "
                                f"got {len(args)}")
        values: list[Any] = [None] * len(params)
        for i, arg in zip(inputs, args, strict=True):
            values[i] = self._check(params[i], arg)
        for i in outputs:
            values[i] = np.zeros(params[i].shape, dtype=params[i].numpy_dtype())
        self.runtime.run(self.backend, artifact, values)
        if self._outputs is None:
            return None
        kind = output_kind(args)
        results = [as_kind(values[i], kind) for i in outputs]
        return results[0] if len(results) == 1 else results

    def __repr__(self) -> str:
        params = ", ".join(str(p) for p in self.params)
        return f"JITKernel({self.name}({params}), out_idx={self.out_idx!r}, target={self.target!r})"


def _lower(func: Any, target: Any, target_host: Any, pass_configs: Any = None) -> CompiledArtifact:
    if not isinstance(func, tirx.PrimFunc):
        raise TileLangError(f"can only compile a prim_func (a @T.prim_func kernel), got {type(func).__name__}")
    with configured(pass_configs):
        artifact: CompiledArtifact = lower(func, target=target, target_host=target_host)
    if not artifact.target:
        artifact.target = _target_name(target)
    return artifact


# TileLang's own execution backends (accepted: they name runners of other targets) besides "auto" and the runners of
# this project's backends (their runtimes' `execution_backends`).
TILELANG_EXECUTION_BACKENDS = ("tvm_ffi", "cython", "nvrtc", "torch", "cutedsl", "ctypes", "dlpack")


def _runners() -> dict[str, str]:
    """Each runner of this project's backends -> the backend whose runtime has it."""
    runners: dict[str, str] = {}
    for name in sorted(BACKENDS):
        for runner in runtime_of(BACKENDS[name]).execution_backends:
            runners.setdefault(runner, name)
    return runners


def _execution_backend(artifact: CompiledArtifact, backend: str | None) -> CompiledArtifact:
    """`execution_backend`: "auto" (TileLang's default None) runs the kernel with its backend's own runner; a runner
    of the backend's runtime (tenstorrent: "emulator", "ttnn") is set up by it, or a TileLangError says what is
    missing; TileLang's execution backends of other targets are accepted and ignored; anything else is an error."""
    backend = backend or "auto"
    if backend == "auto" or backend in TILELANG_EXECUTION_BACKENDS:
        return artifact
    runtime = runtime_of(resolve(artifact.target, BACKENDS))
    if backend in runtime.execution_backends:
        return runtime.runner(artifact, backend)
    runners = _runners()
    if backend in runners:
        raise TileLangError(f"kernel '{artifact.entry_name}': execution_backend={backend!r} runs kernels of backend "
                            f"'{runners[backend]}'; this one was compiled for target '{artifact.target}'")
    known = ("auto", *runners, *TILELANG_EXECUTION_BACKENDS)
    raise TileLangError(f"kernel '{artifact.entry_name}': unknown execution_backend {backend!r} (one of "
                        f"{', '.join(map(repr, known))})")


class LazyJITKernel(JITKernel):
    """A `JITKernel` for a prim_func that is lowered and compiled on first use (`@jit` applied to a prim_func)."""

    def __init__(self, func: Any, out_idx: OutIdx = None, target: Any = "auto", target_host: Any = None,
                 pass_configs: Any = None, execution_backend: str = "auto") -> None:
        self.func = func
        self.out_idx = out_idx
        self.target = _target_name(target)
        self._pending: tuple[Any, Any, Any, str] | None = (target, target_host, pass_configs, execution_backend)
        self._compiling = threading.Lock()  # concurrent first calls compile once

    @property
    def is_compiled(self) -> bool:
        return self._pending is None

    def _ready(self) -> None:
        if self._pending is None:
            return
        with self._compiling:
            if self._pending is not None:
                target, target_host, pass_configs, backend = self._pending
                artifact = _execution_backend(_lower(self.func, target, target_host, pass_configs), backend)
                JITKernel.__init__(self, artifact, self.out_idx, prim_func=self.func)
                self._pending = None


def compile(  # noqa: A001
    func: Any, out_idx: OutIdx = None, target: Any = "auto", target_host: Any = None, pass_configs: Any = None,
    execution_backend: str = "auto", **ignored: Any
) -> JITKernel:
    """Lower and compile a prim_func with `tilelang.lower` -> `JITKernel`.

    `pass_configs` sets options of our passes for this compilation: `{"tl.<Pass>.<option>": value}` (the options
    of specs/passes/*.yaml, checked; other keys are TileLang options for other backends and are ignored).
    `execution_backend="ttnn"` runs a Tenstorrent kernel on a device through ttnn (the default runs it in the
    emulator); TileLang's other execution backends and options such as `verbose` are accepted and ignored.
    """
    artifact = _lower(func, target, target_host, pass_configs)
    return JITKernel(_execution_backend(artifact, execution_backend), out_idx, prim_func=func)


class KernelFactory:
    """`@jit`-decorated kernel factory: calling it builds the prim_func and compiles it, cached per arguments."""

    def __init__(self, factory: Callable[..., Any], out_idx: OutIdx, target: Any, target_host: Any,
                 pass_configs: Any = None, execution_backend: str = "auto") -> None:
        functools.update_wrapper(self, factory)
        self.factory = factory
        self.out_idx, self.target, self.target_host = out_idx, target, target_host
        self.pass_configs, self.execution_backend = pass_configs, execution_backend
        self.cache: OnceCache[JITKernel | ShapeBoundKernel] = OnceCache()  # each key compiled once

    def __call__(self, *args: Any, **kwargs: Any) -> JITKernel | ShapeBoundKernel:
        key = (args, tuple(sorted(kwargs.items())))
        try:
            hash(key)
        except TypeError:  # unhashable arguments: compile without caching
            return self._compile(args, kwargs)
        return self.cache.get(key, lambda: self._compile(args, kwargs))

    def _prim_func(self, args: tuple[Any, ...], kwargs: dict[str, Any], bound: dict[str, int]) -> Any:
        with _factory_scope.scope(bound) as scope, building_for(self.target):
            func = self.factory(*args, **kwargs)
        if not isinstance(func, tirx.PrimFunc):
            raise TileLangError(f"@jit factory '{self.factory.__name__}' must return a prim_func, "
                                f"got {type(func).__name__}")
        return func, scope.declared

    def _compile(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> JITKernel | ShapeBoundKernel:
        func, dynamic = self._prim_func(args, kwargs, {})
        if dynamic:  # T.dynamic names: bound from each call's shapes, the prim_func rebuilt static per binding
            def build(bound: dict[str, int]) -> JITKernel:
                static = self._prim_func(args, kwargs, bound)[0]
                return compile(static, self.out_idx, self.target, self.target_host, self.pass_configs,
                               self.execution_backend)

            return ShapeBoundKernel(self.factory.__name__, func, dynamic, self.out_idx, build)
        return compile(func, self.out_idx, self.target, self.target_host, self.pass_configs, self.execution_backend)
