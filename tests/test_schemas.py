"""The schemas themselves: closed objects, documented properties, identifier names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from generator.schema import KINDS
from projects import REPO

SCHEMAS = sorted((REPO / "schema").glob("*.schema.json"))


def _objects(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
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
