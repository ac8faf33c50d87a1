"""Schema-valid spec files -> the frozen model (with `foreach` expansion and family defaults)."""

from __future__ import annotations

import dataclasses
import itertools
import re
from typing import Any

from . import ir_nodes
from .build_pass import build_pass
from .devices import check_devices, device_records, link_records, system_records
from .diagnostics import Diagnostics
from .expressions import did_you_mean
from .language import build_language
from .loader import SpecFile
from .model import (
    DEFAULT_RUNTIME,
    PROCESSOR_CLASS,
    Arg,
    Backend,
    CppSpelling,
    Intrinsic,
    Pipeline,
    PipelineStep,
    Profile,
    Protocol,
    ProtocolParam,
    ProtocolStep,
    SpecSet,
    Target,
)
from .op_map import OpMap, build_op_map
from .records import build_records

IDENTIFIER = re.compile(r"^[a-z_][a-z0-9_]*$")
IDENTIFIER_MAX = 64  # maxLength of defs.schema.json#/$defs/identifier
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _items(mapping: dict[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((mapping or {}).items()))


def _expand(record: dict[str, Any], spec: SpecFile, where: tuple[str | int, ...],
            diagnostics: Diagnostics) -> list[dict[str, Any]]:
    """One record per `foreach` value, with {placeholder} replaced in every string."""
    foreach: dict[str, list[str]] = record.get("foreach", {})
    used = set(PLACEHOLDER.findall(record["name"]))
    unknown = used - set(foreach)
    if unknown:
        diagnostics.error(spec.at(where + ("name",)),
                          f"name uses placeholder {{{sorted(unknown)[0]}}} but 'foreach' does not define it")
        return []
    if foreach and not used:
        diagnostics.error(spec.key_at(where + ("foreach",)),
                          "'foreach' is set but the name uses none of its placeholders")
        return []
    keys = sorted(foreach)
    out = []
    for values in itertools.product(*(foreach[k] for k in keys)):
        binding = dict(zip(keys, values, strict=True))
        out.append(_substitute({k: v for k, v in record.items() if k != "foreach"}, binding))
    return out


def _substitute(value: Any, binding: dict[str, str]) -> Any:
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda m: binding.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [_substitute(v, binding) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, binding) for k, v in value.items()}
    return value


def _intrinsics(spec: SpecFile, diagnostics: Diagnostics) -> list[Intrinsic]:
    data = spec.data
    family = data["family"]
    defaults = data.get("defaults", {})
    default_headers: dict[str, dict[str, str]] = defaults.get("headers", {})
    result = []
    for index, raw in enumerate(data["intrinsics"]):
        where: tuple[str | int, ...] = ("intrinsics", index)
        for record in _expand(raw, spec, where, diagnostics):
            location = spec.at(where)
            name = record["name"]
            if not IDENTIFIER.match(name):
                diagnostics.error(spec.at(where + ("name",)), f"expanded name '{name}' is not a valid identifier")
                continue
            if len(name) > IDENTIFIER_MAX:
                diagnostics.error(spec.at(where + ("name",)), f"expanded name '{name}' is too long "
                                  f"({len(name)} characters; at most {IDENTIFIER_MAX})")
                continue
            missing = [key for key in ("level", "roles", "effect") if key not in record and key not in defaults]
            for key in missing:
                diagnostics.error(location, f"intrinsic '{name}' has no '{key}' "
                                            "(set it on the record or in the family 'defaults')")
            if missing:
                continue
            seen: set[str] = set()
            for position, arg in enumerate(record.get("args", [])):
                if arg["name"] in seen:
                    diagnostics.error(spec.at(where + ("args", position, "name")),
                                      f"intrinsic '{name}' has two arguments named '{arg['name']}'")
                seen.add(arg["name"])
            roles = tuple(record.get("roles", defaults.get("roles")))
            processors = {PROCESSOR_CLASS[role] for role in roles}
            profiles = record.get("profiles", defaults.get("profiles", []))
            overrides: dict[str, dict[str, Any]] = record.get("cpp", {})
            stray = sorted(set(overrides) - set(profiles))
            if stray:
                diagnostics.error(spec.key_at(where + ("cpp", stray[0])),
                                  f"'cpp' overrides profile '{stray[0]}' but '{name}' is not offered in it "
                                  "(add it to 'profiles')")
                continue
            listed = where + ("profiles",) if "profiles" in record else ("defaults", "profiles")
            cpp = tuple(
                CppSpelling(
                    profile=profile,
                    spelling=entry.get("spelling", name),
                    headers=tuple((cls, header) for cls, header
                                  in _items(entry.get("headers", default_headers.get(profile, {})))
                                  if cls in processors),
                    note=entry.get("note", ""),
                    template_args=tuple(entry.get("template_args", [])),
                    form=entry.get("form", "call"),
                    defines=tuple(sorted(entry.get("defines", {}).items())),
                    location=spec.key_at(where + ("cpp", profile)) if profile in overrides
                    else spec.at(listed + (profiles.index(profile),)),
                )
                for profile in sorted(profiles)
                for entry in [overrides.get(profile, {})]
            )
            result.append(Intrinsic(
                name=name,
                family=family,
                level=record.get("level", defaults.get("level")),
                doc=record["doc"],
                roles=roles,
                args=tuple(Arg(a["name"], a["type"], a["doc"], bool(a.get("const", False)))
                           for a in record.get("args", [])),
                returns=record.get("returns", defaults.get("returns", "void")),
                effect=record.get("effect", defaults.get("effect")),
                cpp=cpp,
                source=spec.path,
                location=location,
            ))
    return result


