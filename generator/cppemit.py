"""Protocol specs -> C++ functions that build TIR through the runtime `tl::Builder`.

Each protocol becomes `tl::Dict <name>(tl::Builder& b, const tl::Ctx& a)`: its parameters are read from `a`
into locals `v_<param>`, every name it binds is declared up front (a bind under a profile guard is used by
later steps, as in Python's function scope), `repeat` and `when` take lambdas, and the function returns the
values its top-level steps bound.
"""

from __future__ import annotations

import re
from typing import Any

from . import expressions
from .expressions import cpp_string
from .model import Protocol, ProtocolStep
from .naming import cpp_comment
from .op_map import unit_enum

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?:\.(init|tile))?\}")


def protocol_declaration(protocol: Protocol) -> str:
    return f"static tl::Dict {protocol.name}(tl::Builder& b, const tl::Ctx& a);"


def protocol_function(protocol: Protocol) -> str:
    lines = [cpp_comment(" ".join(protocol.doc.split())),
             f"static tl::Dict {protocol.name}(tl::Builder& b, const tl::Ctx& a) {{"]
    for p in protocol.params:
        lines.append(f"  const tl::Any v_{p.name} = a.get({cpp_string(p.name)});")
    for p in protocol.params:
        if p.choices:
            choices = ", ".join(cpp_string(c) for c in p.choices)
            lines.append(f"  tl::fn::check_choice({cpp_string(p.name)}, v_{p.name}, {{{choices}}});")
    binds = sorted({s.bind for s in protocol.walk() if s.kind == "call" and s.bind})
    if binds:
        lines.append(f"  tl::Any {', '.join('v_' + b for b in binds)};")
    lines.append("  tl::Dict bound;")
    units = {p.name: p.ops for p in protocol.params if p.ops}
    lines += _steps(protocol.steps, 1, top=True, units=units)
    lines.append("  return bound;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _call_name(name: str, units: dict[str, str]) -> str:
    """The intrinsic name, with {param} placeholders filled from the parameters and {param.init} / {param.tile}
    from the op map's entry the parameter names."""
    parts: list[str] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(name):
        if m.start() > pos:
            parts.append(f"std::string({cpp_string(name[pos:m.start()])})")
        param, attr = m.group(1), m.group(2)
        if attr:
            unit = f"tl::eltwise::Unit::{unit_enum(units[param])}"
            parts.append(f"std::string(tl::eltwise::find({unit}, v_{param}).{attr})")
        else:
            parts.append(f"tl::format_value(v_{param})")
        pos = m.end()
    if pos < len(name):
        parts.append(f"std::string({cpp_string(name[pos:])})")
    return " + ".join(parts) if len(parts) > 1 else (parts[0] if parts else '""')


def _args(args: tuple[Any, ...]) -> str:
    return "{" + ", ".join(expressions.to_cpp(a, ctx="") for a in args) + "}"


def _steps(steps: tuple[ProtocolStep, ...], depth: int, top: bool, units: dict[str, str]) -> list[str]:
    pad = "  " * depth
    out: list[str] = []
    for step in steps:
        inner_depth = depth
        if step.doc:
            out.append(pad + cpp_comment(" ".join(step.doc.split())))
        if step.profiles:
            test = " || ".join(f"b.profile() == {cpp_string(p)}" for p in step.profiles)
            out.append(f"{pad}if ({test}) {{")
            inner_depth += 1
        ipad = "  " * inner_depth
        if step.kind == "call":
            name = _call_name(step.name, units)
            if step.bind:
                out.append(f"{ipad}v_{step.bind} = b.bind({cpp_string(step.bind)}, {name}, {_args(step.args)});")
                if top:
                    out.append(f"{ipad}bound.Set(tl::String({cpp_string(step.bind)}), v_{step.bind});")
            else:
                out.append(f"{ipad}b.call({name}, {_args(step.args)});")
        elif step.kind == "use":
            kwargs = ", ".join(f"{{{cpp_string(k)}, {expressions.to_cpp(v, ctx='')}}}" for k, v in step.named_args)
            out.append(f"{ipad}{step.name}(b, tl::Ctx{{{kwargs}}});")
        elif step.kind == "repeat":
            count = expressions.to_cpp(step.expr, ctx="")
            out.append(f"{ipad}b.repeat({cpp_string(step.var)}, {count}, [&](const tl::Any& v_{step.var}) {{")
            out += _steps(step.steps, inner_depth + 1, top=False, units=units)
            out.append(f"{ipad}}});")
        else:
            out.append(f"{ipad}b.when({expressions.to_cpp(step.expr, ctx='')}, [&] {{")
            out += _steps(step.steps, inner_depth + 1, top=False, units=units)
            out.append(f"{ipad}}});")
            if step.otherwise:
                out.append(f"{ipad}b.otherwise([&] {{")
                out += _steps(step.otherwise, inner_depth + 1, top=False, units=units)
                out.append(f"{ipad}}});")
        if step.profiles:
            out.append(f"{pad}}}")
    return out
