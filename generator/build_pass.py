"""Pass specs -> the model: options checked against their type, rules with typed parameters (params.py).

Every spec expression and message of a rule is parsed and checked here, once, against the names its
parameter sees (rules.ENGINES); a problem is reported at the YAML node it comes from.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator
from typing import Any

from .device import DEVICE_FACT_NAMES
from .diagnostics import Diagnostics
from .engine_table import Param
from .expressions import ExpressionError, Message, Parsed, did_you_mean, parse, parse_message
from .loader import JsonPath, SpecFile
from .model import Attribute, Intrinsic, Option, Pass, Rule
from .params import (
    Case,
    Cases,
    Check,
    Checks,
    ExprMap,
    Mode,
    Modes,
    OpExpressionMaps,
    OpExpressions,
    ParamValue,
    Value,
)
from .records import RecordSet
from .rules import COMMON_NAMES, ENGINES, KERNEL_FACTS, MODE_LOOP, MODE_WORK
from .schema import show

# Option type -> (Python types of its values, how a message names it). A float option takes an int as well,
# as pass_configs does (python/tilelang/engine/pass_config.py).
OPTION_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "int": ((int,), "an int"), "float": ((int, float), "a float"), "bool": ((bool,), "a bool"),
    "string": ((str,), "a string"), "int_list": ((list,), "a list of ints"),
    "str_map": ((dict,), "a map of names to strings"),
}


def option_value_error(option_type: str, value: Any, length: int | None = None,
                       minimum: float | None = None) -> str | None:
    """Why `value` is no value of an option of `option_type` ('is not an int', ...) with the spec's `length` and
    `minimum`, or None."""
    types, name = OPTION_TYPES[option_type]
    # A Python bool is an int too; only a bool option takes one.
    ok = isinstance(value, types) and (option_type == "bool" or not isinstance(value, bool))
    if ok and option_type == "float" and not math.isfinite(value):
        return "is not a finite float"
    if ok and option_type == "int_list":
        ok = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if ok and option_type == "str_map":
        ok = all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())
    if not ok:
        return f"is not {name}"
    if option_type == "int_list" and length is not None and len(value) != length:
        return f"has {len(value)} item{'s' if len(value) != 1 else ''}, not {length}"
    items = value if option_type == "int_list" else [value] if option_type in ("int", "float") else []
    if minimum is not None and any(v < minimum for v in items):
        return f"is below the minimum {show(minimum)}"
    return None


def _option(spec: SpecFile, name: str, raw: dict[str, Any], diagnostics: Diagnostics) -> Option:
    where: JsonPath = ("options", name)
    kind = raw["type"]
    default, choices = raw.get("default"), list(raw.get("choices", []))
    checked = [(where + ("choices", i), choice, "choice") for i, choice in enumerate(choices)]
    if "default" in raw:
        checked.append((where + ("default",), default, "default"))
    wrong = set()
    length, minimum = raw.get("length"), raw.get("minimum")
    for key, applies in (("length", kind == "int_list"), ("minimum", kind in ("int", "float", "int_list")),
                         ("at_most", kind in ("int", "int_list")), ("device_default", kind in ("int", "int_list"))):
        if key in raw and not applies:
            diagnostics.error(spec.at(where + (key,)), f"option '{name}': '{key}' does not apply to a {kind} option")
    for path, value, what in checked:
        problem = option_value_error(kind, value, length, minimum)
        if problem:
            wrong.add(what)
            diagnostics.error(spec.at(path), f"option '{name}': {what} {show(value)} {problem}")
    if "default" in raw and choices and "default" not in wrong and default not in choices:
        diagnostics.error(spec.at(where + ("default",)), f"option '{name}': default {show(default)} is not one of "
                          f"its choices ({', '.join(map(show, choices))})")
    if kind == "float":  # the engines compute with a double, however the spec wrote the number
        default = _as_float(default)
        choices = [_as_float(c) for c in choices]
    if "device_default" in raw and "default" in raw:
        diagnostics.error(spec.at(where + ("device_default",)), f"option '{name}': give either 'default' or "
                          "'device_default' (the selected device's fact), not both")
    return Option(name, kind, default, tuple(choices), raw["doc"], length, minimum, raw.get("at_most"),
                  spec.at(where + (("default",) if "default" in raw else ())), raw.get("device_default"),
                  raw.get("key"))


def _as_float(value: Any) -> Any:
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _attributes(spec: SpecFile, key: str) -> tuple[Attribute, ...]:
    return tuple(
        Attribute(a["key"], a["type"], a["doc"], bool(a.get("optional", False)), spec.at((key, i)))
        for i, a in enumerate(spec.data.get(key, []))
    )


def build_pass(spec: SpecFile, intrinsics: dict[str, Intrinsic], diagnostics: Diagnostics,
               kinds: dict[str, RecordSet] | None = None) -> Pass:
    """A pass spec's model; `kinds`: the in-memory record documents (name -> records) whose kinds the keys of a
    cases-like parameter name (subjects: tile_ops)."""
    data = spec.data
    rules = []
    fields = {"device": DEVICE_FACT_NAMES, "options": tuple(data.get("options", {}))}
    for i, r in enumerate(data["rules"]):
        params: tuple[tuple[str, ParamValue], ...] = ()
        if r["kind"] in ENGINES:
            builder = _RuleParams(spec, intrinsics, diagnostics, fields, kinds or {})
            params = builder.build(r["kind"], r.get("params", {}), ("rules", i, "params"))
        rules.append(Rule(r["kind"], r.get("doc", ""), r.get("transform", ""), r.get("module", ""),
                          tuple(sorted(r.get("args", {}).items())), params, r.get("hook", ""),
                          spec.at(("rules", i))))
    return Pass(
        name=data["name"],
        stage=data["stage"],
        doc=data["doc"],
        options=tuple(_option(spec, name, o, diagnostics) for name, o in sorted(data.get("options", {}).items())),
        reads=_attributes(spec, "reads"),
        writes=_attributes(spec, "writes"),
        requires=tuple(data.get("requires", [])),
        rules=tuple(rules),
        source=spec.path,
        location=spec.at(("name",)),
        requires_location=spec.at(("requires",)),
    )


Names = tuple[str, ...] | None  # the names an expression may use; None: unchecked (its context is unknown)


def _common_fields(tree: ast.expr) -> Iterator[tuple[str, str | int]]:
    """(name, field) of every `device.X`, `options.X` (or `name["X"]`) in an expression."""
    for node in ast.walk(tree):
        base = node.value if isinstance(node, (ast.Attribute, ast.Subscript)) else None
        if isinstance(base, ast.Name) and base.id in COMMON_NAMES:
            if isinstance(node, ast.Attribute):
                yield base.id, node.attr
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                    and isinstance(node.slice.value, (str, int)):
                yield base.id, node.slice.value


class _RuleParams:
    """Builds one rule's typed parameters from its schema-valid `params`, reporting at the offending node."""

    def __init__(self, spec: SpecFile, intrinsics: dict[str, Intrinsic], diagnostics: Diagnostics,
                 fields: dict[str, tuple[str, ...]], kinds: dict[str, RecordSet]) -> None:
        self.spec = spec
        self.intrinsics = intrinsics
        self.kinds = kinds  # in-memory record documents by name (the tile ops)
        self.diagnostics = diagnostics
        self.fields = fields  # common name -> the fields it has: the device facts, the pass's options

    def build(self, kind: str, raw: dict[str, Any], where: JsonPath) -> tuple[tuple[str, ParamValue], ...]:
        op_args = self._multicast(raw, where) if kind == "multicast" else ()
        for key in raw:
            if key not in ENGINES[kind]:  # a project schema that allows more than this checkout's engines take
                self.diagnostics.error(self.spec.key_at(where + (key,)),
                                       f"'{kind}' rules take no parameter '{key}': the engine's parameters are "
                                       f"{', '.join(ENGINES[kind])} (schema/pass.schema.json beside the generator)")
        out: list[tuple[str, ParamValue]] = []
        for key, param in ENGINES[kind].items():
            if key in raw:
                names = param.names + (op_args if param.sees_op_args else ())
                value = self._value(param, key, raw[key], names, where + (key,))
                if value is not None:
                    out.append((key, value))
        return tuple(out)

    def _multicast(self, raw: dict[str, Any], where: JsonPath) -> tuple[str, ...]:
        """Check the intrinsics a multicast rule names; its expressions also see the replaced op's arguments."""
        op, emit = raw["op"], raw["emit"]
        unknown = [key for key in ("op", "emit") if raw[key] not in self.intrinsics]
        if unknown:
            self._error(where + (unknown[0],), f"'multicast' rule names unknown intrinsic '{op}' or '{emit}'")
            return ()
        args = tuple(a.name for a in self.intrinsics[op].args)
        for key in ("tensor", "index"):
            if raw[key] not in args:
                self._error(where + (key,), f"'{key}': '{raw[key]}' is not an argument of '{op}' "
                            f"(arguments: {', '.join(args)})")
        return args

    def _value(self, param: Param, key: str, raw: Any, names: Names, at: JsonPath) -> ParamValue | None:
        match param.shape:
            case "name":
                return Value(raw)
            case "names":
                return Value(tuple(raw))
            case "name_pairs":
                return Value(tuple(tuple(pair) for pair in raw))
            case "expression":
                return self._expression(raw, names, at)
            case "expression_map":
                return self._expression_map(raw, names, at)
            case "checks":
                return self._checks(raw, names, at)
            case "modes":
                return self._modes(raw, at)
            case _:  # cases, op_expressions, op_expression_maps: keyed by the op they apply to
                return self._by_subject(param, key, raw, at)

    def _by_subject(self, param: Param, key: str, raw: dict[str, Any], at: JsonPath) -> ParamValue:
        entries = self._subjects(param, key, raw, at)
        if param.shape == "cases":
            return Cases(tuple((subject, tuple(self._case(case, names, at + (subject, i))
                                               for i, case in enumerate(cases)))
                               for subject, cases, names in entries))
        if param.shape == "op_expressions":
            return OpExpressions(tuple((subject, e) for subject, value, names in entries
                                       if (e := self._expression(value, names, at + (subject,))) is not None))
        return OpExpressionMaps(tuple((subject, self._expression_map(value, names, at + (subject,)))
                                      for subject, value, names in entries))

    def _error(self, at: JsonPath, message: str) -> None:
        self.diagnostics.error(self.spec.at(at), message)

    def _expression(self, raw: Any, names: Names, at: JsonPath) -> Parsed | None:
        try:
            parsed = parse(raw, None if names is None else names + COMMON_NAMES)
        except ExpressionError as exc:
            self._error(at, str(exc))
            return None
        return parsed if self._fields_known(_common_fields(parsed.tree), f"expression '{parsed.text}'", at) else None

    def _message(self, text: str, names: Names, at: JsonPath) -> Message | None:
        try:
            message = parse_message(text, None if names is None else names + COMMON_NAMES)
        except ExpressionError as exc:
            self._error(at, str(exc))
            return None
        used = ((p.name, p.path[0]) for p in message.pieces if p.name in self.fields and p.path)
        return message if self._fields_known(used, f"message '{text}'", at) else None

    def _fields_known(self, used: Iterator[tuple[str, str | int]], where: str, at: JsonPath) -> bool:
        """`device.X` must name a device fact and `options.X` an option of the pass; the first unknown one is
        reported at the expression's node."""
        for name, field in used:
            known = self.fields[name]
            if field in known:
                continue
            what = "device fact" if name == "device" else "option"
            listed = (f"device facts: {', '.join(known)}" if name == "device" else
                      f"options of the pass: {', '.join(known)}" if known else "the pass declares no options")
            hint = did_you_mean(field, known) if isinstance(field, str) else ""
            self._error(at, f"unknown {what} '{name}.{field}' in {where}{hint}; {listed}")
            return False
        return True

    def _expression_map(self, raw: dict[str, Any], names: Names, at: JsonPath) -> ExprMap:
        return ExprMap(tuple((key, e) for key, value in raw.items()
                             if (e := self._expression(value, names, at + (key,))) is not None))

    def _checks(self, raw: list[dict[str, Any]], names: Names, at: JsonPath) -> Checks:
        out = []
        for i, check in enumerate(raw):
            expr = self._expression(check["expr"], names, at + (i, "expr"))
            message = self._message(check["error"], names, at + (i, "error"))
            if expr is not None and message is not None:
                out.append(Check(expr, message))
        return Checks(tuple(out))

    def _modes(self, raw: dict[str, Any], at: JsonPath) -> Modes:
        out = []
        for mode, spec in raw.items():
            here = at + (mode,)
            loop = tuple(spec["args"])  # the mode's args are the names of its loop
            iterations = self._expression(spec["iterations"], loop, here + ("iterations",))
            if iterations is not None:
                out.append((mode, Mode(self._expression_map(spec["args"], MODE_WORK, here + ("args",)), iterations,
                                       self._expression_map(spec["bindings"], loop + MODE_LOOP, here + ("bindings",)))))
        return Modes(tuple(out))

    def _subjects(self, param: Param, key: str, raw: dict[str, Any],
                  at: JsonPath) -> list[tuple[str, Any, Names]]:
        """(subject, its value, the names its expressions see) for each op a cases-like parameter keys."""
        out: list[tuple[str, Any, Names]] = []
        for subject, value in raw.items():
            names: Names
            if param.subjects != "intrinsics":
                document = self.kinds.get(param.subjects)
                table = document.kind_fields() if document else {}
                names = table[subject] + document.context if document and subject in table else None
                problem = (f"unknown tile op '{subject}' (tile ops: {', '.join(table)})" if document else
                           f"no in-memory record spec declares the {param.subjects} '{key}' names (specs/records/"
                           f"{param.subjects}.yaml)")
            else:
                record = self.intrinsics.get(subject)
                names = tuple(a.name for a in record.args) + KERNEL_FACTS if record else None
                problem = f"'{key}' names unknown intrinsic '{subject}'"
            if names is None:
                self.diagnostics.error(self.spec.key_at(at + (subject,)), problem)
            out.append((subject, value, names))
        return out

    def _case(self, raw: dict[str, Any], names: Names, at: JsonPath) -> Case:
        when = self._expression(raw["when"], names, at + ("when",)) if "when" in raw else None
        return Case(
            when=when,
            require=self._checks(raw.get("require", []), names, at + ("require",)),
            emit=raw.get("emit", ""),
            protocol=raw.get("protocol", ""),
            args=self._expression_map(raw["args"], names, at + ("args",)) if "args" in raw else None,
            set=self._expression_map(raw["set"], names, at + ("set",)) if "set" in raw else None,
        )
