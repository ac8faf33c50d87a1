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
import tvm_ffi
from tvm import tirx
from tvm.target import codegen as tvm_codegen

from .._layout import cuda_include_dir
from ..errors import TileLangError
from .callback import apply_postproc

CODEGENS = ("llvm", "c", "cuda", "rocm", "webgpu", "tvmscript")  # "metalium" is tilelang.tenstorrent.metalium


def _as_module(mod: Any) -> Any:
    return tvm.IRModule({"main": mod}) if isinstance(mod, tirx.PrimFunc) else mod


def missing_codegen(codegen: str) -> str:
    """Why TVM cannot generate `codegen` code in this build ("" when it can)."""
    if codegen in ("llvm", "c", "cuda", "rocm", "webgpu"):  # TVM's codegens; others (tvmscript) are the project's
        if tvm_ffi.get_global_func(f"target.build.{codegen}", allow_missing=True) is None:
            return f"this apache-tvm build has no '{codegen}' code generator (target.build.{codegen})"
    if codegen == "rocm":  # TVM's ROCm codegen links with the ROCm toolchain
        from tvm.support import rocm

        try:
            rocm.find_rocm_path()
        except RuntimeError as err:
            return str(err)
    return ""


# What each TVM codegen expects of T.Kernel's launches when the backend's pipeline is done: llvm and c compile the
# blocks as serial loops (the pass BlockIdxToSerial makes them), the GPU codegens compile each launch as a kernel.
COMPILES_LAUNCHES = {"llvm": False, "c": False, "cuda": True, "rocm": True, "webgpu": True}


def launch_mismatch(mod: Any, codegen: str) -> str:
    """Why `codegen` cannot compile the launches the pipeline left in `mod` ("" when it can, or does not care)."""
    wanted = COMPILES_LAUNCHES.get(codegen)
    if wanted is None:
        return ""
    tags: set[str] = set()

    def launch(stmt: Any) -> None:
        if stmt.attr_key == "thread_extent":
            tags.add(str(stmt.node.thread_tag))

    for func in _as_module(mod).functions.values():
        if isinstance(func, tirx.PrimFunc):
            tvm_ffi.structural_walk(func.body, (tirx.AttrStmt, launch), order="pre")
    if wanted and not tags:
        return (f"codegen '{codegen}' compiles each block launch (T.Kernel's blockIdx) into a device kernel, but the "
                "pipeline left none (it turned the blocks into loops, as BlockIdxToSerial does)")
    if not wanted and tags:
        return (f"codegen '{codegen}' compiles blocks as serial loops, but the pipeline left the launches "
                f"{', '.join(sorted(tags))} (a pipeline for {codegen} runs BlockIdxToSerial, as optimize_cpu does)")
    return ""


def launch_extents(mod: Any) -> dict[str, dict[str, int]]:
    """The launch of each device kernel of `mod` after the pipeline: {function: {thread tag: extent}} from its
    thread_extent attributes (blockIdx.x/y/z and threadIdx.x/y/z; a tag absent is extent 1), as TVM records them as
    the kernel's launch parameters. A launch whose extent is not a constant, or a function that launches one tag with
    two extents (two T.Kernel in one function), is a TileLangError naming the function."""
    launches: dict[str, dict[str, int]] = {}
    for gvar, func in _as_module(mod).functions.items():
        if not isinstance(func, tirx.PrimFunc):
            continue
        name, tags = gvar.name_hint, dict[str, int]()

        def launch(stmt: Any, name: str = name, tags: dict[str, int] = tags) -> None:
            if stmt.attr_key != "thread_extent":
                return
            tag = str(stmt.node.thread_tag)
            if not isinstance(stmt.value, tirx.IntImm):
                raise TileLangError(f"kernel '{name}': the launch extent of {tag} is not a constant ({stmt.value})")
            extent = int(stmt.value.value)
            if tags.setdefault(tag, extent) != extent:
                raise TileLangError(f"kernel '{name}' launches {tag} with two extents ({tags[tag]} and {extent}): "
                                    "one T.Kernel per function")

        tvm_ffi.structural_walk(func.body, (tirx.AttrStmt, launch), order="pre")
        if tags:
            launches[name] = tags
    return launches


