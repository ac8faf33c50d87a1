"""Record types of the generated intrinsic table (tilelang/tenstorrent/intrinsics.py)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Arg:
    name: str
    type: str
    const: bool = False


@dataclass(frozen=True)
class Spelling:
    """How one Metalium API profile writes a call."""

    callee: str
    headers: tuple[tuple[str, str], ...] = ()
    form: str = "call"  # "call": callee(args); "braces": callee{args}
    template_args: tuple[str, ...] = ()

    def header_for(self, role: str) -> str | None:
        """The header declaring the call for a kernel of `role` (headers are keyed by processor class)."""
        from .tenstorrent.roles import PROCESSOR_CLASS  # generated next to the table that imports this module

        return dict(self.headers).get(PROCESSOR_CLASS[role])


@dataclass(frozen=True)
class Profile:
    name: str
    kernel_entry: str  # "kernel_main" | "namespace_main"
    tt_metal_commit: str
    doc: str
    host_api: str = "mesh"  # "mesh" | "device": the host API main.cpp is written against


@dataclass(frozen=True)
class Intrinsic:
    name: str
    family: str
    level: str  # "abstract" (lowered by passes) or "concrete" (a Metalium call)
    roles: tuple[str, ...]
    args: tuple[Arg, ...]
    returns: str
    effect: str  # tvm.tirx.CallEffectKind member name
    dtype: str  # TVM dtype of the call's result (from the result type)
    op_name: str  # the TVM op a call invokes
    cpp: dict[str, Spelling] = field(default_factory=dict)
    doc: str = ""
