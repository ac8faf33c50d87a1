"""The `record` spec kind (specs/records/*.yaml): a JSON document that crosses a language boundary, declared once.

A record spec declares the records of one document (tt.plan.json): each record's fields with their type, bounds and
meaning, and who writes and reads it. It renders the document's JSON Schema (the SCHEMAS table of
generated/tilelang/tenstorrent/plan_schema.py), typed Python records with key constants
(generated/tilelang/tenstorrent/records.py: a TypedDict and an UPPER_CASE class of `Final` key names per record, so
mypy checks every key a reader subscripts with), C++ key constants for the writers and readers in C++
(generated/cpp/records.h, generated/emulator/include/tt_emu/records.hpp) and a reference page (docs/records.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostics, Location
from .expressions import did_you_mean
from .naming import camel

if TYPE_CHECKING:
    from .loader import JsonPath, SpecFile
    from .model import SpecSet

BUILTINS = ("int", "number", "bool", "str", "null", "list", "map")
# A TIR value (an int, an expression, a buffer variable): a field type of the in-memory records only.
IN_MEMORY_TYPES = ("tir",)
_JSON_TYPES = {"int": "integer", "number": "number", "bool": "boolean", "str": "string", "null": "null",
               "list": "array", "map": "object"}
_PY_TYPES = {"int": "int", "number": "float", "bool": "bool", "str": "str", "null": "None", "tir": "Any"}
_BOUNDS = (("min", "minimum"), ("max", "maximum"), ("min_items", "minItems"), ("max_items", "maxItems"),
           ("pattern", "pattern"))


@dataclass(frozen=True)
class TypeNode:
    """A value's type: a builtin, a record's name, an enum or a union, with the bounds JSON Schema checks."""

    type: str  # a builtin, a record name, "enum" or "one_of"
    doc: str = ""
    enum: tuple[str, ...] = ()
    one_of: tuple[TypeNode, ...] = ()
    items: TypeNode | None = None
    values: TypeNode | None = None
    bounds: tuple[tuple[str, Any], ...] = ()  # (JSON Schema keyword, value)


@dataclass(frozen=True)
class RecordField:
    name: str
    value: TypeNode
    optional: bool

    @property
    def doc(self) -> str:
        return self.value.doc


@dataclass(frozen=True)
class Record:
    name: str
    doc: str
    fields: tuple[RecordField, ...]  # inherited ones (extends) first
    variants: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (form, the optional fields it requires)
    one_of: tuple[TypeNode, ...] = ()
    extends: str = ""
    abstract: bool = False
    cpp_enum: str = ""  # the emulator's enum of the fields (counters indexed by it)
    attribute: str = ""  # the IR attribute (name -> record) an annotate rule writes
    written_by: tuple[str, ...] = ()
    read_by: tuple[str, ...] = ()

    @property
    def union(self) -> TypeNode:
        """A union record as the type it is."""
        return TypeNode("one_of", self.doc, one_of=self.one_of)

    @property
    def class_name(self) -> str:
        """The Python TypedDict."""
        return camel(self.name)

    @property
    def keys_name(self) -> str:
        """The Python class of its key constants (CB.BLOCK_PAGES) and the C++ namespace of them (cb::kBlockPages)."""
        return self.name.upper()


@dataclass(frozen=True)
class RecordSet:
    """One document: its records in spec order."""

    name: str
    title: str
    doc: str
    root: str
    records: tuple[Record, ...]
    source: str
    location: Location
    in_memory: bool = False  # values of the C++ engines, not a JSON document: its kinds extend the root

    def record(self, name: str) -> Record:
        return next(r for r in self.records if r.name == name)

    @property
    def keyed(self) -> tuple[Record, ...]:
        """Records with keys of their own (not unions)."""
        return tuple(r for r in self.records if not r.one_of)

    @property
    def kinds(self) -> tuple[Record, ...]:
        """In an in-memory document, the kinds of its root: the records that extend it, in spec order."""
        return tuple(r for r in self.records if self.in_memory and r.extends == self.root)

    @property
    def keyed_values(self) -> tuple[Record, ...]:
        """Records whose keys C++ names through constants: those with keys of their own, an in-memory document's
        root and kinds left out (the kinds are constants of their own, their fields the engines' names)."""
        return tuple(r for r in self.keyed if not (self.in_memory and (r.name == self.root or r in self.kinds)))

    @property
    def context(self) -> tuple[str, ...]:
        """The root's field names: what every kind has besides its own fields."""
        return tuple(f.name for f in self.record(self.root).fields)

    def kind_fields(self) -> dict[str, tuple[str, ...]]:
        """Kind -> its own field names (the root's left out), in spec order."""
        return {r.name: tuple(f.name for f in r.fields if f.name not in self.context) for r in self.kinds}

    def json_schema(self) -> dict[str, Any]:
        """The document's JSON Schema (draft 2020-12): records inline, unions under $defs."""
        root = self._object(self.record(self.root), self.doc)
        schema: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                                  "$id": f"{self.name}.schema.json", "title": self.title, **root}
        defs = {r.name: {"description": r.doc, "oneOf": [self._node(t) for t in r.one_of]}
                for r in self.records if r.one_of}
        if defs:
            schema["$defs"] = defs
        return schema

    def json_schema_text(self) -> str:
        return json.dumps(self.json_schema(), indent=2) + "\n"

    def _object(self, record: Record, doc: str) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "description": doc or record.doc, "additionalProperties": False,
                               "required": [f.name for f in record.fields if not f.optional],
                               "properties": {f.name: self._node(f.value) for f in record.fields}}
        if record.variants:
            out["oneOf"] = [{"description": form, "required": list(required)} for form, required in record.variants]
        return out

    def _node(self, node: TypeNode) -> dict[str, Any]:
        if node.type not in BUILTINS and node.type not in ("enum", "one_of"):
            record = self.record(node.type)
            if record.one_of:
                return {"$ref": f"#/$defs/{record.name}"}
            return self._object(record, node.doc)
        out: dict[str, Any] = {"type": _JSON_TYPES[node.type]} if node.type in BUILTINS else {}
        if node.doc:
            out["description"] = node.doc
        if node.enum:
            out["enum"] = list(node.enum)
        if node.one_of:
            out["oneOf"] = [self._node(t) for t in node.one_of]
        out.update(node.bounds)
        if node.items is not None:
            out["items"] = self._node(node.items)
        if node.values is not None:
            out["additionalProperties"] = self._node(node.values)
        return out

    def py_type(self, node: TypeNode) -> str:
        """The Python annotation of a value."""
        if node.type == "enum":
            return "Literal[" + ", ".join(repr(v) for v in node.enum) + "]"
        if node.type == "one_of":
            return " | ".join(self.py_type(t) for t in node.one_of)
        if node.type == "list":
            return f"list[{self.py_type(node.items) if node.items else 'Any'}]"
        if node.type == "map":
            return f"dict[str, {self.py_type(node.values) if node.values else 'Any'}]"
        return _PY_TYPES.get(node.type) or camel(node.type)

    def py_order(self) -> tuple[Record, ...]:
        """Records with every record a field names before it (TypedDict's functional form evaluates its types)."""
        order: list[Record] = []
        seen: set[str] = set()

        def visit(record: Record) -> None:
            if record.name not in seen:  # cycles are refused when the spec is built
                seen.add(record.name)
                for name in _named(record):
                    visit(self.record(name))
                order.append(record)

        for record in self.records:
            visit(record)
        return tuple(order)