def _protocol_steps(spec: SpecFile, steps: list[dict[str, Any]],
                    where: tuple[str | int, ...]) -> tuple[ProtocolStep, ...]:
    out = []
    for i, step in enumerate(steps):
        here = where + (i,)
        kind = next(k for k in ("call", "repeat", "when", "use") if k in step)
        args = step.get("args", [] if kind == "call" else {})
        repeat = step.get("repeat", {})
        out.append(ProtocolStep(
            kind=kind,
            name=step.get("call", step.get("use", "")),
            args=tuple(args) if isinstance(args, list) else (),
            named_args=tuple(args.items()) if isinstance(args, dict) else (),
            bind=step.get("bind", ""),
            var=repeat.get("var", ""),
            expr=repeat["count"] if kind == "repeat" else step.get("when", ""),
            steps=_protocol_steps(spec, step.get("steps", []), here + ("steps",)),
            otherwise=_protocol_steps(spec, step.get("otherwise", []), here + ("otherwise",)),
            profiles=tuple(step.get("profiles", [])),
            doc=step.get("doc", ""),
            location=spec.at(here),
            has_args="args" in step,
        ))
    return tuple(out)


def _protocol(spec: SpecFile, diagnostics: Diagnostics) -> Protocol:
    data = spec.data
    for index, param in enumerate(data.get("params", [])):
        if "ops" in param and "choices" in param:
            diagnostics.error(spec.key_at(("params", index, "choices")), f"parameter '{param['name']}' has 'ops': its "
                              "choices are the op map's entries of that unit, so it lists no 'choices'")
    return Protocol(
        name=data["name"],
        doc=data["doc"],
        role=data.get("role", ""),
        params=tuple(ProtocolParam(p["name"], p["type"], p["doc"], tuple(p.get("choices", [])), p.get("ops", ""))
                     for p in data.get("params", [])),
        steps=_protocol_steps(spec, data["steps"], ("steps",)),
        source=spec.path,
        location=spec.at(("name",)),
    )


def _pipeline(spec: SpecFile) -> Pipeline:
    data = spec.data
    return Pipeline(
        name=data["name"],
        doc=data["doc"],
        provides=tuple(data.get("provides", [])),
        steps=tuple(
            PipelineStep(s.get("pass", ""), s.get("pipeline", ""), s.get("doc", ""), _items(s.get("options")),
                         spec.at(("steps", i)))
            for i, s in enumerate(data["steps"])
        ),
        source=spec.path,
        location=spec.at(("name",)),
    )


