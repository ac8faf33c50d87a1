"""Records declared once (specs/records): the rendered JSON Schemas, and no field name, counter name or tile-op kind
written by hand elsewhere.

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
from generator.naming import camel
from generator.records import RecordSet, build_records
from projects import REPO
from tilelang.tenstorrent.plan_schema import SCHEMAS
from tilelang.tenstorrent.records import RECORD_FIELDS

FIELDS = frozenset(name for names in RECORD_FIELDS.values() for name in names)
# The records of the host templates' context (main.cpp.j2, run_ttnn.py.j2): Python only, so not the C++ sources'.
CONTEXT_RECORDS = ("host_tensor", "host_mask", "ttnn_tensor", "ttnn_cb")


def _record_sets() -> list[RecordSet]:
    out = []
    for path in sorted((REPO / "specs" / "records").glob("*.yaml")):
        diagnostics = Diagnostics()
        spec = load_spec(path, f"specs/records/{path.name}", diagnostics)
        assert spec is not None and not diagnostics, diagnostics.render()
        out.append(build_records(spec, diagnostics))
    return out


RECORD_SETS = _record_sets()
# What C++ names through the key constants of records.h: the documents' records and the engines' in-memory ones
# (buffer_info); a tile op's fields are the engines' names (tl::names), its kind a tl::tile_op constant.
CPP_FIELDS = frozenset(f.name for rs in RECORD_SETS for r in rs.keyed_values if r.name not in CONTEXT_RECORDS
                       for f in r.fields)
TILE_OPS = next(rs for rs in RECORD_SETS if rs.name == "tile_ops")
KINDS = frozenset(r.name for r in TILE_OPS.kinds)
TT = REPO / "python" / "tilelang" / "tenstorrent"
PACKAGE = REPO / "python" / "tilelang"
# Every hand-written module: the ones that write or read the records name every field through the rendered key
# constants (tilelang/tenstorrent/records.py). A string that is a field name but no record's key, with why.
PY_NOT_KEYS = {("tenstorrent/cache.py", "kernels"): "a folder of the cache (LIMITS)",
               ("tenstorrent/emulator.py", "profile"): "a variable of the CMake package templates",
               ("tenstorrent/host_args.py", "constant"): "the kind of a plain-number runtime argument (ARG_KINDS)"}
# All C++ of the engines and the emulator: records through generated/cpp/records.h and tt_emu/records.hpp.
CPP_SOURCES = sorted(str(p.relative_to(REPO)) for folder, pattern in (("src/transform", "*.[ch]*"),
                                                                       ("src/emulator/src", "*.[ch]pp"))
                     for p in (REPO / folder).glob(pattern))
# A string literal where C++ uses a key: json["key"], {"key", value} pairs (ordered, dict), str("key") / String("key")
# (item, Set, count, at), attr(x, "key") and get(d, "key").
CPP_KEY = re.compile(r'\[\s*"([a-z_0-9]+)"\s*\]|\{\s*"([a-z_0-9]+)"\s*,|\b(?:str|String)\(\s*"([a-z_0-9]+)"\s*\)'
                     r'|\b(?:attr|get)\((?:[^;()]|\([^;()]*\))*,\s*"([a-z_0-9]+)"\s*\)')
# A string literal where the engines use a tile op's kind: op.kind == "x", TileOp op{"x", ...} (with a choice:
# {in ? "x" : "y", ...}), op.kind = "x", hold_op("x", ...).
KIND_USE = re.compile(r'\.kind\s*[!=]=\s*"([a-z_0-9]+)"|\bTileOp(?:\s+\w+)?\s*\{\s*(?:\w+\s*\?\s*)?"([a-z_0-9]+)"'
                      r'(?:\s*:\s*"([a-z_0-9]+)")?|\.kind\s*=\s*"([a-z_0-9]+)"|\bhold_op\(\s*"([a-z_0-9]+)"')
# Lines where a kind's name is something else, with why.
NOT_KINDS = {("src/transform/tile_padding_values.cc", "identities_"): "a consumer of pad identities (sum, max, gemm)"}
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


def test_python_modules_name_no_field_by_hand() -> None:
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = str(path.relative_to(PACKAGE))
        hits += [f"{module}:{line}: {key!r}" for line, key in _string_keys(ast.parse(path.read_text("utf-8")))
                 if key in FIELDS and (module, key) not in PY_NOT_KEYS]
    assert not hits, "field names written by hand (use the key constants of tilelang.tenstorrent.records):\n" + \
        "\n".join(hits)


def _counter_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """Counter names a test uses as a key (subscripts and dict literal keys)."""
    counters = set(RECORD_FIELDS["counters"])
    nodes: list[ast.expr | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            nodes.append(node.slice)
        elif isinstance(node, ast.Dict):
            nodes += node.keys
    return [(n.lineno, n.value) for n in nodes
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in counters]


def test_tests_name_counters_through_the_constants() -> None:
    hits = [f"{path.name}:{line}: {key!r}" for path in sorted((REPO / "tests").glob("*.py"))
            for line, key in _counter_keys(ast.parse(path.read_text("utf-8")))]
    assert not hits, "counter names written by hand (use COUNTERS of tilelang.tenstorrent.records):\n" + \
        "\n".join(hits)


def test_a_counter_written_by_hand_is_found() -> None:
    tree = ast.parse('report["total"]["matmul_tiles"]\n{"noc_reads": 1}\n_row(out, "copy_tiles")')
    assert [k for _, k in _counter_keys(tree)] == ["matmul_tiles", "noc_reads"]


def _key(match: re.Match[str]) -> str:
    return next(g for g in match.groups() if g)


def test_a_cpp_key_written_by_hand_is_found() -> None:
    code = 'p["cbs"]; ordered({{"index", 1}}); item(w, str("core")); d.Set(String("depth"), x); attr(*cb, "stream"); ' \
           'option(options, "core_grid"); x == "fill"; get(as_dict(e), "mask")'
    assert [_key(m) for m in CPP_KEY.finditer(code)] == ["cbs", "index", "core", "depth", "stream", "mask"]


def _code(source: str) -> str:
    """A C++ source without its comments (line breaks kept, so offsets give line numbers)."""
    text = (REPO / source).read_text("utf-8")
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _line(code: str, offset: int) -> int:
    return code[:offset].count("\n") + 1


def test_cpp_names_no_field_by_hand() -> None:
    hits = [f"{source}:{_line(code, m.start())}: {m.group(0)}" for source in CPP_SOURCES for code in [_code(source)]
            for m in CPP_KEY.finditer(code) if _key(m) in CPP_FIELDS]
    assert not hits, "field names written by hand (use tl::records:: from records.h):\n" + "\n".join(hits)


def _kind_literals(source: str, code: str) -> tuple[list[str], list[str]]:
    """(declared kinds spelt as literals, undeclared kinds used as a tile op's kind) in one source."""
    lines = code.split("\n")
    skip = {i for i, text in enumerate(lines, 1) for (where, marker) in NOT_KINDS if where == source and marker in text}
    spelt = [f"{source}:{_line(code, m.start())}: \"{m.group(1)}\" -> tile_op::k{camel(m.group(1))}"
             for m in re.finditer(r'"([a-z_0-9]+)"', code)
             if m.group(1) in KINDS and _line(code, m.start()) not in skip]
    unknown = [f"{source}:{_line(code, m.start())}: \"{kind}\""
               for m in KIND_USE.finditer(code) for kind in m.groups() if kind and kind not in KINDS]
    return spelt, unknown


def test_tile_op_kinds_are_declared_and_named_through_the_constants() -> None:
    """Every tile-op kind the engines use is a record of specs/records/tile_ops.yaml, and the engines spell it only
    through its constant (tl::tile_op::kGemm, generated/cpp/records.h): a kind added in C++ alone is named here."""
    spelt: list[str] = []
    unknown: list[str] = []
    for source in CPP_SOURCES:
        if source.startswith("src/transform/"):
            found = _kind_literals(source, _code(source))
            spelt += found[0]
            unknown += found[1]
    assert not unknown, ("tile-op kinds not declared (add a record that extends tile_op, with the fields lower_tiles "
                         "cases see, to specs/records/tile_ops.yaml):\n" + "\n".join(unknown))
    assert not spelt, "tile-op kinds written by hand (use the constants of records.h):\n" + "\n".join(spelt)


def test_a_kind_written_by_hand_is_found() -> None:
    code = ('if (op.kind == "gemm") {} TileOp read{"copy_in", s}; TileOp t{in ? "topk" : "copy_out", s};\n'
            'x.kind = "argmax"; if (k != tile_op::kFill) {} if (pool == "sum") {}\nidentities_.count("gemm");')
    spelt, unknown = _kind_literals("src/transform/tile_padding_values.cc", code)
    assert [s.split(": ")[1] for s in spelt] == ['"gemm" -> tile_op::kGemm', '"copy_in" -> tile_op::kCopyIn',
                                                '"copy_out" -> tile_op::kCopyOut']
    assert [s.split(": ")[1] for s in unknown] == ['"topk"', '"argmax"']


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