def _named(record: Record) -> list[str]:
    """The records a record's types name."""
    out: list[str] = []

    def walk(node: TypeNode | None) -> None:
        if node is None:
            return
        if node.type not in BUILTINS + IN_MEMORY_TYPES and node.type not in ("enum", "one_of"):
            out.append(node.type)
        for child in (*node.one_of, node.items, node.values):
            walk(child)

    for f in record.fields:
        walk(f.value)
    for t in record.one_of:
        walk(t)
    return out


def _type(data: dict[str, Any]) -> TypeNode:
    kind = "enum" if "enum" in data else "one_of" if "one_of" in data else data.get("type", "")
    return TypeNode(kind, data.get("doc", ""), tuple(str(v) for v in data.get("enum", ())),
                    tuple(_type(t) for t in data.get("one_of", ())),
                    _type(data["items"]) if "items" in data else None,
                    _type(data["values"]) if "values" in data else None,
                    tuple((keyword, data[key]) for key, keyword in _BOUNDS if key in data))


def build_records(spec: SpecFile, diagnostics: Diagnostics) -> RecordSet:
    """The record set of a spec that passed schema validation; type names, extends and variants checked."""
    raw = spec.data["records"]
    own = {r["name"]: r for r in raw}
    records: list[Record] = []
    first: dict[str, int] = {}
    for index, r in enumerate(raw):
        if first.setdefault(r["name"], index) != index:
            diagnostics.error(spec.at(("records", index, "name")), f"record '{r['name']}' is declared twice (first "
                              f"at {spec.at(('records', first[r['name']]))})")
        fields = [RecordField(name, _type(f), bool(f.get("optional"))) for name, f in r.get("fields", {}).items()]
        base = r.get("extends", "")
        if base:
            if base not in own:
                diagnostics.error(spec.at(("records", index, "extends")), f"record '{r['name']}' extends unknown "
                                  f"record '{base}'{did_you_mean(base, own)}")
            elif own[base].get("extends"):
                diagnostics.error(spec.at(("records", index, "extends")), f"record '{base}' extends another record; "
                                  "one level of extends is supported")
            else:
                fields = [RecordField(n, _type(f), bool(f.get("optional")))
                          for n, f in own[base].get("fields", {}).items()] + fields
        if bool(fields) == bool(r.get("one_of")):
            diagnostics.error(spec.at(("records", index)), f"record '{r['name']}' needs fields or one_of (not both)")
        records.append(Record(r["name"], r["doc"], tuple(fields),
                              tuple((v["doc"], tuple(v["required"])) for v in r.get("variants", ())),
                              tuple(_type(t) for t in r.get("one_of", ())), base, bool(r.get("abstract")),
                              r.get("cpp_enum", ""), r.get("attribute", ""), tuple(r.get("written_by", ())),
                              tuple(r.get("read_by", ()))))
    result = RecordSet(spec.data["name"], spec.data["title"], spec.data["doc"], spec.data["root"], tuple(records),
                       spec.path, spec.at(()), bool(spec.data.get("in_memory")))
    _check(result, spec, diagnostics)
    return result


