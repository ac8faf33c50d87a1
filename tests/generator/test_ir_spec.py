"""specs/ir against TVM's reflection registry: every node type exists and has every field the spec declares,
with a type that fits, so a typo in the spec fails here (and a misspelt accessor fails the C++ build)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import tvm_ffi.core
import yaml

import tilelang  # noqa: F401  (registers every IR type TVM has)
from projects import REPO

SPECS = sorted((REPO / "specs" / "ir").glob("*.yaml"))
NODES = [(spec.name, node) for spec in SPECS for node in yaml.safe_load(spec.read_text("utf-8"))["nodes"]]
VIEW_KEYS = {node["view"]: node["type_key"] for _, node in NODES}
# Spec field types -> the reflected type schemas they stand for.
BUILTIN = {"int": {"int", "ffi.BigInt"}, "float": {"float"}, "str": {"ffi.String"}, "dtype": {"DataType"},
           "list": {"ffi.Array"}, "map": {"ffi.Map"}}


def _type_info(type_key: str) -> Any:
    index = tvm_ffi.core._object_type_key_to_index(type_key)
    assert index is not None, f"TVM has no type '{type_key}'"
    return tvm_ffi.core._type_index_to_type_info(index)


def _fields(info: Any) -> dict[str, str]:
    """Reflected field name -> its type schema's type, inherited fields included."""
    out: dict[str, str] = {}
    while info is not None:
        for f in info.fields:
            out.setdefault(f.name, json.loads(f.metadata.get("type_schema", '{"type": "Any"}'))["type"])
        info = info.parent_type_info
    return out


def _ancestry(type_key: str) -> set[str]:
    keys = set()
    info = _type_info(type_key)
    while info is not None:
        keys.add(info.type_key)
        info = info.parent_type_info
    return keys


def test_specs_exist() -> None:
    assert SPECS and NODES


@pytest.mark.parametrize(("spec", "node"), NODES, ids=[f"{n['view']}" for _, n in NODES])
def test_node_type_and_fields_exist_in_tvm(spec: str, node: dict[str, Any]) -> None:
    info = _type_info(node["type_key"])
    assert info.type_key == node["type_key"]
    reflected = _fields(info)
    for name, field in node.get("fields", {}).items():
        assert name in reflected, f"{spec}: {node['type_key']} has no field '{name}' (fields: {sorted(reflected)})"
        declared, actual = field["type"], reflected[name]
        if declared == "any":
            continue
        if declared in BUILTIN:
            assert actual in BUILTIN[declared], f"{spec}: {node['view']}.{name} is {actual}, not {declared}"
        else:  # a view: TVM declares the field as its type or as a base of it
            assert actual in _ancestry(VIEW_KEYS[declared]), \
                f"{spec}: {node['view']}.{name} holds {actual}, which is not a {VIEW_KEYS[declared]}"


def test_views_of_the_generated_header_are_the_spec_nodes() -> None:
    header = (REPO / "generated" / "cpp" / "ir_nodes.h").read_text("utf-8")
    for _, node in NODES:
        assert f"class {node['view']} : public Node" in header
        assert f'kTypeKey = "{node["type_key"]}"' in header