def _backend(spec: SpecFile) -> Backend:
    data = spec.data
    target = data["target"]
    default_device, devices = device_records(data)
    return Backend(
        name=data["name"],
        doc=data["doc"],
        target=Target(target["kind"], tuple(target.get("keys", [])),
                      tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in _items(target.get("attrs"))),
                      target.get("host", "")),
        pipeline=data.get("pipeline", ""),
        legalize=data.get("legalize", ""),
        split=data.get("split", ""),
        codegen=data.get("codegen", ""),
        runs_on=data.get("runs_on", "never"),
        profiles=tuple(
            Profile(name, p["doc"], p["kernel_entry"], p.get("tt_metal_commit", ""), data["name"],
                    spec.key_at(("api_profiles", name)), p.get("host_api", "mesh"), p.get("ttnn_wheel", ""),
                    p.get("ttnn_wheel_exact", True), p.get("ttnn_generic_op", False),
                    p.get("accessor_compile_time_args", 0), p.get("compute_entry_header", ""),
                    p.get("dprint", "stream"), p.get("sharded_l1_buffers", False))
            for name, p in sorted(data.get("api_profiles", {}).items())
        ),
        profile=data.get("api_profile", ""),
        device=devices.get(default_device, {}),
        devices=devices,
        systems=system_records(data),
        links=link_records(data),
        default_device=default_device,
        source=spec.path,
        location=spec.at(("name",)),
        pipeline_location=spec.at(("pipeline",)),
        legalize_location=spec.at(("legalize",)),
        profile_location=spec.at(("api_profile",)),
        tvm_pipeline=data.get("tvm_pipeline", "default"),
        extern_math=tuple(data.get("extern_math", [])),
        unsupported_tile_ops=tuple(sorted(data.get("unsupported_tile_ops", {}).items())),
        runtime=data.get("runtime", DEFAULT_RUNTIME),
        programs=data.get("programs", ""),
    )


def _with_op_choices(protocol: Protocol, op_maps: list[OpMap]) -> Protocol:
    """A protocol whose `ops` parameters have their choices: the op map's entries of that unit, then "none"."""
    def choices(param: ProtocolParam) -> tuple[str, ...]:
        names = dict.fromkeys(op.name for m in op_maps for op in m.ops if op.unit == param.ops)
        return (*names, "none")
    params = tuple(dataclasses.replace(p, choices=choices(p)) if p.ops else p for p in protocol.params)
    return dataclasses.replace(protocol, params=params)


# The tt::DataFormat enumerators the emulator's tile math implements (src/emulator/src/tile.cpp), with the bytes of
# one element: a device spec's data formats must be among them, with these sizes, or every kernel using the dtype
# would be misplanned or fail to build.
DATA_FORMAT_BYTES = {"Float16": 2, "Float16_b": 2, "Float32": 4, "Int32": 4, "UInt32": 4, "UInt16": 2, "UInt8": 1}
# tt::DataFormat values (tt_metal/api/tt-metalium/tt_backend_api_types.hpp) of the formats the emulator implements.
DATA_FORMAT_CODES = {"Float32": 0, "Float16": 1, "Float16_b": 5, "Int32": 8, "UInt16": 9, "UInt32": 24, "UInt8": 30}
# The block-float formats the emulator implements (src/emulator/src/bfp.cpp): (tt::DataFormat value, tile bytes).
BLOCK_FORMATS = {"Bfp8_b": (6, 1088), "Bfp4_b": (7, 576), "Bfp2_b": (15, 320)}


def _check_dram_formats(spec: SpecFile, device: dict[str, Any], diagnostics: Diagnostics) -> None:
    for name, entry in device.get("dram_formats", {}).items():
        where, fmt = ("device", "dram_formats", name), entry["format"]
        if fmt not in BLOCK_FORMATS:
            diagnostics.error(spec.at(where + ("format",)), f"DRAM format {name}: {fmt} is not a block-float format "
                              f"the emulator implements{did_you_mean(fmt, BLOCK_FORMATS)} (it implements "
                              f"{', '.join(BLOCK_FORMATS)})")
        elif (entry["code"], entry["tile_bytes"]) != BLOCK_FORMATS[fmt]:
            diagnostics.error(spec.at(where), f"DRAM format {name}: tt::DataFormat::{fmt} is {BLOCK_FORMATS[fmt][0]} "
                              f"and its tile {BLOCK_FORMATS[fmt][1]} bytes, not {entry['code']} and "
                              f"{entry['tile_bytes']}")