def _check(records: RecordSet, spec: SpecFile, diagnostics: Diagnostics) -> None:
    names = {r.name: r for r in records.records}
    if records.root not in names:
        diagnostics.error(spec.at(("root",)),
                          f"root record '{records.root}' is not declared{did_you_mean(records.root, names)}")
    elif records.in_memory and not (names[records.root].abstract and records.kinds):
        diagnostics.error(spec.at(("root",)), f"the root '{records.root}' of an in-memory document is abstract and "
                          "extended by its kinds")
    for index, record in enumerate(spec.data["records"]):
        where: JsonPath = ("records", index)
        built = names[record["name"]]
        for name, f in record.get("fields", {}).items():
            _check_type(f, names, spec, (*where, "fields", name), diagnostics, field=True)
        for i, t in enumerate(record.get("one_of", ())):
            _check_type(t, names, spec, (*where, "one_of", i), diagnostics)
        own = {f.name: f for f in built.fields}
        for i, (form, required) in enumerate(built.variants):
            for name in required:
                if name not in own or not own[name].optional:
                    diagnostics.error(spec.at((*where, "variants", i)), f"variant '{form}' of record '{built.name}' "
                                      f"requires '{name}', which is not an optional field of it")
        if built.abstract and any(built.name in _named(r) for r in records.records):
            diagnostics.error(spec.at(where), f"abstract record '{built.name}' is the type of a value; only extend it")
    _check_cycles(records, spec, diagnostics)


def _check_type(data: dict[str, Any], names: dict[str, Record], spec: SpecFile, where: JsonPath,
                diagnostics: Diagnostics, field: bool = False) -> None:
    forms = [k for k in ("type", "enum", "one_of") if k in data]
    if len(forms) != 1:
        diagnostics.error(spec.at(where), "a type has exactly one of type, enum and one_of")
        return
    kind = data.get("type")
    builtins = BUILTINS + (IN_MEMORY_TYPES if spec.data.get("in_memory") else ())
    if kind is not None and kind not in builtins and kind not in names:
        diagnostics.error(spec.at((*where, "type")), f"unknown type '{kind}' (a builtin: {', '.join(builtins)}; or a "
                          f"record of this spec){did_you_mean(kind, names)}")
    if field and not data.get("doc") and (kind is None or kind in builtins):
        diagnostics.error(spec.at(where), "a field of a builtin type needs a doc (only a record-typed field may "
                          "take its record's)")
    if (kind == "list") != ("items" in data) or (kind == "map") != ("values" in data):
        diagnostics.error(spec.at(where), "a list has items and a map has values (and nothing else has either)")
    for key in ("items", "values"):
        if key in data:
            _check_type(data[key], names, spec, (*where, key), diagnostics)
    for i, t in enumerate(data.get("one_of", ())):
        _check_type(t, names, spec, (*where, "one_of", i), diagnostics)


def _check_cycles(records: RecordSet, spec: SpecFile, diagnostics: Diagnostics) -> None:
    graph = {r.name: set(_named(r)) for r in records.records}
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph.get(name, ())):
            if state.get(other) == 1:
                diagnostics.error(records.location, "records name each other in a cycle: "
                                  + " -> ".join([*path[path.index(other):], other]))
            elif other in graph and other not in state:
                visit(other, [*path, other])
        state[name] = 2

    for name in graph:
        if name not in state:
            visit(name, [name])


def check_attribute_records(model: SpecSet, diagnostics: Diagnostics) -> None:
    """An annotate rule that writes the attribute of a record (`attribute: tt.buffers`) sets the record's required
    fields and no others: the record and the rule state one set of keys."""
    records = {r.attribute: r for rs in model.record_sets for r in rs.records if r.attribute}
    for p in model.passes:
        for rule in p.rules:
            params = dict(rule.params)
            attr = getattr(params.get("attr"), "value", None)
            if rule.kind != "annotate" or attr not in records or "fields" not in params:
                continue
            record = records[attr]
            names = [name for name, _ in getattr(params["fields"], "items", ())]
            declared = {f.name for f in record.fields}
            extra = [n for n in names if n not in declared]
            missing = [f.name for f in record.fields if not f.optional and f.name not in names]
            if extra or missing:
                what = "; ".join(part for part in (
                    f"sets {', '.join(extra)}, which record '{record.name}' does not declare" if extra else "",
                    f"does not set {', '.join(missing)}, which record '{record.name}' requires" if missing else "")
                    if part)
                diagnostics.error(rule.location, f"pass {p.name} writes {attr} (record '{record.name}' of "
                                  f"{record_source(model, record)}) but {what}")


def record_source(model: SpecSet, record: Record) -> str:
    return next(rs.source for rs in model.record_sets if record in rs.records)
