"""Metalium artifacts of a lowered Tenstorrent kernel, and running them in the emulator.

`metalium_program(device_mod, params)` turns the role kernels of the pipeline into
reader.cpp / compute.cpp / writer.cpp (kernel_cpp.py), the plan (tt.plan.json, validated by
the JSON Schema of specs/records/tt_plan.yaml, shipped as plan_schema.py), main.cpp and CMakeLists.txt (Jinja
templates in metalium/), and run_ttnn.py, the same program through ttnn.generic_op (ttnn_host.py).
`MetaliumProgram.save(dir)` writes them; calling it with numpy arrays builds (cached) and runs the host program
against the emulator and returns the counters.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import tvm
from tvm import tirx

from .. import cpp
from ..engine.pass_config import pass_options
from ..engine.pass_options import PASS_OPTIONS
from . import attr_keys, device, emulator, host_args, intrinsics
from .host import host_layout, host_plan, plan_key, role_kernels
from .kernel_cpp import TTCodegenError, kernel_source
from .l1_shards import L1, check_host_api, l1_shard
from .lowered import get_attr
from .mesh import global_layout, mesh_of
from .plan_schema import SCHEMAS
from .records import (
    ACCESSOR,
    BUFFER,
    CB,
    COMPUTE_KERNEL,
    DEVICE,
    DM_KERNEL,
    HOST_MASK,
    HOST_TENSOR,
    INDEX_MASK,
    INDEX_TILE,
    KERNEL,
    KERNELS,
    PLAN,
    TENSOR,
    TENSOR_CONSTANT,
    Device,
    HostMask,
    Plan,
    Tensor,
    TensorConstant,
)
from .roles import KERNEL_ROLES
from .templates import templates
from .ttnn_host import SCRIPT, render_ttnn, unsupported

FILES = {role: f"{role}.cpp" for role in KERNEL_ROLES}
HOST_TYPES = {2: "uint16_t", 4: "float"}  # float element bytes -> host vector type (bf16/fp16 travel as raw bits)
def _fp32_dest_acc(compute: tirx.PrimFunc) -> bool:
    """Whether the compute kernel accumulates in fp32 (the C++ engines' kernel facts decide it once)."""
    return bool(cpp.call("tl.tt.KernelAccumulatesFp32", compute))


def build_plan(device_mod: tvm.IRModule, params: Sequence[Any], kernel: str) -> Plan:
    """The plan (tt.plan.json): the host plan of the role kernels plus tensor shapes, roles, files and kernel
    configs."""
    plan = host_plan(device_mod)
    funcs = {get_attr(f, attr_keys.TT_KERNEL_ROLE): f for f in device_mod.functions.values()
             if isinstance(f, tirx.PrimFunc)}
    missing = [r for r in KERNEL_ROLES if r not in funcs]
    if missing:
        raise TTCodegenError(f"kernel '{kernel}': no {', '.join(missing)} kernel in the lowered module; the "
                             "Metalium code generator needs reader, compute and writer")
    _check_dram_formats(kernel, [p.name for p in params])
    tensors = _tensors(plan, funcs, [p.name for p in params])
    kernels: dict[str, Any] = {}
    for role in KERNEL_ROLES:
        entry: dict[str, Any] = dict(plan[PLAN.KERNELS][role])
        entry[KERNEL.FILE] = FILES[role]
        if role == "compute":
            entry[COMPUTE_KERNEL.MATH_FIDELITY] = _math_fidelity()
            entry[COMPUTE_KERNEL.FP32_DEST_ACC] = _fp32_dest_acc(funcs[role])
        else:
            entry[DM_KERNEL.PROCESSOR] = device.KERNEL_PROCESSORS[role]
        kernels[role] = entry
    profile = plan[PLAN.DEVICE][DEVICE.PROFILE]
    name = cpp.current_device()  # the device the passes planned for (tilelang.cpp.device_scope)
    facts = cast(Device, {  # host_api: the profile's, one of the record's enum (cast: a str to the checker)
        DEVICE.NAME: name, DEVICE.PROFILE: profile, DEVICE.HOST_API: intrinsics.PROFILES[profile].host_api,
        DEVICE.TILE: list(device.TILE), DEVICE.CORE_GRID: list(device.DEVICES[name].core_grid),
        DEVICE.L1_BYTES: device.DEVICES[name].l1_bytes, DEVICE.MAX_CBS: device.MAX_CBS,
        DEVICE.MAX_RUNTIME_ARGS: device.MAX_RUNTIME_ARGS})
    out: Plan = {PLAN.KERNEL: kernel, PLAN.DEVICE: facts, PLAN.CORE_GRID: plan[PLAN.CORE_GRID],
                 PLAN.GRID_BLOCKS: plan[PLAN.GRID_BLOCKS], PLAN.PARTITION_MODE: plan[PLAN.PARTITION_MODE],
                 PLAN.CORE_RANGES: plan[PLAN.CORE_RANGES], PLAN.WORK_PARTITION: plan[PLAN.WORK_PARTITION],
                 PLAN.TENSORS: tensors, PLAN.CBS: plan[PLAN.CBS], PLAN.SEMAPHORES: plan[PLAN.SEMAPHORES],
                 PLAN.KERNELS: kernels}  # type: ignore[typeddict-item]
    on_mesh = mesh_of(kernel, funcs[KERNELS.READER], tensors, facts[DEVICE.HOST_API])  # None on a single chip
    check_host_api(kernel, tensors, profile, on_mesh is not None)
    if on_mesh is not None:
        out[PLAN.MESH] = on_mesh
    return out


def _math_fidelity() -> str:
    """The compute kernel's math fidelity: pass_configs' "tl.tt.math_fidelity" (InsertTTComputeInit's option), or
    the backend's default."""
    return str(pass_options("InsertTTComputeInit").get(COMPUTE_KERNEL.MATH_FIDELITY) or device.MATH_FIDELITY)


def _check_dram_formats(kernel: str, params: list[str]) -> None:
    """Every tensor pass_configs' "tl.tt.dram_format" names is a parameter of the kernel (InferTTLayout checks the
    formats of those it lays out)."""
    option = BUFFER.DRAM_FORMAT  # InferTTLayout's option of the field's name chooses it
    key = PASS_OPTIONS["InferTTLayout"][option]["key"]
    unknown = sorted(set(pass_options("InferTTLayout").get(option, {})) - set(params))
    if unknown:
        raise TTCodegenError(f"kernel '{kernel}': pass_configs '{key}' names {', '.join(map(repr, unknown))}, which "
                             f"is no tensor parameter of the kernel (its tensors: {', '.join(params)})")


def _tensors(plan: dict[str, Any], funcs: dict[str, tirx.PrimFunc], params: list[str]) -> list[Tensor]:
    """The plan's tensor records, in parameter order: from tt.buffers, the kernels' tensor arguments (the role) and
    tt.constants (the tensors the passes added, AddTTConstants: the host fills them)."""
    constants = plan.get(plan_key(attr_keys.TT_CONSTANTS)) or {}
    readers = set(get_attr(funcs[KERNELS.READER], attr_keys.TT_TENSOR_ARGS, {}).values())
    writers = set(get_attr(funcs[KERNELS.WRITER], attr_keys.TT_TENSOR_ARGS, {}).values())
    writers |= {cb[CB.SHARD_OF] for cb in plan[PLAN.CBS] if CB.SHARD_OF in cb}  # the packer writes its shard CB
    moved_by_writer = {name for name, info in plan[plan_key(attr_keys.TT_BUFFERS)].items()
                       if info.get(BUFFER.READ_BY_WRITER)}  # B under the in1 sender: read, by the writer kernel
    readers, writers = readers | moved_by_writer, writers - moved_by_writer
    accessors = get_attr(funcs[KERNELS.READER], attr_keys.TT_ACCESSORS, {}) or {}
    tensors: list[Tensor] = []
    for name, info in sorted(plan[plan_key(attr_keys.TT_BUFFERS)].items(),
                             key=lambda kv: accessors.get(kv[0], {}).get(ACCESSOR.PARAMETER, 0)):
        role = {(True, True): "inout", (False, True): "output", (True, False): "input"}.get(
            (name in readers, name in writers), "unused")  # inout: T.atomic_add adds onto what the tensor holds
        constant = constants.get(name)
        # The kernel's shape (tt.buffers): the user's, or the 2-D matrix of a tensor the kernel accesses only through
        # T.Tensor views of its folded matrix (the same C-order bytes; loop_views.cc).
        shape = ([info[BUFFER.TILE_ROWS] * device.TILE[0], info[BUFFER.TILE_COLS] * device.TILE[1]] if constant
                 else [int(e) for e in info[BUFFER.SHAPE]])
        entry = cast(Tensor, {  # role and pad_value: values of the record's enums (cast: built as str)
            TENSOR.NAME: name, TENSOR.PARAMETER: -1 if constant else params.index(name), TENSOR.SHAPE: shape,
            TENSOR.DTYPE: info[BUFFER.DTYPE], TENSOR.DATA_FORMAT: info[BUFFER.DATA_FORMAT],
            TENSOR.PAGE_BYTES: info[BUFFER.PAGE_BYTES], TENSOR.PAGES: info[BUFFER.PAGES],
            TENSOR.PAGE_LAYOUT: info[BUFFER.PAGE_LAYOUT], TENSOR.ROLE: role,
            TENSOR.PADDED_SHAPE: list(info.get(BUFFER.PADDED_SHAPE, shape)),
            TENSOR.BLOCKS: list(info.get(BUFFER.BLOCKS, [0] * len(shape))),
            TENSOR.PAD_VALUE: _json_number(float(info.get(BUFFER.PAD_VALUE, 0.0)))})
        if constant:
            entry[TENSOR.CONSTANT] = _constant(constant)
        if info.get(BUFFER.TRANSPOSED):  # DRAM holds its transpose: the host transposes it both ways
            entry[TENSOR.TRANSPOSED] = True
        if info.get(BUFFER.DRAM_FORMAT):  # a block float in DRAM: the host packs and unpacks it
            entry[TENSOR.DRAM_FORMAT] = str(info[BUFFER.DRAM_FORMAT])
        if info.get(BUFFER.MEMORY) == L1:  # left in its cores' L1, one shard per core (l1_shards.py)
            entry[TENSOR.L1_SHARD] = l1_shard(plan, name, info, role)
        tensors.append(entry)
    return tensors


def _constant(constant: Any) -> TensorConstant:
    """A tt.constants entry as the plan's tensor_constant record."""
    out: TensorConstant = {TENSOR_CONSTANT.VALUE: float(constant[TENSOR_CONSTANT.VALUE]),
                           TENSOR_CONSTANT.ROWS: [int(r) for r in constant[TENSOR_CONSTANT.ROWS]]}
    if TENSOR_CONSTANT.MASK in constant:  # an index-mask table: the host computes its tiles (main.cpp, run_ttnn.py)
        m = constant[TENSOR_CONSTANT.MASK]
        out[TENSOR_CONSTANT.MASK] = {
            INDEX_MASK.P: int(m[INDEX_MASK.P]), INDEX_MASK.Q: int(m[INDEX_MASK.Q]),
            INDEX_MASK.DIV: int(m[INDEX_MASK.DIV]), INDEX_MASK.WIDTH: int(m[INDEX_MASK.WIDTH]),
            INDEX_MASK.FIRST: int(m[INDEX_MASK.FIRST]), INDEX_MASK.STEP: int(m[INDEX_MASK.STEP]),
            INDEX_MASK.ON_TRUE: float(m[INDEX_MASK.ON_TRUE]), INDEX_MASK.ON_FALSE: float(m[INDEX_MASK.ON_FALSE])}
    if TENSOR_CONSTANT.INDEX in constant:  # an index table: tile t holds the indices p * ii + q * jj + step * t
        x = constant[TENSOR_CONSTANT.INDEX]
        out[TENSOR_CONSTANT.INDEX] = {INDEX_TILE.P: int(x[INDEX_TILE.P]), INDEX_TILE.Q: int(x[INDEX_TILE.Q]),
                                      INDEX_TILE.STEP: int(x[INDEX_TILE.STEP])}
    return out


def _json_number(value: float) -> float | str:
    """A pad value as tt.plan.json holds it: a number, or "inf" / "-inf" (JSON has no infinities)."""
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def validate_plan(plan: Plan) -> None:
    import jsonschema  # heavy (its format checkers): imported when a plan is validated (save(), the tests)

    validator = jsonschema.Draft202012Validator(SCHEMAS["tt_plan"])  # specs/records/tt_plan.yaml
    errors = sorted(validator.iter_errors(plan), key=lambda e: list(e.path))
    if errors:
        where = "/".join(str(p) for p in errors[0].path) or "(root)"
        raise TTCodegenError(f"tt.plan.json does not match its schema at {where}: {errors[0].message}")


def _mask_fill(tensor: Tensor) -> HostMask | None:
    """An index-mask table's entry with its two values as the bits of the host vector's element, or None."""
    mask = tensor.get(TENSOR.CONSTANT, {}).get(TENSOR_CONSTANT.MASK)
    if mask is None:
        return None
    return {**mask, HOST_MASK.ON_TRUE_BITS: host_args.element_bits(mask[INDEX_MASK.ON_TRUE], tensor[TENSOR.DTYPE]),
            HOST_MASK.ON_FALSE_BITS: host_args.element_bits(mask[INDEX_MASK.ON_FALSE], tensor[TENSOR.DTYPE])}


def render_host(plan: Plan, template: str, args: host_args.HostArgs | None = None) -> str:
    """A host file of the plan from its template; the numbers main.cpp reads at run time are recorded into `args`
    (tt.host_args)."""
    args = args if args is not None else host_args.HostArgs(plan[PLAN.KERNEL])
    # An N-D tensor is tilized as its (prod(leading dims) * rows, cols) matrix, a 1-D one as row 0 of a tile row,
    # each padded as InferTTLayout lays it out (host_layout); a row-major tensor is uploaded and read back as it is.
    tile = plan[PLAN.DEVICE][DEVICE.TILE]
    tensors = []
    for t in plan[PLAN.TENSORS]:
        local = host_layout(t, tile)
        layout = global_layout(plan, t, local)  # on a mesh: the whole tensor the host holds
        elem_bytes = (device.DATA_FORMATS[t[TENSOR.DTYPE]][1] if TENSOR.DRAM_FORMAT in t  # pages of block floats
                      else t[TENSOR.PAGE_BYTES] * t[TENSOR.PAGES] // local[HOST_TENSOR.PADDED_ELEMS])
        ctype = host_args.HOST_INT_TYPES.get(t[TENSOR.DTYPE]) or HOST_TYPES[elem_bytes]
        fill = t[TENSOR.CONSTANT][TENSOR_CONSTANT.VALUE] if TENSOR.CONSTANT in t else t.get(TENSOR.PAD_VALUE, 0.0)
        bits = host_args.element_bits(fill, t[TENSOR.DTYPE])  # main.cpp reads it from tt.host_args
        tensors.append({**t, **layout, HOST_TENSOR.CTYPE: ctype, HOST_TENSOR.FILL: bits,
                        HOST_TENSOR.MASK: _mask_fill(t)})
    names, semaphores = [t[TENSOR.NAME] for t in tensors], host_args.semaphore_names(plan[PLAN.SEMAPHORES])
    rows = {role: host_args.runtime_rows(k[KERNEL.RUNTIME_ARG_VALUES], names, semaphores)
            for role, k in role_kernels(plan).items()}
    text = templates().get_template(template).render(
        plan=plan, host_api=plan[PLAN.DEVICE][DEVICE.HOST_API], roles=KERNEL_ROLES,
        tensors=tensors, inputs=[t for t in tensors if t[TENSOR.ROLE] in ("input", "inout")],
        outputs=[t for t in tensors if t[TENSOR.ROLE] in ("output", "inout")], runtime_rows=rows,
        kinds=host_args.ARG_KINDS, host_scalar=args.scalar, host_list=args.list, host_rows=args.rows,
        host_layout=args.layout, host_value=args.value, block_float=device.DRAM_FORMAT_HOST,
        cb_fields=host_args.CB_FIELDS, cb_rows=host_args.cb_rows(plan[PLAN.CBS]),
        cb_notes=host_args.cb_notes(plan[PLAN.CBS]), data_formats=host_args.DATA_FORMAT_VALUES,
        math_fidelities=host_args.MATH_FIDELITIES)
    return text


@dataclass
class MetaliumProgram:
    """The artifacts of one kernel (file name -> text) and its plan; runnable in the emulator."""

    plan: Plan
    files: dict[str, str]
    params: list[Any]
    last_report: dict[str, Any] = field(default_factory=dict)

    @property
    def source(self) -> str:
        """All files, each under a `// ==== name ====` line (what kernel_source shows)."""
        return "".join(f"// ==== {name} ====\n{text}\n" for name, text in self.files.items())

    def save(self, directory: str | Path) -> Path:
        """Check the plan against its schema, then write every artifact into `directory` (created if missing);
        returns it."""
        validate_plan(self.plan)
        return self._write(directory)

    def _write(self, directory: str | Path) -> Path:
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for name, text in self.files.items():
            target = out / name
            tmp = target.with_suffix(target.suffix + ".tmp")
            tmp.write_text(text, "utf-8")
            tmp.replace(target)
        return out

    def run(self, arrays: Sequence[Any], workdir: str | Path | None = None,
            timeout: float | None = None) -> dict[str, Any]:
        """Run in the emulator: inputs are read from `arrays` (in parameter order), outputs written back into
        them in place. Returns the emulator's report (status, counters per core and in total). `timeout`: seconds
        the run may take (default: $TT_EMU_TIMEOUT, else 600); past it the emulator names the kernels still running
        (core, role, last API call)."""
        with tempfile.TemporaryDirectory(prefix="tt_run_") as tmp:
            root = Path(workdir) if workdir is not None else Path(tmp)
            kernel_dir = self._write(root)  # the hot path: the plan's schema is checked by tests and save()
            data = kernel_dir / "data"
            data.mkdir(exist_ok=True)
            for t in self.plan[PLAN.TENSORS]:
                if t[TENSOR.ROLE] in ("input", "inout") and TENSOR.CONSTANT not in t:  # main.cpp fills constants
                    np.ascontiguousarray(arrays[t[TENSOR.PARAMETER]]).tofile(data / f"{t[TENSOR.NAME]}.bin")
            profile = self.plan[PLAN.DEVICE][DEVICE.PROFILE]
            with emulator.host_program(kernel_dir / "main.cpp", profile) as exe:
                report = emulator.run(exe, [str(kernel_dir), str(data)], profile,
                                      report=kernel_dir / "tt.report.json", timeout=timeout,
                                      env={"TT_EMU_DEVICE": self.plan[PLAN.DEVICE][DEVICE.NAME]})
            for t in self.plan[PLAN.TENSORS]:
                if t[TENSOR.ROLE] in ("output", "inout"):
                    target = arrays[t[TENSOR.PARAMETER]]
                    target[...] = np.fromfile(data / f"{t[TENSOR.NAME]}.bin", dtype=target.dtype).reshape(target.shape)
        self.last_report = report
        return report

    def __call__(self, *arrays: Any) -> dict[str, Any]:
        return self.run(arrays)


def metalium_program(device_mod: tvm.IRModule, params: Sequence[Any], kernel: str = "main") -> MetaliumProgram:
    """Reader/compute/writer C++, main.cpp, CMakeLists.txt, run_ttnn.py (where ttnn can run it) and tt.plan.json of
    a lowered module."""
    plan = build_plan(device_mod, params, kernel)  # checked against its schema by save() and the tests
    files: dict[str, str] = {}
    by_role = sorted(device_mod.functions.items(),
                     key=lambda kv: KERNEL_ROLES.index(get_attr(kv[1], attr_keys.TT_KERNEL_ROLE)))
    for gvar, func in by_role:
        role = get_attr(func, attr_keys.TT_KERNEL_ROLE)
        source = kernel_source(func, gvar.name_hint, plan[PLAN.DEVICE][DEVICE.PROFILE])
        files[FILES[role]] = source.text
        if source.defines:  # e.g. the 2025 reduce.h's template defaults name REDUCE_OP / REDUCE_DIM
            plan[PLAN.KERNELS][role][KERNEL.DEFINES] = dict(source.defines)  # type: ignore[literal-required]
    args = host_args.HostArgs(kernel)
    files["main.cpp"] = render_host(plan, "main.cpp.j2", args)
    files[host_args.FILE] = args.text()
    files["CMakeLists.txt"] = render_host(plan, "CMakeLists.txt.j2")
    if unsupported(plan) is None:
        files[SCRIPT] = render_ttnn(plan)
    files["tt.plan.json"] = json.dumps(plan, indent=1) + "\n"
    return MetaliumProgram(plan, files, list(params))
