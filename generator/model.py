"""The typed, frozen model that templates render. Built only from schema-valid specs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Location
from .ir_nodes import IrKey, IrNode
from .language import Language
from .op_map import EltwiseOp, OpMap
from .params import ParamValue
from .records import RecordSet

# Kernel role -> the processor class whose header declares a call (tt-metal compiles reader and
# writer kernels for the data-movement RISC-Vs and compute kernels for the three TRISCs).
PROCESSOR_CLASS = {"reader": "dataflow", "writer": "dataflow", "compute": "compute", "host": "host"}
# The kernels a Tenstorrent program is split into, in launch order.
KERNEL_ROLES = ("reader", "compute", "writer")

# Spec effect names -> tvm.tirx.CallEffectKind member names.
# Result types of the spec vocabulary -> TVM dtypes of the call expression (objects and addresses are handles).
TVM_RESULT_DTYPE = {
    "void": "void", "int32": "int32", "uint32": "uint32", "uint64": "uint64", "bool": "bool", "float32": "float32",
    "handle": "handle", "accessor": "handle", "l1_ptr": "handle", "data_format": "uint32",
}
TVM_EFFECT = {
    "expr_annotation": "ExprAnnotation",
    "pure": "Pure",
    "read_state": "ReadState",
    "update_state": "UpdateState",
    "opaque": "Opaque",
}


@dataclass(frozen=True)
class Arg:
    name: str
    type: str
    doc: str
    const: bool = False


@dataclass(frozen=True)
class CppSpelling:
    profile: str
    spelling: str
    headers: tuple[tuple[str, str], ...]  # (processor class, include path), sorted
    note: str
    template_args: tuple[str, ...]
    form: str  # "call", "braces", "cast", "member" or "subscript"
    location: Location
    defines: tuple[tuple[str, str], ...] = ()  # (macro, value), sorted: compile defines of a calling kernel

    def header_for(self, processor: str) -> str | None:
        return dict(self.headers).get(processor)


@dataclass(frozen=True)
class Intrinsic:
    name: str
    family: str
    level: str
    doc: str
    roles: tuple[str, ...]
    args: tuple[Arg, ...]
    returns: str
    effect: str
    cpp: tuple[CppSpelling, ...]
    source: str  # spec file
    location: Location

    @property
    def op_name(self) -> str:
        return f"tt.{self.name}"

    @property
    def profiles(self) -> tuple[str, ...]:
        """The API profiles that offer the call (those it has a spelling in)."""
        return tuple(c.profile for c in self.cpp)

    @property
    def tvm_effect(self) -> str:
        return TVM_EFFECT[self.effect]

    @property
    def tvm_dtype(self) -> str:
        """The TVM dtype of a call's result (what both renderings of the passes build calls with)."""
        return TVM_RESULT_DTYPE[self.returns]

    @property
    def processors(self) -> tuple[str, ...]:
        return tuple(sorted({PROCESSOR_CLASS[role] for role in self.roles}))

    def spelling_in(self, profile: str) -> CppSpelling | None:
        return next((c for c in self.cpp if c.profile == profile), None)


@dataclass(frozen=True)
class Profile:
    name: str
    doc: str
    kernel_entry: str
    tt_metal_commit: str
    backend: str
    location: Location
    host_api: str = "mesh"
    ttnn_wheel: str = ""  # the ttnn wheel whose device headers match the profile
    ttnn_wheel_exact: bool = True  # false: the closest wheel the index has, not the profile's own
    ttnn_generic_op: bool = False  # the wheel has ttnn.generic_op: run_ttnn.py is written
    accessor_compile_time_args: int = 0  # compile-time arguments of one interleaved tensor accessor
    compute_entry_header: str = ""  # namespace_main: the header defining NAMESPACE and MAIN
    dprint: str = "stream"  # the kernel debug print: 'stream' (DPRINT << x) or 'format' (DPRINT(format, ...))
    sharded_l1_buffers: bool = False  # DeviceLocalBufferConfig::sharding_args: l1_sharded tensors are written for it


@dataclass(frozen=True)
class ApiHeader:
    """One Metalium header of one API profile, as the emulator declares it: the calls the specs place in it."""

    profile: str
    path: str  # include path, e.g. api/compute/matmul.h
    processor: str  # "dataflow" | "compute" | "host"
    entries: tuple[tuple[Intrinsic, CppSpelling], ...]  # sorted by intrinsic name


