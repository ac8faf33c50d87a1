"""Declarative pass rules run by the Tenstorrent engines: parameter shapes, checks, and Python rendering.

A rule `{kind: K, params: {...}}` becomes a call `engines.K(<pass name>, options=..., <params>)` in the
generated tilelang/transform module. Each parameter has a shape: a plain value, an expression (rendered
as a lambda over the names it uses), a map of expressions, a list of checks, rewrite cases, or persistent
modes. The table below is the one statement of which parameters each engine takes.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import expressions
from .model import Intrinsic

# Names every expression may use besides the context of its parameter.
COMMON_NAMES = ("device", "options")

# Fields of each recognised TileLang tile op (src/transform/tileops.cc) that lower_tiles cases see.
TILE_OP_FIELDS: dict[str, tuple[str, ...]] = {
    "copy_in": ("tensor", "row", "col", "rows", "cols", "row_tiles"),
    "copy_out": ("tensor", "row", "col", "rows", "cols", "row_tiles"),
    "copy_local": (),
    "fill": ("value", "tiles"),
    "gemm": ("mt", "nt", "kt", "k", "k_count"),
    "eltwise": ("binary", "sfpu", "tiles"),
}
TILE_OP_CONTEXT = ("out", "ins", "page_bytes", "partial", "absorbed")
KERNEL_FACTS = ("fp32_acc", "profile")
# What a multicast rule sees of a block read besides its arguments: the partition and the sharing direction.
MULTICAST_FACTS = ("partition_mode", "uniform", "cores_x", "cores_y", "along", "receivers")


@dataclass(frozen=True)
class Param:
    shape: str  # value | expr | expr_map | checks | cases | modes
    names: tuple[str, ...] = ()  # context names of expr/expr_map/checks
    required: bool = True


ENGINES: dict[str, dict[str, Param]] = {
    "annotate": {
        "attr": Param("value"),
        "foreach": Param("value"),
        "fields": Param("expr_map", ("buffer",)),
        "require": Param("checks", ("buffer",), required=False),
    },
    "partition": {
        "require": Param("checks", ("grid_x", "grid_y", "cores_x", "cores_y"), required=False),
        "auto_shard": Param("expr", ("grid_x", "grid_y", "cores_x", "cores_y"), required=False),
    },
    "persistent": {"modes": Param("modes")},
    "dataflow": {"depth": Param("expr_map", ("pages", "stages"))},
    "lower_tiles": {"cases": Param("cases")},
    "split": {"roles": Param("value")},
    "accessors": {
        "protocol": Param("value"),
        "args": Param("expr_map", ("tensor", "position", "address", "cb")),
        "address_arg": Param("expr", ("name",)),
    },
    "rewrite": {"cases": Param("cases"), "roles": Param("value", required=False)},
    "multicast": {
        "op": Param("value"),
        "tensor": Param("value"),
        "index": Param("value"),
        "emit": Param("value"),
        "when": Param("expr", MULTICAST_FACTS),
        "runtime_args": Param("expr_map", MULTICAST_FACTS + ("x", "y")),
        "semaphores": Param("value"),
        "args": Param("expr_map", MULTICAST_FACTS),
    },
    "compute_init": {
        "protocol": Param("value"),
        "families": Param("cases"),
        "operands": Param("cases"),
    },
    "finalize": {"order": Param("value")},
    "verify": {
        "structural": Param("value"),
        "balance": Param("value", required=False),
        "checks": Param("checks", ("cbs", "l1_bytes", "largest_cb", "runtime_args", "kernel"), required=False),
    },
}

Report = Callable[[str], None]


def _lambda(text: Any, allowed: tuple[str, ...] | None, report: Report) -> str:
    try:
        parsed = expressions.parse(text, None if allowed is None else allowed + COMMON_NAMES)
    except expressions.ExpressionError as exc:
        report(str(exc))
        return "None"
    names = sorted(parsed.names)
    head = ", ".join(names + ["**_"])
    return f"lambda {head}: {expressions.to_python(text)}"


def _expr_map(value: Any, allowed: tuple[str, ...] | None, report: Report, indent: str) -> str:
    if not isinstance(value, dict):
        report("expected a map of expressions")
        return "{}"
    items = [f"{indent}    {k!r}: {_lambda(v, allowed, report)}," for k, v in value.items()]
    return "{\n" + "\n".join(items) + f"\n{indent}}}" if items else "{}"


def _checks(value: Any, allowed: tuple[str, ...] | None, report: Report, indent: str) -> str:
    if not isinstance(value, list) or not all(isinstance(c, dict) and set(c) == {"expr", "error"} for c in value):
        report("expected a list of {expr, error} checks")
        return "()"
    rows = [f"{indent}    ({_lambda(c['expr'], allowed, report)}, {c['error']!r})," for c in value]
    return "(\n" + "\n".join(rows) + f"\n{indent})"


def check_rule(kind: str, params: dict[str, Any], intrinsics: dict[str, Intrinsic], report: Report) -> str:
    """Check one rule's parameters, reporting every problem found (what `render_rule_cpp` may assume)."""
    table = ENGINES[kind]
    for key in params:
        if key not in table:
            report(f"'{kind}' rules take no parameter '{key}' (parameters: {', '.join(table)})")
    # Expressions of a multicast rule also see the arguments of the op it replaces.
    op_args: tuple[str, ...] = ()
    if kind == "multicast":
        if params.get("op") not in intrinsics or params.get("emit") not in intrinsics:
            report(f"'multicast' rule names unknown intrinsic '{params.get('op')}' or '{params.get('emit')}'")
        else:
            op_args = tuple(a.name for a in intrinsics[params["op"]].args)
            for key in ("tensor", "index"):
                if key in params and params[key] not in op_args:
                    report(f"'{key}': '{params[key]}' is not an argument of '{params['op']}' "
                           f"(arguments: {', '.join(op_args)})")
    parts = []
    for key, param in table.items():
        if key not in params:
            if param.required:
                report(f"'{kind}' rule needs parameter '{key}'")
            continue
        value = params[key]
        indent = "        "
        names = param.names + op_args
        if param.shape == "value":
            text = repr(value)
        elif param.shape == "expr":
            text = _lambda(value, names, report)
        elif param.shape == "expr_map":
            text = _expr_map(value, names, report, indent)
        elif param.shape == "checks":
            text = _checks(value, param.names, report, indent)
        elif param.shape == "modes":
            text = _modes(value, report, indent)
        else:
            text = _cases(kind, key, value, intrinsics, report, indent)
        parts.append(f"{key}={text}")
    return ", ".join(parts)


