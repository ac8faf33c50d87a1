"""Backend records (generated into tilelang/engine/registry.py from specs/backends/*.yaml) and target resolution.

Dispatch is by table, never by if-chains: a target string names a backend; a `tvm.target.Target` matches the
backend whose name is among its keys, else the backend whose TVM target kind it has.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import tvm
from tvm.target import codegen as tvm_codegen

from .codegen import host_llvm_target


class TargetError(ValueError):
    """An unknown target, or a backend that cannot work in this environment."""


@dataclass(frozen=True)
class Backend:
    name: str
    doc: str
    spec: str  # the spec file, named in errors
    target_kind: str
    target_keys: tuple[str, ...] = ()
    target_attrs: tuple[tuple[str, Any], ...] = ()
    target_host: str = ""
    codegen: str = ""  # TVM codegen whose source the backend emits ("" until the backend has one)
    runs_on: str = "never"  # where compiled kernels execute: cpu, cuda, rocm, webgpu, emulator, never
    lowers: bool = True  # False while the backend is registered but has no lowering pipeline yet
    pipeline: str = ""  # the pipeline OptimizeFor<Backend> runs (specs/pipelines/<pipeline>.yaml), named in errors
    tvm_pipeline: str = "default"  # the TIR pipeline tvm.compile runs (TVM codegens)
    extern_math: tuple[str, ...] = ()  # tirx math ops lowered to C library calls (exp2 -> exp2f / exp2)
    unsupported_tile_ops: tuple[tuple[str, str], ...] = ()  # (tile primitive, why this backend refuses it)
    runtime: str = ""  # the module whose RUNTIME implements the runtime backend interface (engine/interface.py)

    @property
    def module_name(self) -> str:
        return f"tilelang.engine.{self.name}.lower"

    def load(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    def load_runtime(self) -> Any:
        """The backend's implementation of the runtime interface (`RUNTIME` of its spec's `runtime` module)."""
        return importlib.import_module(self.runtime).RUNTIME

    def make_target(self, host: Any = None) -> tvm.target.Target:
        config: dict[str, Any] = {"kind": self.target_kind}
        if self.target_keys:
            config["keys"] = list(self.target_keys)
        for key, value in self.target_attrs:  # TVM's spellings (opt-level), lists for Array attributes (mattr)
            config[key] = [_resolve_attr(v) for v in value] if isinstance(value, tuple) else _resolve_attr(value)
        host = host if host is not None else (self.target_host or None)
        if isinstance(host, str) and host == "llvm":
            host = _host_llvm()
        try:
            return tvm.target.Target(config, host=host) if host is not None else tvm.target.Target(config)
        except ValueError as exc:  # an attribute the target kind lacks, or a value of another type
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise TargetError(f"backend '{self.name}': TVM rejects the target of {self.spec}: {reason}") from None


def _host_llvm() -> tvm.target.Target:
    return host_llvm_target()


def _resolve_attr(value: Any) -> Any:
    """Spec attribute values may name facts of this machine: `$host_cpu` is the CPU LLVM detects."""
    if value == "$host_cpu":
        return str(tvm_codegen.llvm_get_system_cpu())
    return value


def resolve(target: Any, backends: Mapping[str, Backend]) -> Backend:
    """The backend for a target name or a tvm Target; unknown targets list the registered ones."""
    backend = _match(target, backends)
    if not backend.lowers:
        raise TargetError(f"target '{backend.name}' is registered but has no lowering pipeline yet "
                          f"({backend.spec})")
    return backend


def _match(target: Any, backends: Mapping[str, Backend]) -> Backend:
    registered = ", ".join(sorted(backends))
    if isinstance(target, str):
        if target in backends:
            return backends[target]
        raise TargetError(f"unknown target '{target}'; registered targets: {registered}")
    if isinstance(target, tvm.target.Target):
        keys = [str(k) for k in target.keys]
        for name in sorted(backends):
            if name in keys:
                return backends[name]
        for name in sorted(backends):
            if backends[name].target_kind == target.kind.name:
                return backends[name]
        raise TargetError(f"no backend for target kind '{target.kind.name}' (keys {keys}); "
                          f"registered targets: {registered}")
    raise TargetError(f"target must be a name or a tvm.target.Target, got {type(target).__name__}; "
                      f"registered targets: {registered}")
