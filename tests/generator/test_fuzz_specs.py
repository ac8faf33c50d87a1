"""Property test: no mutation of a valid spec file makes the generator crash or half-write generated/.

A copy of the project is generated once; each example mutates one real spec file in the copy (structure,
types, key names, hostile strings, raw text and bytes), runs `generate` in-process and checks that:
(a) nothing but SystemExit escapes main(); (b) the exit code is 0 or 1; (c) on 1, every diagnostic line is
`specs/...:LINE:COL: message`; (d) on 1, generated/ is byte-identical; (e) on 0, every generated Python file
still compiles and imports nothing new, so injected text stayed inside string literals.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from fuzzing import campaign
from hypothesis import given
from hypothesis import strategies as st

from generator.cli import main

TARGETS = (
    "specs/backends/tenstorrent.yaml",
    "specs/intrinsics/circular_buffer.yaml",
    "specs/intrinsics/sfpu.yaml",
    "specs/intrinsics/tile_ops.yaml",
    "specs/intrinsics/kernel_args.yaml",
    "specs/intrinsics/noc.yaml",
)
DIAGNOSTIC = re.compile(r"^specs/[^:]+:\d+:\d+: .+")
COUNT_LINE = re.compile(r"^\d+ errors?; nothing was written\.$")
HUGE = 100_000

INJECTIONS = (
    'x"); import os; ("',
    "x'); import os; ('",
    '"""; import os; """',
    "'''; import os; '''",
    "\\",
    'ends with a quote"',
    "{{ cookiecutter.x }}",
    "{% for x in y %}{{ x }}{% endfor %}",
    "{op}",
    "*/ #include <evil.h>",
    "// comment \\\nimport os",
    "first line\nimport os\n  indented",
    "\r\nimport os\r\n",
    "| pipe | table |",
    "<!-- --> <script>",
    "nul \x00 byte",
    "bell \x07 and escape \x1b[31m",
    "\u202e RTL override \u202c",
    "עברית ومرحبا",
    "emoji 😀🔥👩\u200d💻",
    "line separator \u2028 and \u2029",
    "\ufeffbom",
    "`backticks` and $dollars$",
    "",
    " ",
    "~",
    "null",
    "yes",
    "0x1F",
    "1e400",
)

# Raw YAML written in place of a key or a value: tags, anchors, aliases, odd scalars, broken syntax.
RAW_YAML = (
    "!!int abc", "!!float x", "!!bool maybe", "!!int 0b102", "!!null x", "!!str [a]", "!!map x", "!!seq x",
    "!!python/object/apply:os.system [ls]", "!!python/name:os.system", "!!set {a, b}", "!!omap [a: 1]",
    "!!pairs [[a]]", "!!binary aGk=", "!!timestamp 2001-12-14", "!<tag:example.com,2000:x> y", "!local x",
    "2001-12-14", "&a [*a]", "&b {k: *b}", "*undefined", "{<<: {a: 1}}", "{a: 1, a: 2}", "? [a]", "[a, b",
    "'unterminated", '"\\q"', "9" * 5000, ".nan", "-.inf", "0o17", "0x_1F", "1_000", "~", "", "|\n  block",
    ">-\n  folded", "%TAG ! x", "@reserved", "`tick", "- - -", "{? a}", "[{a: [b, {c: d}]}]", "\t",
)
keys = st.one_of(
    st.sampled_from(["kind", "name", "doc", "family", "level", "roles", "effect", "args", "cpp", "profiles",
                     "defaults", "headers", "intrinsics", "target", "api_profile", "api_profiles", "foreach",
                     "returns", "<<", "Name", "doc ", "", "a\nb", "x\u2028y", "it's"]),
    st.text(max_size=12),
    st.integers(),
)
huge_strings = st.sampled_from(["x", "😀", "\u202e", "a\n", '"', "\\"]).map(lambda s: s * (HUGE // len(s)))
strings = st.one_of(st.sampled_from(INJECTIONS), st.text(max_size=40), huge_strings)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), strings)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=10), inner, max_size=3)),
    max_leaves=6,
)


@dataclass
class FuzzProject:
    root: Path
    originals: dict[str, bytes]  # target spec -> its valid text
    data: dict[str, dict[str, Any]]  # target spec -> its parsed content
    generated: dict[str, bytes]  # generated/ after a clean run
    imports: frozenset[str]  # modules the clean generated Python imports

    @property
    def out(self) -> Path:
        return self.root / "generated"


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def restore(out: Path, files: dict[str, bytes]) -> None:
    """Put generated/ back to `files` after a run that was allowed to change it."""
    for path in sorted(out.rglob("*"), reverse=True):
        rel = path.relative_to(out).as_posix()
        if path.is_file() and rel not in files:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    for rel, content in files.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_bytes() != content:
            target.write_bytes(content)


def imported_modules(files: dict[str, bytes]) -> frozenset[str]:
    """Compile every generated Python file (must not raise) and collect the modules it imports."""
    modules: set[str] = set()
    for rel, content in files.items():
        if not rel.endswith(".py"):
            continue
        source = content.decode("utf-8")
        compile(source, rel, "exec", dont_inherit=True)
        for node in ast.walk(ast.parse(source, rel)):
            if isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                modules.add(f"{'.' * node.level}{node.module or ''}")
    return frozenset(modules)


def run_generate(root: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(["--root", str(root), "--out", str(root / "generated"), "generate", "--quiet"])
        except SystemExit as exc:  # argparse only; still a clean exit
            code = exc.code if isinstance(exc.code, int) else 1
    return code, err.getvalue()


@pytest.fixture(scope="module")
def fuzz_project(tmp_path_factory: pytest.TempPathFactory, base_project: Path) -> FuzzProject:
    root = tmp_path_factory.mktemp("fuzz") / "project"
    shutil.copytree(base_project, root)
    kept = TARGETS + ("specs/language/tilelang.yaml", "specs/ir/tirx.yaml")  # a package needs these two
    for spec in (root / "specs").rglob("*.yaml"):  # only the targets: every run parses less
        if spec.relative_to(root).as_posix() not in kept:
            spec.unlink()
    # The pipelines and passes the tenstorrent backend names are not kept, so it is fuzzed as a backend that
    # is registered without a lowering pipeline (its own fields are what the mutations exercise).
    backend = root / "specs/backends/tenstorrent.yaml"
    phases = ("legalize:", "pipeline:", "split:", "codegen:", "runs_on:", "programs:")
    backend.write_text("".join(line for line in backend.read_text("utf-8").splitlines(keepends=True)
                               if not line.startswith(phases)), "utf-8")
    code, err = run_generate(root)
    assert (code, err) == (0, ""), err
    originals = {rel: (root / rel).read_bytes() for rel in TARGETS}
    data = {rel: yaml.safe_load(text) for rel, text in originals.items()}
    generated = snapshot(root / "generated")
    return FuzzProject(root, originals, data, generated, imported_modules(generated))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path below the root (keys of mappings, indices of lists)."""
    children: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        children = list(value.items())
    elif isinstance(value, list):
        children = list(enumerate(value))
    for key, child in children:
        yield prefix + (key,)
        yield from _paths(child, prefix + (key,))


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


