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
    path: str  # relative to generated/
    template: str  # relative to templates/
    kinds: tuple[str, ...]  # spec kinds whose files are named in the banner


TEMPLATED_OUTPUTS: tuple[TemplatedOutput, ...] = (
    TemplatedOutput("tilelang/tenstorrent/intrinsics.py", "python/intrinsics.py.j2", ("intrinsic", "backend")),
    TemplatedOutput("tilelang/language/tt.py", "python/tt_namespace.py.j2", ("intrinsic",)),
    TemplatedOutput("docs/intrinsics.md", "docs/intrinsics.md.j2", ("intrinsic", "backend")),
)