def _check_device(spec: SpecFile, diagnostics: Diagnostics) -> None:
    """Device facts that JSON Schema cannot relate to each other (all of them feed every Tenstorrent kernel)."""
    device = spec.data.get("device")
    if not isinstance(device, dict):
        return
    for dtype, entry in device["data_formats"].items():
        where = ("device", "data_formats", dtype)
        fmt, size = entry["format"], entry["bytes"]
        if fmt not in DATA_FORMAT_BYTES:
            diagnostics.error(spec.at(where + ("format",)), f"data format '{fmt}' of {dtype} is not a tt::DataFormat "
                              f"the emulator implements{did_you_mean(fmt, DATA_FORMAT_BYTES)} (it implements "
                              f"{', '.join(DATA_FORMAT_BYTES)})")
        elif size != DATA_FORMAT_BYTES[fmt]:
            diagnostics.error(spec.at(where + ("bytes",)), f"{dtype}: a {fmt} element is {DATA_FORMAT_BYTES[fmt]} "
                              f"bytes, not {size}")
        elif entry["code"] != DATA_FORMAT_CODES[fmt]:
            diagnostics.error(spec.at(where + ("code",)), f"{dtype}: tt::DataFormat::{fmt} is "
                              f"{DATA_FORMAT_CODES[fmt]}, not {entry['code']}")
    _check_dram_formats(spec, device, diagnostics)
    taken: dict[int, str] = {}
    for cls, (first, last) in device["cb_ranges"].items():
        where = ("device", "cb_ranges", cls)
        if first > last or last >= device["max_cbs"]:
            diagnostics.error(spec.at(where), f"CB range {cls} [{first}, {last}] must be ascending and below "
                              f"max_cbs ({device['max_cbs']})")
            continue
        clash = sorted({taken[i] for i in range(first, last + 1) if i in taken})
        if clash:
            diagnostics.error(spec.at(where), f"CB range {cls} [{first}, {last}] overlaps the {clash[0]} range")
        taken.update(dict.fromkeys(range(first, last + 1), cls))
    kernels = device["kernels"]
    if kernels["reader_processor"] == kernels["writer_processor"]:
        diagnostics.error(spec.at(("device", "kernels", "writer_processor")), "the reader and writer kernels run "
                          f"on the same processor ({kernels['writer_processor']}); a core runs one kernel per RISC-V")


def build_model(specs: list[tuple[str, SpecFile]], diagnostics: Diagnostics) -> SpecSet:
    """Build the model from (kind, spec) pairs that passed schema validation."""
    intrinsics: list[Intrinsic] = []
    families: list[tuple[str, str, str]] = []
    protocols, pipelines, backends, languages = [], [], [], []
    pass_specs, op_maps, record_sets = [], [], []
    nodes, keys = ir_nodes.collect(specs, diagnostics)
    for kind, spec in specs:
        if kind == "intrinsic":
            intrinsics.extend(_intrinsics(spec, diagnostics))
            families.append((spec.data["family"], spec.data["doc"], spec.path))
        elif kind == "protocol":
            protocols.append(_protocol(spec, diagnostics))
        elif kind == "pass":
            pass_specs.append(spec)
        elif kind == "pipeline":
            pipelines.append(_pipeline(spec))
        elif kind == "backend":
            backends.append(_backend(spec))
            _check_device(spec, diagnostics)
            check_devices(spec, diagnostics)
        elif kind == "language":
            languages.append(build_language(spec))
        elif kind == "op_map":
            op_maps.append(build_op_map(spec))
        elif kind == "record":
            record_sets.append(build_records(spec, diagnostics))
    protocols = [_with_op_choices(p, op_maps) for p in protocols]
    # Pass rules see the arguments of the intrinsics they name, so passes are built once all intrinsics are.
    by_name = {i.name: i for i in intrinsics}
    kinds = {rs.name: rs for rs in record_sets if rs.in_memory}  # the tile ops (specs/records/tile_ops.yaml)
    passes = [build_pass(spec, by_name, diagnostics, kinds) for spec in pass_specs]
    return SpecSet(
        intrinsics=tuple(sorted(intrinsics, key=lambda i: (i.name, i.location))),
        protocols=tuple(sorted(protocols, key=lambda p: (p.name, p.location))),
        passes=tuple(sorted(passes, key=lambda p: (p.name, p.location))),
        pipelines=tuple(sorted(pipelines, key=lambda p: (p.name, p.location))),
        backends=tuple(sorted(backends, key=lambda b: (b.name, b.location))),
        languages=tuple(sorted(languages, key=lambda lang: (lang.name, lang.location))),
        families=tuple(sorted(families)),
        ir_nodes=nodes,
        ir_keys=keys,
        op_maps=tuple(sorted(op_maps, key=lambda m: m.location)),
        record_sets=tuple(sorted(record_sets, key=lambda r: (r.name, r.location))),
        files=tuple(sorted(spec.path for _, spec in specs)),
    )

