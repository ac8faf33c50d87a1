"""Which files the generator produces, from which template, out of which kinds of spec.

This table is the one place that maps templates to outputs (torchgen's `gen.py` plays this role).
"""

from __future__ import annotations

from dataclasses import dataclass

# Static, hand-written runtime files live under templates/<RUNTIME_DIR>/ and are copied unchanged
# (with a banner) to the same relative path under generated/.
RUNTIME_DIR = "runtime"

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


TEMPLATED_OUTPUTS: tuple[TemplatedOutput, ...] = (
    TemplatedOutput("tilelang/tenstorrent/intrinsics.py", "python/intrinsics.py.j2", ("intrinsic", "backend")),
    TemplatedOutput("tilelang/language/tt.py", "python/tt_namespace.py.j2", ("intrinsic",)),
    TemplatedOutput("tilelang/language/__init__.py", "python/language.py.j2", ("language",), each="language"),
    TemplatedOutput("tilelang/language/dtypes.py", "python/language_dtypes.py.j2", ("language",),
                    each="language"),
    TemplatedOutput("tilelang/tenstorrent/device.py", "python/device.py.j2", ("backend",), each="device_backend"),
    TemplatedOutput("tilelang/tenstorrent/protocols.py", "python/protocols.py.j2", ("protocol",)),
    TemplatedOutput("tilelang/transform/__init__.py", "python/transform.py.j2", ("pass",)),
    TemplatedOutput("tilelang/engine/pipelines.py", "python/pipelines.py.j2", ("pipeline",)),
    TemplatedOutput("tilelang/engine/registry.py", "python/registry.py.j2", ("backend",)),
    TemplatedOutput("tilelang/engine/{backend}/__init__.py", "python/backend_init.py.j2", (), each="backend"),
    TemplatedOutput("tilelang/engine/{backend}/lower.py", "python/backend_lower.py.j2", (), each="backend"),
    TemplatedOutput("tilelang/tenstorrent/emulator/include/{profile}/{header}", "emulator/api_header.h.j2",
                    ("intrinsic",), each="api_header"),
    TemplatedOutput("tilelang/tenstorrent/plan_schema.py", "python/plan_schema.py.j2", (),
                    files=("schema/tt_plan.schema.json",)),
    TemplatedOutput("tilelang/transform/cpp.py", "python/transform_cpp.py.j2", ("pass",)),
    TemplatedOutput("tilelang/cpp/passes/{pass}.cc", "cpp/pass.cc.j2", (), each="pass"),
    TemplatedOutput("tilelang/cpp/protocols.cc", "cpp/protocols.cc.j2", ("protocol",)),
    TemplatedOutput("tilelang/cpp/intrinsics.cc", "cpp/intrinsics.cc.j2", ("intrinsic",)),
    TemplatedOutput("tilelang/cpp/device.cc", "cpp/device.cc.j2", ("backend",), each="device_backend"),
    TemplatedOutput("docs/intrinsics.md", "docs/intrinsics.md.j2", ("intrinsic", "backend")),
    TemplatedOutput("docs/passes.md", "docs/passes.md.j2", ("pass", "pipeline", "backend")),
)