def _modes(value: Any, report: Report, indent: str) -> str:
    if not isinstance(value, dict):
        report("'modes' must map a partition mode to {args, iterations, bindings}")
        return "{}"
    out = []
    for mode, spec in value.items():
        if not isinstance(spec, dict) or set(spec) != {"args", "iterations", "bindings"}:
            report(f"mode '{mode}' needs exactly 'args', 'iterations' and 'bindings'")
            continue
        args = tuple(spec["args"]) if isinstance(spec["args"], dict) else ()
        loop_names = args + ("i", "grid_x", "grid_y")
        inner = indent + "        "
        out.append(f"{indent}    {mode!r}: {{\n"
                   f"{inner}'args': {_expr_map(spec['args'], ('work',), report, inner)},\n"
                   f"{inner}'iterations': {_lambda(spec['iterations'], args, report)},\n"
                   f"{inner}'bindings': {_expr_map(spec['bindings'], loop_names, report, inner)},\n"
                   f"{indent}    }},")
    return "{\n" + "\n".join(out) + f"\n{indent}}}"


_CASE_KEYS = {"when", "require", "emit", "protocol", "set", "args", "drop", "doc"}


def _case_names(kind: str, key: str, subject: str, intrinsics: dict[str, Intrinsic],
                report: Report) -> tuple[str, ...] | None:
    if kind == "lower_tiles":
        if subject not in TILE_OP_FIELDS:
            report(f"unknown tile op '{subject}' (tile ops: {', '.join(TILE_OP_FIELDS)})")
            return None
        return TILE_OP_FIELDS[subject] + TILE_OP_CONTEXT
    record = intrinsics.get(subject)
    if record is None:
        report(f"'{key}' names unknown intrinsic '{subject}'")
        return None
    return tuple(a.name for a in record.args) + KERNEL_FACTS


