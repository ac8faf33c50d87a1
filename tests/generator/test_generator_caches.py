"""The generator's speed-ups change nothing it produces: libyaml composes the same marks as the pure-Python
composer, templates compiled from the bytecode cache render the same bytes as freshly compiled ones, and a spec file
parsed again in one process comes from the loader's cache only while its path and bytes are unchanged."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from generator import loader
from generator.diagnostics import Diagnostics
from generator.project import Project, load_project
from generator.render import render_all
from projects import REPO

YAML_FILES = sorted(p for part in ("specs", "tests/fixtures") for p in (REPO / part).rglob("*.yaml"))


def _marks(node: yaml.Node, active: frozenset[int] = frozenset()) -> list[tuple[object, ...]]:
    """Every node's kind, tag, value (scalars) and start/end line and column, depth first."""
    if id(node) in active:
        return [("alias cycle",)]
    active = active | {id(node)}
    own: tuple[object, ...] = (type(node).__name__, node.tag, node.start_mark.line, node.start_mark.column,
                               node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.MappingNode):
        return [own] + [m for k, v in node.value for m in _marks(k, active) + _marks(v, active)]
    if isinstance(node, yaml.SequenceNode):
        return [own] + [m for item in node.value for m in _marks(item, active)]
    return [own + (node.value,)]


def _compose(loader_class: type[yaml.SafeLoader], text: str) -> object:
    try:
        composer = loader_class(text)
    except yaml.YAMLError:
        return "error"
    try:
        node = composer.get_single_node()
        return None if node is None else _marks(node)
    except yaml.YAMLError:
        return "error"
    finally:
        composer.dispose()


@pytest.mark.skipif(loader.FAST_LOADER is yaml.SafeLoader, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("file", YAML_FILES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_libyaml_gives_the_same_marks(file: Path) -> None:
    if file.stem in ("alias_bomb", "deep_nesting"):  # refused on parser events, before any composer runs
        assert loader.structure_problem(file.read_text("utf-8"), file.name) is not None
        return
    text = file.read_bytes().decode("utf-8", "replace")
    if file.stem == "lone_surrogate":  # libyaml refuses a surrogate escape; the loader then composes with PyYAML
        assert _compose(loader.FAST_LOADER, text) == "error" != _compose(yaml.SafeLoader, text)
        return
    assert _compose(loader.FAST_LOADER, text) == _compose(yaml.SafeLoader, text)


def test_a_file_libyaml_rejects_gets_the_pure_python_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("# yaml-language-server: $schema=x\nkind: pass\nname: [a, b\n", "utf-8")
    diagnostics = Diagnostics()
    assert loader.load_spec(bad, "bad.yaml", diagnostics) is None
    assert [str(d) for d in diagnostics.items] == [
        "bad.yaml:4:1: YAML syntax error: expected ',' or ']', but got '<stream end>'"]


def test_cached_templates_render_the_same_bytes(project: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    the_project = Project.at(project)
    model = load_project(the_project)
    cold = render_all(the_project, model)  # compiles every template and fills the cache
    cached = sorted((tmp_path / "cache" / "tilelang" / "jinja").rglob("*.cache"))
    assert cached, "the bytecode cache was not written"
    warm = render_all(the_project, model)  # loads them from it
    assert warm == cold
    template = the_project.templates / "python" / "attr_keys.py.j2"  # edited: compiled again, never served stale
    template.write_text(template.read_text("utf-8") + "# edited\n", "utf-8")
    edited = {o.path: o.content for o in render_all(the_project, model)}
    assert [o.path for o in cold if edited[o.path] != o.content] == ["tilelang/tenstorrent/attr_keys.py"]


def test_a_spec_parsed_again_comes_from_its_content(tmp_path: Path) -> None:
    """The loader's in-process cache is keyed on a file's path and bytes: an edit that keeps the size and the
    modification time is seen, each load gets its own data, and a hit equals a fresh parse."""
    spec = tmp_path / "a.yaml"
    spec.write_text("# yaml-language-server: $schema=x\nkind: pass\nname: Aaa\nlist: [1, {b: 2}]\n", "utf-8")
    stamp = spec.stat().st_mtime_ns
    first = loader.load_spec(spec, "a.yaml", Diagnostics())
    assert first is not None and first.data == {"kind": "pass", "name": "Aaa", "list": [1, {"b": 2}]}
    first.data["list"][1]["b"] = 3  # a caller's change reaches no later load
    second = loader.load_spec(spec, "a.yaml", Diagnostics())
    assert second is not None and second.data["list"] == [1, {"b": 2}]
    loader._PARSED.clear()
    assert loader.load_spec(spec, "a.yaml", Diagnostics()) == second
    spec.write_text(spec.read_text("utf-8").replace("Aaa", "Bbb"), "utf-8")  # same size, same mtime
    os.utime(spec, ns=(stamp, stamp))
    edited = loader.load_spec(spec, "a.yaml", Diagnostics())
    assert edited is not None and edited.data["name"] == "Bbb"
    elsewhere = loader.load_spec(spec, "b.yaml", Diagnostics())  # another path: its own marks
    assert elsewhere is not None and elsewhere.at(("name",)).path == "b.yaml"
    spec.write_text("# no modeline\nkind: pass\n", "utf-8")  # a problem is reported on every load
    for _ in range(2):
        diagnostics = Diagnostics()
        assert loader.load_spec(spec, "a.yaml", diagnostics) is not None and len(diagnostics) == 1
