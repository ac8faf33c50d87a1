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
    # (name, architecture) of each device of the spec's device section ("<backend>:<device>" targets one).
    devices: tuple[tuple[str, str], ...] = ()
    default_device: str = ""  # the device a plain "<backend>" target compiles for
    # (name, chip device, (rows, cols)) of each system of several chips ("<backend>:<system>" targets its mesh).
    systems: tuple[tuple[str, str, tuple[int, int]], ...] = ()

    @property
    def module_name(self) -> str:
        return f"tilelang.engine.{self.name}.lower"

    def load(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    def load_runtime(self) -> Any:
        """The backend's implementation of the runtime interface (`RUNTIME` of its spec's `runtime` module)."""
        return importlib.import_module(self.runtime).RUNTIME

    def make_target(self, host: Any = None, device: str = "") -> tvm.target.Target:
        """The backend's tvm Target; for a backend with devices its `model` is the architecture of `device` (else of
        the default device)."""
        config: dict[str, Any] = {"kind": self.target_kind}
        if self.target_keys:
            config["keys"] = list(self.target_keys)
        for key, value in self.target_attrs:  # TVM's spellings (opt-level), lists for Array attributes (mattr)
            config[key] = [_resolve_attr(v) for v in value] if isinstance(value, tuple) else _resolve_attr(value)
        if self.devices:
            config["model"] = dict(self.devices)[self.check_device(device or self.default_device)]
        host = host if host is not None else (self.target_host or None)
        if isinstance(host, str) and host == "llvm":
            host = _host_llvm()
        try:
            return tvm.target.Target(config, host=host) if host is not None else tvm.target.Target(config)
        except ValueError as exc:  # an attribute the target kind lacks, or a value of another type
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise TargetError(f"backend '{self.name}': TVM rejects the target of {self.spec}: {reason}") from None


    def check_device(self, device: str) -> str:
        """`device` when it is one of the backend's devices (a system: its chip's device), else a TargetError
        listing them."""
        names = [name for name, _ in self.devices]
        systems = {name: chip for name, chip, _ in self.systems}
        if device in systems:
            return systems[device]
        if device not in names:
            known = ", ".join(names) if names else "none: it has no device section"
            more = f"; systems: {', '.join(systems)}" if systems else ""
            raise TargetError(f"target '{self.name}' has no device '{device}' (devices of {self.spec}: {known}{more})")
        return device

    def mesh_of(self, target: Any) -> tuple[int, int]:
        """The mesh of chips a target runs on, (rows, cols): a system's ("tenstorrent:n300"), a target dict's
        "mesh", else (1, 1), a single chip."""
        device = "" if isinstance(target, tvm.target.Target) else split_device(target)[1]
        systems = {name: mesh for name, _, mesh in self.systems}
        mesh = target.get(TARGET_MESH) if isinstance(target, Mapping) else None
        if mesh is None:
            return systems.get(device, (1, 1))
        if not self.devices:
            raise TargetError(f"target '{self.name}' has no devices, so no mesh of them ({self.spec})")
        if device in systems:
            raise TargetError(f"target {dict(target)!r} names the system '{device}', whose mesh is "
                              f"{list(systems[device])}, and a mesh of its own; name one of them")
        if (not isinstance(mesh, (list, tuple)) or len(mesh) != 2
                or not all(isinstance(e, int) and not isinstance(e, bool) and e >= 1 for e in mesh)):
            raise TargetError(f"target {dict(target)!r}: '{TARGET_MESH}' is the devices of the mesh as [rows, cols], "
                              f"two integers >= 1, got {mesh!r}")
        return int(mesh[0]), int(mesh[1])

    def device_of(self, target: Any) -> str:
        """The device a target of this backend compiles for ("" for a backend without devices): the one a target
        string or dict names ("<backend>:<device>"), else the default device (a tvm Target names an architecture,
        `model`, not a device)."""
        if not self.devices:
            return ""
        device = "" if isinstance(target, tvm.target.Target) else split_device(target)[1]
        return self.check_device(device) if device else self.default_device


# The keys of a target dict: {"kind": "<backend>", "device": "<device>", "mesh": [rows, cols]}.
TARGET_KIND, TARGET_DEVICE, TARGET_MESH = "kind", "device", "mesh"


def split_device(target: Any) -> tuple[Any, str]:
    """A target naming a device, "<backend>:<device>" or {"kind": "<backend>", "device": "<device>"}, as (backend
    name, device); any other target as (target, "")."""
    if isinstance(target, str) and ":" in target:
        name, _, device = target.partition(":")
        if not device:
            raise TargetError(f"target '{target}' names no device after ':'")
        return name, device
    if isinstance(target, Mapping):
        kind, device = target.get(TARGET_KIND), target.get(TARGET_DEVICE, "")
        if (set(target) - {TARGET_KIND, TARGET_DEVICE, TARGET_MESH} or not isinstance(kind, str)
                or not isinstance(device, str)):
            raise TargetError(f"a target dict has a string '{TARGET_KIND}' (a registered target) and optionally a "
                              f"string '{TARGET_DEVICE}' and a '{TARGET_MESH}' [rows, cols], got {dict(target)!r}")
        return kind, device
    return target, ""


def _host_llvm() -> tvm.target.Target:
    return host_llvm_target()


def _resolve_attr(value: Any) -> Any:
    """Spec attribute values may name facts of this machine: `$host_cpu` is the CPU LLVM detects."""
    if value == "$host_cpu":
        return str(tvm_codegen.llvm_get_system_cpu())
    return value


def resolve(target: Any, backends: Mapping[str, Backend]) -> Backend:
    """The backend for a target name, a tvm Target, or a target naming a device ("<backend>:<device>",
    {"kind": ..., "device": ...}); unknown targets list the registered ones, unknown devices the backend's."""
    name, device = split_device(target)
    backend = _match(name, backends)
    if device:
        backend.check_device(device)
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
    raise TargetError(f"target must be a name, a {{'kind': ..., 'device': ...}} dict or a tvm.target.Target, got "
                      f"{type(target).__name__}; "
                      f"registered targets: {registered}")
