"""Typed parameters of pass rules: one frozen class per parameter shape of the engine table (rules.ENGINES).

The build (build_pass.py) turns a rule's schema-valid `params` into these, parsing and checking every spec
expression and message once; the C++ rendering (rules.render_rule_cpp) only reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .expressions import Message, Parsed


@dataclass(frozen=True)
class Value:
    """A name, a list of names or a list of name pairs, which the engine reads as is."""

    value: str | tuple[str, ...] | tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ExprMap:
    """Named expressions, in spec order (fields of an attribute, arguments of a call, ...)."""

    items: tuple[tuple[str, Parsed], ...]


@dataclass(frozen=True)
class Check:
    expr: Parsed
    message: Message  # the error when `expr` is false


@dataclass(frozen=True)
class Checks:
    items: tuple[Check, ...]


@dataclass(frozen=True)
class Case:
    """One case of a rewrite or lower_tiles rule; absent keys are None (or empty)."""

    when: Parsed | None
    require: Checks
    emit: str
    protocol: str
    args: ExprMap | None
    set: ExprMap | None


@dataclass(frozen=True)
class Cases:
    items: tuple[tuple[str, tuple[Case, ...]], ...]  # subject (tile op or intrinsic) -> its cases, in order


@dataclass(frozen=True)
class OpExpressions:
    items: tuple[tuple[str, Parsed], ...]  # intrinsic -> one expression over its arguments


@dataclass(frozen=True)
class OpExpressionMaps:
    items: tuple[tuple[str, ExprMap], ...]  # intrinsic -> named expressions over its arguments


@dataclass(frozen=True)
class Mode:
    args: ExprMap
    iterations: Parsed
    bindings: ExprMap


@dataclass(frozen=True)
class Modes:
    items: tuple[tuple[str, Mode], ...]  # partition mode -> how its cores loop


ParamValue = Value | Parsed | ExprMap | Checks | Cases | OpExpressions | OpExpressionMaps | Modes