def _cases(kind: str, key: str, value: Any, intrinsics: dict[str, Intrinsic], report: Report, indent: str) -> str:
    if not isinstance(value, dict):
        report(f"'{key}' must map an op to its cases")
        return "{}"
    out = []
    for subject, cases in value.items():
        names = _case_names(kind, key, subject, intrinsics, report)
        if key in ("families",):
            out.append(f"{indent}    {subject!r}: {_lambda(cases, names, report)},")
            continue
        if key == "operands":
            out.append(f"{indent}    {subject!r}: {_expr_map(cases, names, report, indent + '    ')},")
            continue
        rows = []
        for case in cases if isinstance(cases, list) else [cases]:
            if not isinstance(case, dict):
                report(f"a case of '{subject}' must be a mapping, got {case!r}")
                continue
            if set(case) - _CASE_KEYS:
                report(f"a case of '{subject}' has unknown keys: {', '.join(sorted(set(case) - _CASE_KEYS))}")
                continue
            fields = []
            if "when" in case:
                fields.append(f"'when': {_lambda(case['when'], names, report)}")
            if "require" in case:
                fields.append(f"'require': {_checks(case['require'], names, report, indent + '        ')}")
            for target in ("emit", "protocol"):
                if target in case:
                    fields.append(f"{target!r}: {case[target]!r}")
            for mapping in ("args", "set"):
                if mapping in case:
                    fields.append(f"{mapping!r}: {_expr_map(case[mapping], names, report, indent + '        ')}")
            rows.append(f"{indent}        {{{', '.join(fields)}}},")
        out.append(f"{indent}    {subject!r}: [\n" + "\n".join(rows) + f"\n{indent}    ],")
    return "{\n" + "\n".join(out) + f"\n{indent}}}"


# ------------------------------------------------------------------------------------------- C++ rendering
# The same rule parameters rendered as C++ arguments of the engines in src/transform/engines.h
# (positional, in the order of ENGINES above; an absent optional parameter takes the engine's default).

_CPP_DEFAULTS = {"value": "tl::Any(nullptr)", "expr": "std::nullopt", "checks": "tl::Checks{}",
                 "expr_map": "tl::ExprMap{}"}


def cpp_lambda(text: Any) -> str:
    return f"[](const tl::Ctx& c) -> tl::Any {{ return {expressions.to_cpp(text)}; }}"


def cpp_message(text: str) -> str:
    """A tl::Message: the literal text and `{name.field[index]}` fields of a Python format string."""
    pieces = []
    for literal, field, _spec, _conversion in string.Formatter().parse(text):
        name, path = "", []
        if field is not None:
            name, rest = _split_field(field)
            path = [expressions.cpp_literal(p) for p in rest]
        pieces.append(f"{{{expressions.cpp_string(literal)}, {expressions.cpp_string(name)}, "
                      f"{{{', '.join(path)}}}}}")
    return "tl::Message{{" + ", ".join(pieces) + "}}"


_FIELD_NAME = re.compile(r"[A-Za-z_0-9]*")
_FIELD_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]+)\]")


def _split_field(field: str) -> tuple[str, list[str | int]]:
    """'buffer.shape[0]' -> ('buffer', ['shape', 0]) (str.format's field grammar)."""
    match = _FIELD_NAME.match(field)
    name = match.group(0) if match else ""
    parts = _FIELD_STEP.findall(field[len(name):])
    path: list[str | int] = [a if a else (int(b) if b.isdigit() else b) for a, b in parts]
    return name, path


def _cpp_expr_map(value: Any, indent: str) -> str:
    if not isinstance(value, dict) or not value:
        return "tl::ExprMap{}"
    rows = [f"{indent}    {{{expressions.cpp_string(k)}, {cpp_lambda(v)}}}," for k, v in value.items()]
    return "tl::ExprMap{\n" + "\n".join(rows) + f"\n{indent}}}"