_EXTERN_LOWERED: set[tuple[str, str]] = set()


def lower_math_to_extern(ops: Sequence[str], kind: str) -> None:
    """Register, once, the lowering of tirx.<op> for target `kind` to the C library call (expf-style suffix)."""
    for op in ops:
        if (op, kind) in _EXTERN_LOWERED:
            continue

        def to_extern(call: Any, name: str = op) -> Any:
            dtype = str(call.ty.dtype)
            suffix = "f" if dtype == "float32" else ""
            return tirx.call_pure_extern(dtype, name + suffix, *call.args)

        tvm.tirx.register_intrin_lowering(f"tirx.{op}", target=kind, f=to_extern, level=100)
        _EXTERN_LOWERED.add((op, kind))


# The package's device headers (tilelang._layout.cuda_include_dir()) by the namespace their functions are called in.
CUDA_HEADERS = {"tl_cuda::": "tl_cuda/gemm_mma.h"}


def cuda_postproc(code: str, target: Any = None) -> str:
    """TVM's CUDA source with the text of each package device header it calls written in front (TVM's
    tvm_callback_cuda_postproc): the source compiles alone, with nvcc, nvrtc or TVM's runtime, no include path.
    Then the callback registered with tilelang.engine.callback, if any."""
    headers = [h for namespace, h in CUDA_HEADERS.items() if namespace in code]
    parts = [f"// {h} (tilelang package)\n{(cuda_include_dir() / h).read_text().replace('#pragma once', '')}"
             for h in headers]
    return apply_postproc("cuda", "\n".join([*parts, code]), target)


def build_tvm(mod: Any, codegen: str, target: Any = None, *, pipeline: str = "default",
              extern_math: Sequence[str] = ()) -> tuple[Any | None, str]:
    """Compile `mod` (IRModule or PrimFunc) with TVM's `codegen` -> (runnable module or None, source text).

    * "llvm": `tvm.compile` for the host CPU; returns the executable and the LLVM IR text.
    * "c": C source from `tvm.tirx.build(mod, target="c")`; not run here (None). fp16 C source does not compile
      (the C codegen emits `half` without a typedef).
    `pipeline` names TVM's TIR pipeline ("default" or "tirx"); `extern_math` lists the tirx math ops lowered to C
    library calls for this codegen (the backend spec's `extern_math`).
    * "tvmscript": no TVM codegen; the TVMScript of `mod` under a header saying so (`tvmscript_source`), for
      backends that have no code generator yet. Never run (None).
    * "cuda", "rocm", "webgpu": device source from the imported module of `tvm.compile(mod, Target(kind,
      host="llvm"))`; the executable is returned only when such a device exists here.
    """
    mod = _as_module(mod)
    lower_math_to_extern(extern_math, codegen)
    if codegen == "llvm":
        executable = tvm.compile(mod, target=target if target is not None else host_llvm_target(),
                                 tir_pipeline=pipeline)
        return executable, str(executable.mod.inspect_source("ll"))
    if codegen == "c":
        lib = tvm.tirx.build(mod, target="c", pipeline=pipeline)
        return None, str(lib.inspect_source())
    if codegen in ("cuda", "rocm", "webgpu"):
        device_target = target if target is not None else tvm.target.Target(codegen)
        if codegen == "cuda":
            tvm_ffi.register_global_func("tvm_callback_cuda_postproc", cuda_postproc, override=True)
        executable = tvm.compile(mod, target=tvm.target.Target(device_target, host="llvm"), tir_pipeline=pipeline)
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
    return tvm.target.Target({"kind": "llvm", "mcpu": tvm_codegen.llvm_get_system_cpu()})
