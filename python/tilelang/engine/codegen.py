"""TVM code generation for lowered TileLang kernels, and running them on numpy arrays.

`build_tvm(mod, target_kind)` expects a module without tile primitives (the pass LowerTileOpsToLoops); for
"llvm" and "c" thread launches must already be serial loops (the pass BlockIdxToSerial), for "cuda" they must be kept.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import tvm
from tvm import tirx

CODEGENS = ("llvm", "c", "cuda", "rocm", "webgpu", "tvmscript")  # "metalium" is tilelang.tenstorrent.metalium


def _as_module(mod: Any) -> Any:
    return tvm.IRModule({"main": mod}) if isinstance(mod, tirx.PrimFunc) else mod


def build_tvm(mod: Any, codegen: str, target: Any = None) -> tuple[Any | None, str]:
    """Compile `mod` (IRModule or PrimFunc) with TVM's `codegen` -> (runnable module or None, source text).

    * "llvm": `tvm.compile` for the host CPU; returns the executable and the LLVM IR text.
    * "c": C source from `tvm.tirx.build(mod, target="c")`; not run here (None). fp16 C source does not compile
      (the C codegen emits `half` without a typedef).
    * "tvmscript": no TVM codegen; the TVMScript of `mod` under a header saying so (`tvmscript_source`), for
      backends that have no code generator yet. Never run (None).
    * "cuda", "rocm", "webgpu": device source from the imported module of `tvm.compile(mod, Target(kind,
      host="llvm"))`; the executable is returned only when such a device exists here.
    """
    mod = _as_module(mod)
    if codegen == "llvm":
        executable = tvm.compile(mod, target=target if target is not None else host_llvm_target())
        return executable, str(executable.mod.inspect_source("ll"))
    if codegen == "c":
        lib = tvm.tirx.build(mod, target="c")
        return None, str(lib.inspect_source())
    if codegen in ("cuda", "rocm", "webgpu"):
        device_target = target if target is not None else tvm.target.Target(codegen)
        executable = tvm.compile(mod, target=tvm.target.Target(device_target, host="llvm"))
        source = str(executable.mod.imports[0].inspect_source())
        device = tvm.device(codegen if codegen != "rocm" else "rocm", 0)
        return (executable if device.exist else None), source
    if codegen == "tvmscript":
        return None, tvmscript_source(mod, target)
    raise ValueError(f"unknown codegen {codegen!r}; expected one of {', '.join(CODEGENS)}")


def tvmscript_source(mod: Any, target: Any = None) -> str:
    """The TVMScript of the lowered module under a header that says what it is (`tvm.script.from_source` reads it)."""
    header = ("# codegen 'tvmscript': the TVMScript of the lowered module; source only, not compiled, not run.\n"
              f"# target: {target if target is not None else '(none)'}\n")
    return header + str(_as_module(mod).script())


def run_packed(rt_mod: Any, func_name: str, arrays: Sequence[Any], device: Any = None) -> list[Any]:
    """Call `rt_mod[func_name]` on numpy arrays (scalars are passed unchanged).

    Arrays are copied to `device` (default: the CPU), and every writable array argument is copied back in place
    after the call; the list of (the same) arguments is returned.
    """
    if not hasattr(rt_mod, "__getitem__") and callable(rt_mod):  # a program the project runs itself (emulator)
        rt_mod(*arrays)
        return list(arrays)
    dev = device if device is not None else tvm.cpu(0)
    args: list[Any] = [tvm.runtime.tensor(np.ascontiguousarray(a), dev) if isinstance(a, np.ndarray) else a
                       for a in arrays]
    rt_mod[func_name](*args)
    for array, arg in zip(arrays, args, strict=True):
        if isinstance(array, np.ndarray) and array.flags.writeable:
            array[...] = arg.numpy()
    return list(arrays)


@functools.lru_cache(maxsize=1)
def host_llvm_target() -> Any:
    """llvm target for this CPU; `mcpu="native"` is silently replaced by generic with this wheel, so ask LLVM."""
    from tvm.target import codegen

    return tvm.target.Target({"kind": "llvm", "mcpu": codegen.llvm_get_system_cpu()})