def _cpp_checks(value: Any, indent: str) -> str:
    if not isinstance(value, list) or not value:
        return "tl::Checks{}"
    rows = [f"{indent}    tl::Check{{{cpp_lambda(c['expr'])},\n{indent}              {cpp_message(c['error'])}}},"
            for c in value]
    return "tl::Checks{\n" + "\n".join(rows) + f"\n{indent}}}"


def _cpp_modes(value: dict[str, Any], indent: str) -> str:
    rows = []
    inner = indent + "        "
    for mode, spec in value.items():
        rows.append(f"{indent}    {{{expressions.cpp_string(mode)}, tl::Mode{{\n"
                    f"{inner}{_cpp_expr_map(spec['args'], inner)},\n"
                    f"{inner}{cpp_lambda(spec['iterations'])},\n"
                    f"{inner}{_cpp_expr_map(spec['bindings'], inner)},\n"
                    f"{indent}    }}}},")
    return "std::vector<std::pair<std::string, tl::Mode>>{\n" + "\n".join(rows) + f"\n{indent}}}"


def _cpp_cases(key: str, value: dict[str, Any], indent: str) -> str:
    if key == "families":
        rows = [f"{indent}    {{{expressions.cpp_string(s)}, {cpp_lambda(e)}}}," for s, e in value.items()]
        return "std::vector<std::pair<std::string, tl::Expr>>{\n" + "\n".join(rows) + f"\n{indent}}}"
    if key == "operands":
        rows = [f"{indent}    {{{expressions.cpp_string(s)}, {_cpp_expr_map(m, indent + '    ')}}},"
                for s, m in value.items()]
        return "std::vector<std::pair<std::string, tl::ExprMap>>{\n" + "\n".join(rows) + f"\n{indent}}}"
    rows = []
    inner = indent + "        "
    for subject, cases in value.items():
        items = []
        for case in cases if isinstance(cases, list) else [cases]:
            when = cpp_lambda(case["when"]) if "when" in case else "std::nullopt"
            require = _cpp_checks(case.get("require", []), inner + "    ")
            args = _cpp_expr_map(case["args"], inner + "    ") if "args" in case else "std::nullopt"
            sets = _cpp_expr_map(case["set"], inner + "    ") if "set" in case else "std::nullopt"
            items.append(f"{inner}tl::Case{{{when},\n{inner}    {require},\n"
                         f"{inner}    {expressions.cpp_string(case.get('emit', ''))}, "
                         f"{expressions.cpp_string(case.get('protocol', ''))},\n"
                         f"{inner}    {args},\n{inner}    {sets}}},")
        rows.append(f"{indent}    {{{expressions.cpp_string(subject)}, {{\n" + "\n".join(items)
                    + f"\n{indent}    }}}},")
    return "tl::Cases{\n" + "\n".join(rows) + f"\n{indent}}}"


def render_rule_cpp(kind: str, params: dict[str, Any]) -> str:
    """C++ arguments of the engine call for one rule (after the pass name and options). The rule was checked
    by `render_rule`; this only renders."""
    table = ENGINES[kind]
    table_keys = list(table)
    last = max((table_keys.index(k) for k in table_keys if k in params), default=-1)
    indent = "        "
    parts = []
    for key in table_keys[:last + 1]:
        param = table[key]
        if key not in params:
            parts.append(_CPP_DEFAULTS[param.shape])
            continue
        value = params[key]
        if param.shape == "value":
            parts.append(expressions.cpp_literal(value))
        elif param.shape == "expr":
            parts.append(cpp_lambda(value))
        elif param.shape == "expr_map":
            parts.append(_cpp_expr_map(value, indent))
        elif param.shape == "checks":
            parts.append(_cpp_checks(value, indent))
        elif param.shape == "modes":
            parts.append(_cpp_modes(value, indent))
        else:
            parts.append(_cpp_cases(key, value, indent))
    return ", ".join(parts)
