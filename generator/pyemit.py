"""Protocol specs -> Python source of functions that build TIR through the runtime `Builder`.

Each protocol becomes `def <name>(b, *, <params>) -> dict` appending its statements to `b`; `repeat` is a
`with b.repeat(...)` block, `when` a `with b.when(...)` block (folded when the condition is constant), `use`
a call of the other protocol's function, and `profiles` an `if b.profile in (...)` guard. The function
returns the values its top-level steps bound (for example the tensor accessor).
"""

from __future__ import annotations

import re

from . import expressions
from .model import Protocol, ProtocolStep

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def protocol_function(protocol: Protocol) -> str:
    params = ", ".join(p.name for p in protocol.params)
    lines = [f"def {protocol.name}(b: Builder, *, {params}) -> dict[str, Any]:" if params
             else f"def {protocol.name}(b: Builder) -> dict[str, Any]:"]
    doc = " ".join(protocol.doc.split()).replace('"""', "'''").replace("\\", "\\\\")
    lines.append(f'    """{doc}"""')
    for p in protocol.params:
        if p.choices:
            lines.append(f"    fn.check_choice({p.name!r}, {p.name}, {p.choices!r})")
    lines.append("    bound: dict[str, Any] = {}")
    lines += _steps(protocol.steps, 1, top=True)
    lines.append("    return bound")
    return "\n".join(lines) + "\n"


def _call_name(name: str) -> str:
    if _PLACEHOLDER.search(name):
        return "f" + repr(name)
    return repr(name)


def _steps(steps: tuple[ProtocolStep, ...], depth: int, top: bool) -> list[str]:
    pad = "    " * depth
    out: list[str] = []
    for step in steps:
        inner_depth = depth
        prefix: list[str] = []
        if step.doc:
            prefix.append(f"{pad}# {' '.join(step.doc.split())}")
        if step.profiles:
            prefix.append(f"{pad}if b.profile in {tuple(step.profiles)!r}:")
            inner_depth += 1
        ipad = "    " * inner_depth
        body: list[str] = []
        if step.kind == "call":
            args = "".join(", " + expressions.to_python(a) for a in step.args)
            if step.bind:
                target = f"bound[{step.bind!r}] = {step.bind}" if top else step.bind
                body.append(f"{ipad}{target} = b.bind({step.bind!r}, {_call_name(step.name)}{args})")
            else:
                body.append(f"{ipad}b.call({_call_name(step.name)}{args})")
        elif step.kind == "use":
            kwargs = ", ".join(f"{k}={expressions.to_python(v)}" for k, v in step.named_args)
            body.append(f"{ipad}{step.name}(b{', ' + kwargs if kwargs else ''})")
        elif step.kind == "repeat":
            count = expressions.to_python(step.expr)
            body.append(f"{ipad}with b.repeat({step.var!r}, {count}) as {step.var}:")
            body += _steps(step.steps, inner_depth + 1, top=False)
        else:
            body.append(f"{ipad}with b.when({expressions.to_python(step.expr)}):")
            body += _steps(step.steps, inner_depth + 1, top=False)
            if step.otherwise:
                body.append(f"{ipad}with b.otherwise():")
                body += _steps(step.otherwise, inner_depth + 1, top=False)
        out += prefix + body
    return out
