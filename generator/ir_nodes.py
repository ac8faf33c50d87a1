"""The `ir` spec kind (specs/ir/*.yaml): the TVM IR node types the C++ engines read.

Each node has its TVM type key, the name of its typed view and the reflected fields the engines use; they are
rendered to generated/cpp/ir_nodes.h (tests/generator/test_ir_spec.py checks them against TVM's reflection registry). An
`ir` spec also lists the IR attribute and annotation keys no pass spec declares (TVM's own, loop annotations).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostics, Location
from .loader import SpecFile

# Field types an accessor returns besides views, with their C++ return types.
BUILTIN_TYPES = {"int": "int64_t", "float": "double", "str": "std::string", "dtype": "std::string",
                 "list": "ffi::Array<Any>", "map": "ffi::Map<Any, Any>", "any": "Any"}
# Members every view has, which no field accessor may shadow.
VIEW_MEMBERS = frozenset({"any", "same_as", "matches", "matches_exactly", "from", "type_index", "value_"})
CPP_KEYWORDS = frozenset(
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t class compl const "
    "constexpr const_cast continue decltype default delete do double dynamic_cast else enum explicit export extern "
    "false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or "
    "or_eq private protected public register reinterpret_cast return short signed sizeof static static_assert "
    "static_cast struct switch template this thread_local throw true try typedef typeid typename union unsigned "
    "using virtual void volatile wchar_t while xor xor_eq".split())


@dataclass(frozen=True)
class IrField:
    name: str
    type: str  # a builtin type or a view name
    doc: str

    @property
    def is_view(self) -> bool:
        return self.type not in BUILTIN_TYPES

    @property
    def cpp_type(self) -> str:
        return self.type if self.is_view else BUILTIN_TYPES[self.type]


@dataclass(frozen=True)
class IrNode:
    view: str
    type_key: str
    doc: str
    fields: tuple[IrField, ...]
    source: str
    location: Location


@dataclass(frozen=True)
class IrKey:
    key: str
    node: str  # view of the node that carries it
    doc: str
    source: str
    location: Location


def _node(spec: SpecFile, index: int, record: dict[str, Any]) -> IrNode:
    fields = tuple(IrField(name, f["type"], f["doc"]) for name, f in record.get("fields", {}).items())
    return IrNode(record["view"], record["type_key"], record["doc"], fields, spec.path, spec.at(("nodes", index)))


def collect(specs: list[tuple[str, SpecFile]], diagnostics: Diagnostics) -> tuple[tuple[IrNode, ...],
                                                                                   tuple[IrKey, ...]]:
    """The nodes and keys of every `ir` spec, checked: unique views and type keys, known field types."""
    nodes: list[IrNode] = []
    keys: list[IrKey] = []
    field_locations: dict[tuple[str, str], Location] = {}
    for kind, spec in specs:
        if kind != "ir":
            continue
        for index, record in enumerate(spec.data["nodes"]):
            nodes.append(_node(spec, index, record))
            for name in record.get("fields", {}):
                field_locations[(record["view"], name)] = spec.key_at(("nodes", index, "fields", name))
        keys += [IrKey(k["key"], k["node"], k["doc"], spec.path, spec.at(("keys", i)))
                 for i, k in enumerate(spec.data.get("keys", []))]
    views: dict[str, IrNode] = {}
    type_keys: dict[str, IrNode] = {}
    for node in nodes:
        for table, name, what in ((views, node.view, "view"), (type_keys, node.type_key, "type key")):
            if name in table:
                diagnostics.error(node.location, f"{what} '{name}' is already declared at {table[name].location}")
            table[name] = node
    for node in nodes:
        for f in node.fields:
            where = field_locations[(node.view, f.name)]
            if f.name in VIEW_MEMBERS or f.name in CPP_KEYWORDS:
                diagnostics.error(where, f"field '{f.name}' of {node.view} cannot be a C++ accessor name "
                                         "(a C++ keyword or a member every view has)")
            if f.is_view and f.type not in views:
                diagnostics.error(where, f"field '{f.name}' of {node.view} has unknown type '{f.type}' (a builtin: "
                                         f"{', '.join(BUILTIN_TYPES)}; or the view of a node of an ir spec)")
    seen: dict[str, Location] = {}
    for k in keys:
        if k.node not in views:
            diagnostics.error(k.location, f"key '{k.key}' is on unknown view '{k.node}'")
        if k.key in seen:
            diagnostics.error(k.location, f"key '{k.key}' is already declared at {seen[k.key]}")
        seen[k.key] = k.location
    return tuple(nodes), tuple(sorted(keys, key=lambda k: k.key))


ENGINE_VIEW = re.compile(r"\bir::([A-Z][A-Za-z0-9]*)")


def check_engine_views(nodes: tuple[IrNode, ...], sources: Path, root: Path, diagnostics: Diagnostics) -> None:
    """Every typed view the hand-written engines (`sources`, src/transform) use must be declared by an ir spec:
    generated/cpp/ir_nodes.h would lack it, and the C++ passes would not build."""
    declared = {n.view for n in nodes}
    reported: set[str] = set()
    for path in sorted(sources.glob("*.cc")) + sorted(sources.glob("*.h")):
        text = path.read_text("utf-8", errors="replace")
        for match in ENGINE_VIEW.finditer(text):
            view = match.group(1)
            if view in declared or view in reported:
                continue
            reported.add(view)
            before = text[: match.start()]
            where = Location(path.relative_to(root).as_posix(), before.count("\n") + 1,
                             match.start() - (before.rfind("\n") + 1) + 1)
            diagnostics.error(where, f"the C++ engines use ir::{view}, which no ir spec declares (specs/ir/)")

