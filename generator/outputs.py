"""Which files the generator produces, from which template, out of which kinds of spec.

This table is the one place that maps templates to outputs (torchgen's `gen.py` plays this role).
"""

from __future__ import annotations

from dataclasses import dataclass

# The hand-written package modules (python/tilelang) are imported where they are edited, never copied: a rendered
# file must not have the path of one of them (checked by the writer's caller).
HANDWRITTEN_PACKAGE = "python/tilelang"
# The hand-written C++ hooks a pass spec's `hook` rule may name are declared here.
HOOKS_HEADER = "src/transform/engines.h"
# The frontend engine: the T.* tile ops of the language spec call its build_<primitive> functions.
FRONTEND_PACKAGE = "python/tilelang/language"

MANIFEST = ".manifest"


@dataclass(frozen=True)
class TemplatedOutput:
    path: str  # relative to generated/ ("{backend}" is the backend's name)
    template: str  # relative to templates/
    kinds: tuple[str, ...]  # spec kinds whose files are named in the banner
    # "backend": one file per backend that lowers; "language": one per language spec (0 or 1);
    # "api_header": one per (API profile, Metalium header) named by the intrinsic specs;
    # "device_backend": one for the backend with a `device` section, none without; "pass": one per pass spec.
    each: str = ""
    files: tuple[str, ...] = ()  # project files (relative to the root) the template gets as `files[path]` text
    # The banner names the folders of its specs ("specs/passes/*.yaml"), not each file: for the C++ headers the
    # hand-written engines include, so that a spec added to a folder (a pass, a baked backend) leaves them
    # unchanged unless it changes what they declare, and the compiler cache keeps every engine's object.
    banner_folders: bool = False


TEMPLATED_OUTPUTS: tuple[TemplatedOutput, ...] = (
    TemplatedOutput("tilelang/tenstorrent/intrinsics.py", "python/intrinsics.py.j2", ("intrinsic", "backend")),
    TemplatedOutput("tilelang/_intrinsic_table.py", "python/intrinsic_table.py.j2", ()),
    TemplatedOutput("tilelang/language/tt.py", "python/tt_namespace.py.j2", ("intrinsic",)),
    TemplatedOutput("tilelang/language/__init__.py", "python/language.py.j2", ("language",), each="language"),
    TemplatedOutput("tilelang/language/dtypes.py", "python/language_dtypes.py.j2", ("language",),
                    each="language"),
    TemplatedOutput("tilelang/tenstorrent/device.py", "python/device.py.j2", ("backend",), each="device_backend"),
    TemplatedOutput("tilelang/transform/__init__.py", "python/transform.py.j2", ("pass",)),
    TemplatedOutput("tilelang/engine/pass_options.py", "python/pass_options.py.j2", ("pass",)),
    TemplatedOutput("tilelang/engine/pipelines.py", "python/pipelines.py.j2", ("pipeline",)),
    TemplatedOutput("tilelang/engine/registry.py", "python/registry.py.j2", ("backend",)),
    TemplatedOutput("tilelang/engine/{backend}/__init__.py", "python/backend_init.py.j2", (), each="backend"),
    TemplatedOutput("tilelang/engine/{backend}/lower.py", "python/backend_lower.py.j2", (), each="backend"),
    TemplatedOutput("emulator/include/{profile}/{header}", "emulator/api_header.h.j2",
                    ("intrinsic",), each="api_header"),
    TemplatedOutput("emulator/profile.cmake", "emulator/profile.cmake.j2", (), each="device_backend"),
    TemplatedOutput("tilelang/tenstorrent/plan_schema.py", "python/plan_schema.py.j2", ("record",)),
    TemplatedOutput("tilelang/tenstorrent/records.py", "python/records.py.j2", ("record",)),
    TemplatedOutput("cpp/records.h", "cpp/records.h.j2", ("record",), banner_folders=True),
    TemplatedOutput("emulator/include/tt_emu/records.hpp", "cpp/records.h.j2", ("record",), banner_folders=True),
    TemplatedOutput("emulator/include/tt_emu/counters.hpp", "emulator/counters.hpp.j2", ("record",),
                    banner_folders=True),
    TemplatedOutput("cpp/passes/{pass}.cc", "cpp/pass.cc.j2", (), each="pass"),
    TemplatedOutput("cpp/protocols.cc", "cpp/protocols.cc.j2", ("protocol", "op_map")),
    TemplatedOutput("cpp/intrinsics.cc", "cpp/intrinsics.cc.j2", ("intrinsic",)),
    TemplatedOutput("cpp/intrinsics.h", "cpp/intrinsics.h.j2", ("intrinsic",), banner_folders=True),
    TemplatedOutput("cpp/device.cc", "cpp/device.cc.j2", ("backend",), each="device_backend"),
    TemplatedOutput("cpp/eltwise_ops.h", "cpp/eltwise_ops.h.j2", ("op_map",), banner_folders=True),
    TemplatedOutput("cpp/eltwise_ops.cc", "cpp/eltwise_ops.cc.j2", ("op_map",)),
    TemplatedOutput("emulator/include/tt_emu/sfpu_ops.hpp", "emulator/sfpu_ops.hpp.j2", ("op_map",)),
    TemplatedOutput("emulator/include/tt_emu/device_facts.hpp", "emulator/device_facts.hpp.j2", ("backend",),
                    each="device_backend"),
    TemplatedOutput("emulator/include/tt_emu/noc_endpoints.hpp", "emulator/noc_endpoints.hpp.j2", ("backend",),
                    each="device_backend"),
    TemplatedOutput("emulator/include/tt_emu/preludes.hpp", "emulator/preludes.hpp.j2", ("intrinsic",)),
    TemplatedOutput("cpp/ir_nodes.h", "cpp/ir_nodes.h.j2", ("ir",), banner_folders=True),
    TemplatedOutput("cpp/attr_keys.h", "cpp/attr_keys.h.j2", ("ir", "pass"), banner_folders=True),
    TemplatedOutput("cpp/engine_names.h", "cpp/engine_names.h.j2", ()),
    TemplatedOutput("cpp/engine_decls.h", "cpp/engine_decls.h.j2", ()),
    TemplatedOutput("tilelang/tenstorrent/attr_keys.py", "python/attr_keys.py.j2", ("ir", "pass")),
    TemplatedOutput("tilelang/tenstorrent/roles.py", "python/roles.py.j2", ()),
    TemplatedOutput("docs/intrinsics.md", "docs/intrinsics.md.j2", ("intrinsic", "backend")),
    TemplatedOutput("docs/passes.md", "docs/passes.md.j2", ("pass", "pipeline", "backend")),
    TemplatedOutput("docs/eltwise_ops.md", "docs/eltwise_ops.md.j2", ("op_map",)),
    TemplatedOutput("docs/records.md", "docs/records.md.j2", ("record",)),
    TemplatedOutput("docs/language.md", "docs/language.md.j2", ("language",), each="language"),
    TemplatedOutput("tilelang/pass_config_key.py", "python/pass_config_key.py.j2", ("language",), each="language"),
)