@dataclass(frozen=True)
class ProtocolStep:
    """One step of a protocol: a call, a repeat (loop), a when (condition) or the use of another protocol."""

    kind: str  # "call" | "repeat" | "when" | "use"
    name: str  # call: intrinsic name (may hold {param} placeholders); use: protocol name
    args: tuple[Any, ...]  # call: positional argument expressions
    named_args: tuple[tuple[str, Any], ...]  # use: parameter -> expression
    bind: str  # call: name given to the result
    var: str  # repeat: loop variable
    expr: Any  # repeat: count; when: condition
    steps: tuple[ProtocolStep, ...]
    otherwise: tuple[ProtocolStep, ...]
    profiles: tuple[str, ...]
    doc: str
    location: Location
    has_args: bool


@dataclass(frozen=True)
class ProtocolParam:
    name: str
    type: str
    doc: str
    choices: tuple[str, ...]  # with `ops`: the names of the op map's entries of that unit, then "none"
    ops: str = ""  # a unit of the op map (specs/ops) whose entries the parameter names


@dataclass(frozen=True)
class Protocol:
    name: str
    doc: str
    role: str
    params: tuple[ProtocolParam, ...]
    steps: tuple[ProtocolStep, ...]
    source: str
    location: Location

    def walk(self) -> tuple[ProtocolStep, ...]:
        """Every step, nested ones included, in order."""
        out: list[ProtocolStep] = []

        def visit(steps: tuple[ProtocolStep, ...]) -> None:
            for step in steps:
                out.append(step)
                visit(step.steps)
                visit(step.otherwise)

        visit(self.steps)
        return tuple(out)


@dataclass(frozen=True)
class Attribute:
    key: str
    type: str
    doc: str
    optional: bool
    location: Location


# T.* names the frontend engine itself provides (the language's constructs, not facts of a spec); the
# language template exports them and no language spec may redefine them.
FRONTEND_CONSTRUCTS = ("Buffer", "Kernel", "Parallel", "Pipelined", "Tensor", "TileLangError", "normalize_dtype",
                       "prim_func", "tt")

# Values a `tvm` rule argument may name instead of a literal (resolved when the pipeline runs).
CONTEXT_VALUES = {"$target": "target"}


@dataclass(frozen=True)
class Rule:
    kind: str
    doc: str
    transform: str
    module: str
    args: tuple[tuple[str, Any], ...]
    params: tuple[tuple[str, ParamValue], ...]  # engine rules: in the order of rules.ENGINES
    hook: str  # the C++ hook function (tl::hooks) of a hook rule
    location: Location

    @property
    def hook_function(self) -> str:
        return self.hook


@dataclass(frozen=True)
class Option:
    name: str
    type: str
    default: Any
    choices: tuple[Any, ...]
    doc: str
    length: int | None = None  # int_list: items of every value
    minimum: int | float | None = None  # int, float, int_list: the smallest value (of each item)
    at_most: str | None = None  # int, int_list: the device fact no value exceeds (item by item)
    location: Location | None = None  # of the option's default (or its name): where a default error points
    device_default: str | None = None  # int, int_list: the device fact (a device section key) that is the default
    key: str | None = None  # a pass_configs key that sets it too (tl.tt.dram_format), besides tl.<Pass>.<option>


@dataclass(frozen=True)
class Pass:
    name: str
    stage: str
    doc: str
    options: tuple[Option, ...]
    reads: tuple[Attribute, ...]
    writes: tuple[Attribute, ...]
    requires: tuple[str, ...]
    rules: tuple[Rule, ...]
    source: str
    location: Location
    requires_location: Location

    @property
    def context_args(self) -> tuple[str, ...]:
        """Run-time values (such as the target) the pass constructor needs."""
        names = {CONTEXT_VALUES[v] for r in self.rules for _, v in r.args if isinstance(v, str) and v in CONTEXT_VALUES}
        return tuple(sorted(names))


@dataclass(frozen=True)
class PipelineStep:
    pass_name: str  # "" when the step reuses a pipeline
    pipeline: str
    doc: str
    options: tuple[tuple[str, Any], ...]
    location: Location


@dataclass(frozen=True)
class Pipeline:
    name: str
    doc: str
    provides: tuple[str, ...]
    steps: tuple[PipelineStep, ...]
    source: str
    location: Location


@dataclass(frozen=True)
class Target:
    kind: str
    keys: tuple[str, ...]
    attrs: tuple[tuple[str, Any], ...]
    host: str


# The runtime of a backend spec without `runtime`: the one shared by TVM's code generators.
DEFAULT_RUNTIME = "tilelang.engine.tvm_runtime"


