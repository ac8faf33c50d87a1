"""Records declared once (specs/records): the rendered JSON Schemas, and no field name written by hand elsewhere.

The plan of every corpus kernel is checked against the rendered schema where it is saved
(test_tt_codegen.py::test_every_generated_kernel_compiles_with_wall_werror: MetaliumProgram.save validates it),
and the emulator's report where a GEMM runs (test_tt_codegen.py::test_gemm_matches_numpy). These tests read
sources only: no kernel is compiled.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import jinja2
import jinja2.nodes
import jsonschema
import pytest

from generator.diagnostics import Diagnostics
from generator.loader import load_spec
from generator.records import build_records
from projects import REPO
from tilelang.tenstorrent.plan_schema import SCHEMAS
from tilelang.tenstorrent.records import RECORD_FIELDS

FIELDS = frozenset(name for names in RECORD_FIELDS.values() for name in names)
# The records of the host templates' context (main.cpp.j2, run_ttnn.py.j2): Python only, so not the C++ sources'.
CONTEXT_RECORDS = ("host_tensor", "host_mask", "ttnn_tensor", "ttnn_cb")
CPP_FIELDS = frozenset(name for record, names in RECORD_FIELDS.items() if record not in CONTEXT_RECORDS
                       for name in names)
TT = REPO / "python" / "tilelang" / "tenstorrent"
# The hand-written modules that write or read the records: they name every field through the rendered key
# constants (tilelang/tenstorrent/records.py).
PY_READERS = ("metalium.py", "host.py", "perf_model.py", "tt_metal_matmul.py", "ttnn_host.py", "ttnn_runner.py",
              "templates.py")
# The C++ that writes or reads them: through generated/cpp/records.h and the emulator's tt_emu/records.hpp.
CPP_READERS = ("src/transform/dataflow.cc", "src/transform/multicast.cc", "src/transform/partition.cc",
               "src/transform/finalize.cc", "src/emulator/src/plan.cpp", "src/emulator/src/report.cpp")
# A string literal where C++ uses a key: json["key"], {"key", value} pairs (ordered, dict), str("key") / String("key")
# (item, Set, count, at) and attr(x, "key").
CPP_KEY = re.compile(r'\[\s*"([a-z_0-9]+)"\s*\]|\{\s*"([a-z_0-9]+)"\s*,|\b(?:str|String)\(\s*"([a-z_0-9]+)"\s*\)'
                     r'|\battr\([^;()]*,\s*"([a-z_0-9]+)"\s*\)')
TEMPLATES = ("main.cpp.j2", "run_ttnn.py.j2")
# What a Jinja template may read off a value that is not a record field: the loop variable's and dicts' own.
JINJA_ATTRIBUTES = frozenset({"first", "last", "index", "index0", "length", "get", "items", "keys", "values"})


def _objects(node: Any, where: str = "#") -> Any:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _objects(value, f"{where}/{index}")


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_rendered_schemas_are_valid_closed_and_documented(name: str) -> None:
    schema = SCHEMAS[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    for where, node in _objects(schema):
        if node.get("type") == "object" and "properties" in node:
            assert node.get("additionalProperties") is False, f"{name} {where} accepts unknown keys"
            for prop, value in node["properties"].items():
                assert value.get("description") or "$ref" in value, f"{name} {where}/properties/{prop}"


def _string_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants a module uses as a key: subscripts, .get/.setdefault/.pop, `in` tests, dict literal keys
    and dict(...) keywords."""
    found: list[tuple[int, str]] = []

    def const(node: ast.AST | None) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append((node.lineno, node.value))

    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            const(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in ("get", "setdefault", "pop"):
                const(node.args[0])
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            const(node.left)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                const(key)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
            found += [(node.lineno, k.arg) for k in node.keywords if k.arg]
    return found


@pytest.mark.parametrize("module", PY_READERS)
def test_python_readers_name_no_field_by_hand(module: str) -> None:
    path = TT / module
    hits = [f"{module}:{line}: {key!r}" for line, key in _string_keys(ast.parse(path.read_text("utf-8")))
            if key in FIELDS]
    assert not hits, "field names written by hand (use the key constants of tilelang.tenstorrent.records):\n" + \
        "\n".join(hits)


def _key(match: re.Match[str]) -> str:
    return next(g for g in match.groups() if g)


def test_a_cpp_key_written_by_hand_is_found() -> None:
    code = 'p["cbs"]; ordered({{"index", 1}}); item(w, str("core")); d.Set(String("depth"), x); attr(*cb, "stream"); ' \
           'option(options, "core_grid"); x == "fill"'
    assert [_key(m) for m in CPP_KEY.finditer(code)] == ["cbs", "index", "core", "depth", "stream"]


@pytest.mark.parametrize("source", CPP_READERS)
def test_cpp_writers_and_readers_name_no_field_by_hand(source: str) -> None:
    code = re.sub(r"//[^\n]*", "", (REPO / source).read_text("utf-8"))
    hits = [f"{source}:{code[:m.start()].count(chr(10)) + 1}: {m.group(0)}"
            for m in CPP_KEY.finditer(code) if _key(m) in CPP_FIELDS]
    assert not hits, "field names written by hand (use tl::records:: from records.h):\n" + "\n".join(hits)


@pytest.mark.parametrize("template", TEMPLATES)
def test_templates_read_only_declared_fields(template: str) -> None:
    """Every attribute main.cpp.j2 / run_ttnn.py.j2 read off a value is a field of a record (the plan's, or the
    host_tensor / ttnn_tensor / ttnn_cb records of their context) or a loop's or dict's own."""
    env = jinja2.Environment(extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"])
    tree = env.parse((TT / "metalium" / template).read_text("utf-8"))
    read = {n.attr for n in tree.find_all(jinja2.nodes.Getattr)}
    read |= {n.arg.value for n in tree.find_all(jinja2.nodes.Getitem)
             if isinstance(n.arg, jinja2.nodes.Const) and isinstance(n.arg.value, str)}
    assert read, template
    assert not read - FIELDS - JINJA_ATTRIBUTES, f"{template} reads undeclared fields"


def test_an_undeclared_field_in_a_template_is_found() -> None:
    env = jinja2.Environment()
    tree = env.parse("{{ cb.block_pagez }}{{ cb['depth'] }}")
    read = {n.attr for n in tree.find_all(jinja2.nodes.Getattr)}
    assert read - FIELDS == {"block_pagez"}


def test_a_key_written_by_hand_is_found() -> None:
    keys = _string_keys(ast.parse('cb["block_pages"]\nplan.get("cbs")\n"noc_x" in v\n{"depth": 1}\ndict(t, rows=1)'))
    assert [k for _, k in keys] == ["block_pages", "cbs", "noc_x", "depth", "rows"]


def _spec(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "bad.yaml"
    path.write_text(text, "utf-8")
    return load_spec(path, "bad.yaml", Diagnostics())


BAD = """kind: record
name: bad
title: bad.json
doc: A bad record spec.
root: top
records:
  - name: top
    doc: The root.
    fields:
      a: {type: widget, doc: An unknown type.}
      b: {type: int}
      c: {type: list, doc: A list without items.}
  - name: loop
    doc: Names itself.
    fields:
      self: {type: loop}
  - name: form
    doc: A variant naming a required field.
    fields:
      x: {type: int, doc: Required.}
    variants:
      - {doc: one, required: [x]}
      - {doc: two, required: [y]}
"""


def test_bad_record_specs_name_what_and_where(tmp_path: Path) -> None:
    diagnostics = Diagnostics()
    build_records(_spec(tmp_path, BAD), diagnostics)
    text = diagnostics.render()
    for expected in ("unknown type 'widget'", "a field of a builtin type needs a doc",
                     "a list has items and a map has values", "records name each other in a cycle: loop -> loop",
                     "variant 'two' of record 'form' requires 'y'", "bad.yaml:10:"):
        assert expected in text, text
