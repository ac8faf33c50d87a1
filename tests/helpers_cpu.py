"""A stand-in for `tilelang.lower` built from the CPU pieces, for tests (monkeypatched onto `tilelang`)."""

from __future__ import annotations

from typing import Any

import tvm
from tvm import tirx
from tvm.tirx import is_buffer_var

from tilelang.engine.codegen import build_tvm
from tilelang.engine.cpu_lowering import blockidx_to_serial, lower_tile_primitives
from tilelang.engine.param import CompiledArtifact, KernelParam


def kernel_params(func: Any) -> list[KernelParam]:
    """(name, dtype, static shape) of each parameter of a PrimFunc; scalars get shape ()."""
    params = []
    for p in func.params:
        if is_buffer_var(p):
            shape = []
            for dim in p.ty.shape:
                if not isinstance(dim, tirx.IntImm):
                    raise NotImplementedError(f"parameter '{p.name}' has a dynamic shape ({dim}); not supported")
                shape.append(int(dim.value))
            params.append(KernelParam(str(p.name), str(p.dtype), tuple(shape)))
        else:
            params.append(KernelParam(str(p.name), str(p.ty.dtype), ()))
    return params


def lower_cpu_for_tests(func: Any, target: Any = "llvm", target_host: Any = None) -> CompiledArtifact:
    """Tile ops -> loops, (llvm/c:) blockIdx -> serial loops, then `build_tvm`; returns a CompiledArtifact."""
    kind = target if isinstance(target, str) else str(target.kind.name)
    mod = lower_tile_primitives(tvm.IRModule({"main": func}))
    if kind in ("llvm", "c"):
        mod = blockidx_to_serial(mod)
    rt_mod, source = build_tvm(mod, kind)  # codegen named like the target kind
    entry = str(func.attrs["global_symbol"]) if func.attrs and "global_symbol" in func.attrs else "main"
    return CompiledArtifact(host_mod=mod if kind != "cuda" else None, device_mod=mod, params=kernel_params(func),
                            kernel_source=source, rt_mod=rt_mod, entry_name=entry, target=kind)