@dataclass(frozen=True)
class Backend:
    name: str
    doc: str
    target: Target
    pipeline: str
    legalize: str
    split: str
    codegen: str
    runs_on: str
    profiles: tuple[Profile, ...]
    profile: str
    device: dict[str, Any]  # hardware facts of the default device (Tenstorrent); {} when the backend declares none
    source: str
    location: Location
    pipeline_location: Location
    legalize_location: Location
    profile_location: Location
    tvm_pipeline: str = "default"
    extern_math: tuple[str, ...] = ()
    unsupported_tile_ops: tuple[tuple[str, str], ...] = ()  # (tile primitive, why the backend refuses it)
    programs: str = ""  # the pass that splits a function into one PrimFunc per T.Kernel launch ("": none)
    runtime: str = DEFAULT_RUNTIME  # the module implementing the runtime backend interface
    # Every device by name: the shared facts of the device section merged with its record (generator/devices.py).
    devices: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Systems of several chips by name: {chip: a device name, mesh: [rows, cols], source} (generator/devices.py).
    systems: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The links of a mesh by chip architecture (PCIe to the host, Ethernet between chips; generator/devices.py).
    links: dict[str, dict[str, Any]] = field(default_factory=dict)
    default_device: str = ""  # the device a plain target compiles for


@dataclass(frozen=True)
class SpecSet:
    """Everything the templates see. Collections are sorted by name for deterministic output."""

    intrinsics: tuple[Intrinsic, ...] = ()
    protocols: tuple[Protocol, ...] = ()
    passes: tuple[Pass, ...] = ()
    pipelines: tuple[Pipeline, ...] = ()
    backends: tuple[Backend, ...] = ()
    languages: tuple[Language, ...] = ()
    families: tuple[tuple[str, str, str], ...] = ()  # (family, doc, spec file)
    ir_nodes: tuple[IrNode, ...] = ()
    ir_keys: tuple[IrKey, ...] = ()
    op_maps: tuple[OpMap, ...] = ()
    record_sets: tuple[RecordSet, ...] = ()  # documents that cross a language boundary (tt.plan.json)
    files: tuple[str, ...] = field(default=())

    @property
    def eltwise_ops(self) -> tuple[EltwiseOp, ...]:
        """The entries of the op map, in the order the recogniser tries them."""
        return tuple(op for m in self.op_maps for op in m.ops)

    @property
    def context_passes(self) -> frozenset[str]:
        return frozenset(p.name for p in self.passes if p.context_args)

    @property
    def passes_with_options(self) -> frozenset[str]:
        return frozenset(p.name for p in self.passes if p.options)

    @property
    def lowering_backends(self) -> tuple[Backend, ...]:
        return tuple(b for b in self.backends if b.pipeline)

    def pipeline_passes(self, name: str) -> tuple[str, ...]:
        """The passes pipeline `name` runs, nested pipelines expanded."""
        pipeline = next(p for p in self.pipelines if p.name == name)
        out: list[str] = []
        for step in pipeline.steps:
            out.extend(self.pipeline_passes(step.pipeline) if step.pipeline else [step.pass_name])
        return tuple(out)

    @property
    def device_backend(self) -> Backend | None:
        """The backend whose `device` facts tilelang/tenstorrent/device.py renders."""
        return next((b for b in self.backends if b.device), None)

    @property
    def profiles(self) -> tuple[Profile, ...]:
        return tuple(sorted((p for b in self.backends for p in b.profiles), key=lambda p: p.name))

    @property
    def api_headers(self) -> tuple[ApiHeader, ...]:
        """Every (profile, header) the concrete intrinsics name, with the calls each declares."""
        found: dict[tuple[str, str, str], list[tuple[Intrinsic, CppSpelling]]] = {}
        for intrinsic in self.intrinsics:
            for spelling in intrinsic.cpp:
                for processor, path in spelling.headers:
                    found.setdefault((spelling.profile, path, processor), []).append((intrinsic, spelling))
        return tuple(ApiHeader(profile, path, processor, tuple(sorted(entries, key=lambda e: e[0].name)))
                     for (profile, path, processor), entries in sorted(found.items()))

    def sources(self, *kinds: str) -> tuple[str, ...]:
        """Spec files that define objects of the given kinds (for banners)."""
        groups: dict[str, tuple[Any, ...]] = {
            "intrinsic": self.intrinsics,
            "protocol": self.protocols,
            "pass": self.passes,
            "pipeline": self.pipelines,
            "backend": self.backends,
            "language": self.languages,
            "ir": self.ir_nodes,
            "op_map": self.op_maps,
            "record": self.record_sets,
        }
        return tuple(sorted({obj.source for kind in kinds for obj in groups[kind]}))
