"""The schemas themselves: closed objects, documented properties, identifier names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.build_pass import build_pass
from generator.diagnostics import Diagnostics
from generator.engine_table import EngineTableError, Param, engine_table
from generator.loader import load_spec
from generator.records import build_records
from generator.rules import ENGINES, KERNEL_FACTS, SHAPES
from generator.schema import KINDS
from projects import REPO

SCHEMAS = sorted((REPO / "schema").glob("*.schema.json"))


def _objects(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object, except the conditions of `if`/`then` (they refine an object described elsewhere)."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            if key in ("if", "then"):
                continue
            yield from _objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _objects(value, f"{where}/{index}")


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_property_has_a_description(path: Any) -> None:
    schema = json.loads(path.read_text("utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for where, node in _objects(schema):
        for name, prop in node.get("properties", {}).items() if isinstance(node.get("properties"), dict) else []:
            assert isinstance(prop, dict) and prop.get("description"), f"{path.name} {where}/properties/{name}"


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_objects_are_closed(path: Any) -> None:
    schema = json.loads(path.read_text("utf-8"))
    for where, node in _objects(schema):
        if node.get("type") == "object" or "properties" in node:
            closed = node.get("additionalProperties") is False
            is_map = isinstance(node.get("additionalProperties"), dict) or "propertyNames" in node
            assert closed or is_map, f"{path.name} {where} accepts unknown keys"


def test_one_schema_per_kind() -> None:
    names = {p.name for p in SCHEMAS}
    assert {f"{kind}.schema.json" for kind in KINDS} <= names


def test_names_are_identifiers_by_pattern() -> None:
    defs = json.loads((REPO / "schema" / "defs.schema.json").read_text("utf-8"))["$defs"]
    assert defs["identifier"]["pattern"] == "^[a-z_][a-z0-9_]*$"
    for kind in KINDS:
        schema = json.loads((REPO / "schema" / f"{kind}.schema.json").read_text("utf-8"))
        name = schema["properties"].get("name") or schema["properties"].get("family")
        assert name["$ref"].startswith("defs.schema.json#/$defs/"), kind




def _tile_op_context() -> tuple[str, ...]:
    """What every tile op shows a lower_tiles case (the root of specs/records/tile_ops.yaml)."""
    diagnostics = Diagnostics()
    spec = load_spec(REPO / "specs" / "records" / "tile_ops.yaml", "specs/records/tile_ops.yaml", diagnostics)
    assert spec is not None and not diagnostics
    return build_records(spec, diagnostics).context


# Names the expressions of cases-like parameters see besides the fields of the op they are keyed by.
SUBJECT_NAMES = {"intrinsics": KERNEL_FACTS, "tile_ops": _tile_op_context()}


def test_rule_params_follow_the_engine_table() -> None:
    """The schema describes each engine's parameters as generator/rules.py states them: same names in the same
    order, the same required ones, one $defs entry per shape, and every name an expression sees is documented."""
    schema = json.loads((REPO / "schema" / "pass.schema.json").read_text("utf-8"))
    defs, rule = schema["$defs"], schema["$defs"]["rule"]
    assert set(rule["properties"]["kind"]["enum"]) == set(ENGINES) | {"tvm", "hook"}
    conditions = {c["if"]["properties"]["kind"].get("const"): c["then"] for c in rule["allOf"]}
    assert set(conditions) == set(ENGINES) | {None}  # None: the condition of tvm and hook rules, which take none
    assert conditions[None] == {"properties": {"params": {"$ref": "#/$defs/no_params"}}}
    assert set(SHAPES) <= set(defs)
    for kind, table in ENGINES.items():
        then = {"required": ["params"], "properties": {"params": {"$ref": f"#/$defs/{kind}_params"}}}
        assert conditions[kind] == then, kind
        params = defs[f"{kind}_params"]
        assert params["additionalProperties"] is False
        assert list(params["properties"]) == list(table), kind
        assert params.get("required", []) == [key for key, p in table.items() if p.required], kind
        for key, param in table.items():
            described = params["properties"][key]
            assert described["$ref"] == f"#/$defs/{param.shape}", (kind, key)
            seen = param.names + SUBJECT_NAMES.get(param.subjects, ())
            missing = [name for name in seen if name not in described["description"]]
            assert not missing, f"{kind}.{key}: the description does not mention {missing}"


def _pass_schema() -> dict[str, Any]:
    return json.loads((REPO / "schema" / "pass.schema.json").read_text("utf-8"))


def test_a_parameter_added_to_the_schema_reaches_the_engine_table() -> None:
    """The engines' parameters are read from the schema (generator/engine_table.py), never listed a second time:
    a key the schema adds is in the table (with its shape, whether it is required, its place) and so in the C++
    parameter struct and the rendered engine call; one it removes is gone."""
    schema = _pass_schema()
    split = schema["$defs"]["split_params"]
    split["properties"]["limit"] = {"$ref": "#/$defs/expression", "description": "A new parameter."}
    split["required"].append("limit")
    del schema["$defs"]["finalize_params"]["properties"]["order"]
    table = engine_table(schema)
    assert list(table["split"]) == [*ENGINES["split"], "limit"]
    assert table["split"]["limit"] == Param("expression", required=True)
    assert "order" not in table["finalize"]
    assert table == {**ENGINES, "split": table["split"], "finalize": table["finalize"]}


def test_an_annotation_of_a_parameter_the_schema_lacks_is_an_error() -> None:
    schema = _pass_schema()
    del schema["$defs"]["multicast_params"]["properties"]["when"]
    with pytest.raises(EngineTableError, match="parameter 'when' of rule kind 'multicast', which pass.schema.json "
                                               "does not declare"):
        engine_table(schema)
    schema = _pass_schema()
    schema["$defs"]["split_params"]["properties"]["roles"]["$ref"] = "#/$defs/identifier"
    with pytest.raises(EngineTableError, match="split_params/roles is no parameter shape"):
        engine_table(schema)


def test_a_parameter_the_engine_does_not_take_is_reported_not_dropped(tmp_path: Path) -> None:
    """A project whose schema allows a parameter the generator's engine table lacks gets an error at the key."""
    spec_file = tmp_path / "split.yaml"
    spec_file.write_text("# yaml-language-server: $schema=../../schema/pass.schema.json\nkind: pass\nname: Split\n"
                         "stage: tenstorrent\ndoc: A split.\nrules:\n  - kind: split\n    params:\n"
                         "      roles: [reader, compute, writer]\n      extra: [a]\n", "utf-8")
    diagnostics = Diagnostics()
    spec = load_spec(spec_file, "specs/passes/split.yaml", diagnostics)
    assert spec is not None and not diagnostics
    build_pass(spec, {}, diagnostics)
    assert [str(d) for d in diagnostics.items] == [
        "specs/passes/split.yaml:10:7: 'split' rules take no parameter 'extra': the engine's parameters are roles "
        "(schema/pass.schema.json beside the generator)"]
