"""The runtime contract the hand-written runtime obeys, rendered from the specs and the generator's tables.

- Attribute keys: every key the pass specs declare in `reads`/`writes`, plus the IR keys of the `ir` specs
  -> generated/cpp/attr_keys.h (tl::attr::kTtCbs) and tilelang/tenstorrent/attr_keys.py (TT_CBS).
- The names each engine offers to spec expressions (the tables of generator/rules.py, which also check the
  specs) and the kernel roles with their processor classes (generator/model.py) -> generated/cpp/engine_names.h.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import rules
from .model import KERNEL_ROLES, PROCESSOR_CLASS, SpecSet


def _camel(name: str) -> str:
    return "k" + "".join(part[:1].upper() + part[1:] for part in re.split(r"[._]", name))


@dataclass(frozen=True)
class AttrKey:
    """One attribute key, with who declares it."""

    key: str
    doc: str
    declared_by: tuple[str, ...]  # "PassName writes", "PassName reads", "For key", ...

    @property
    def cpp_name(self) -> str:
        return _camel(self.key)

    @property
    def py_name(self) -> str:
        return self.key.replace(".", "_").upper()

def attr_keys(model: SpecSet) -> tuple[AttrKey, ...]:
    """Every attribute key the pass specs declare and the IR keys of the `ir` specs, sorted by key."""
    docs: dict[str, str] = {}
    declared: dict[str, list[str]] = {}
    for p in model.passes:
        for verb, attrs in (("writes", p.writes), ("reads", p.reads)):
            for a in attrs:
                if verb == "writes" or a.key not in docs:
                    docs[a.key] = a.doc
                declared.setdefault(a.key, []).append(f"{p.name} {verb}")
    for k in model.ir_keys:
        docs.setdefault(k.key, k.doc)
        declared.setdefault(k.key, []).append(f"{k.node} key")
    return tuple(AttrKey(key, " ".join(docs[key].split()), tuple(declared[key])) for key in sorted(docs))


@dataclass(frozen=True)
class ExpressionName:
    name: str
    offered_by: tuple[str, ...]

    @property
    def cpp_name(self) -> str:
        return _camel(self.name)


def expression_names(model: SpecSet | None = None) -> tuple[ExpressionName, ...]:
    """Every name an engine offers to spec expressions (generator/rules.py and the in-memory record specs state
    them), with where; the common names (device, options) are bound where rules are rendered, so no engine sets
    them."""
    offered: dict[str, list[str]] = {}

    def add(names: tuple[str, ...] | list[str], where: str) -> None:
        for name in names:
            offered.setdefault(name, []).append(where)

    for document in model.record_sets if model is not None else ():
        # the fields of each kind of an in-memory document (the tile ops), seen by the engines whose cases it keys
        engines = [e for e, params in rules.ENGINES.items()
                   if any(p.subjects == document.name for p in params.values())]
        for engine in engines:
            for kind, fields in document.kind_fields().items():
                add(fields, f"{engine} {kind}")
            add(document.context, engine)
    add(rules.KERNEL_FACTS, "rewrite")
    add(rules.MULTICAST_FACTS, "multicast")
    add(rules.MODE_WORK, "persistent mode args")
    add(rules.MODE_LOOP, "persistent mode bindings")
    for engine, params in rules.ENGINES.items():
        for key, param in params.items():
            add(tuple(getattr(param, "names", ())), f"{engine}.{key}")
    return tuple(ExpressionName(name, tuple(dict.fromkeys(where))) for name, where in sorted(offered.items()))


def kernel_roles(_model: SpecSet | None = None) -> tuple[tuple[str, str], ...]:
    """(role, processor class) of the kernels a program is split into, in launch order."""
    return tuple((role, PROCESSOR_CLASS[role]) for role in KERNEL_ROLES)


def processor_class(_model: SpecSet | None = None) -> dict[str, str]:
    """Role (kernel roles and the host) -> the processor class whose headers declare its calls."""
    return dict(PROCESSOR_CLASS)


FILTERS: dict[str, Callable[..., Any]] = {
    "attr_keys": attr_keys,
    "expression_names": expression_names,
    "kernel_roles": kernel_roles,
    "processor_class": processor_class,
}