def _dump(data: Any, modeline: bytes) -> bytes:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    return modeline + text.encode("utf-8")


def mutate(data: st.DataObject, project: FuzzProject) -> tuple[str, bytes]:
    """(target spec, its mutated bytes)."""
    draw = data.draw
    target = draw(st.sampled_from(TARGETS))
    original = project.originals[target]
    modeline = original.split(b"\n", 1)[0] + b"\n"
    content = copy.deepcopy(project.data[target])
    paths = list(_paths(content))
    how = draw(st.sampled_from(["drop", "rename", "retype", "inject", "inject_doc", "inject_doc", "dup_line",
                                "raw", "raw", "truncate", "bytes", "insert_text"]))
    if how in ("drop", "rename", "retype", "inject", "inject_doc"):
        if how == "inject":
            paths = [p for p in paths if isinstance(_parent(content, p)[p[-1]], str)]
        elif how == "inject_doc":  # free-text fields, so the mutation usually passes and gets rendered
            paths = [p for p in paths if p[-1] in ("doc", "note")]
        elif how in ("drop", "rename"):
            paths = [p for p in paths if isinstance(p[-1], str)]
        path = draw(st.sampled_from(paths))
        parent = _parent(content, path)
        if how == "drop":
            del parent[path[-1]]
        elif how == "rename":
            parent[draw(keys)] = parent.pop(path[-1])
        elif how == "retype":
            parent[path[-1]] = draw(values)
        elif how == "inject":
            parent[path[-1]] = draw(strings)
        else:
            parent[path[-1]] = draw(st.one_of(st.sampled_from(INJECTIONS), st.text(min_size=1, max_size=200)))
        return target, _dump(content, modeline)
    lines = original.split(b"\n")
    if how == "dup_line":  # a duplicate key (or a second list item) by a text edit
        index = draw(st.integers(1, len(lines) - 2))
        lines.insert(index + 1, lines[index])
        return target, b"\n".join(lines)
    if how == "raw":  # replace the key or the value of one `key: value` line with raw YAML
        index = draw(st.sampled_from([i for i, line in enumerate(lines) if b": " in line and i > 0]))
        key, value = lines[index].split(b": ", 1)
        raw = draw(st.sampled_from(RAW_YAML)).encode("utf-8")
        indent = key[: len(key) - len(key.lstrip(b" -"))]
        lines[index] = indent + raw + b": " + value if draw(st.booleans()) else key + b": " + raw
        return target, b"\n".join(lines)
    if how == "truncate":
        return target, original[: draw(st.integers(0, len(original) - 1))]
    offset = draw(st.integers(0, len(original)))
    if how == "bytes":
        chunk = draw(st.binary(min_size=1, max_size=32))
        cut = draw(st.integers(0, 8))
        return target, original[:offset] + chunk + original[offset + cut:]
    chunk = draw(strings).encode("utf-8")
    return target, original[:offset] + chunk + original[offset:]


@campaign(default=40, full=500)  # a generator run each: ~0.35 CPU-s
@given(data=st.data())
def test_mutated_spec_never_crashes_or_half_writes(fuzz_project: FuzzProject, data: st.DataObject) -> None:
    target, mutated = mutate(data, fuzz_project)
    spec = fuzz_project.root / target
    spec.write_bytes(mutated)
    try:
        code, err = run_generate(fuzz_project.root)  # (a): any other exception fails the test
        assert code in (0, 1), err  # (b)
        if code == 1:
            *diagnostics, count = err.rstrip("\n").split("\n")  # not splitlines(): only \n ends a line
            assert COUNT_LINE.match(count), count
            assert diagnostics
            for line in diagnostics:  # (c)
                assert DIAGNOSTIC.match(line), line
            assert snapshot(fuzz_project.out) == fuzz_project.generated  # (d)
        else:
            assert err == ""
            after = snapshot(fuzz_project.out)
            assert imported_modules(after) <= fuzz_project.imports  # (e)
    finally:
        spec.write_bytes(fuzz_project.originals[target])
        restore(fuzz_project.out, fuzz_project.generated)
