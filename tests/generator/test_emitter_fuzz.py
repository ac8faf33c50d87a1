"""Spec text reaches generated code only through the escapers of generator/naming.py, and no text breaks out.

1. Each escaper on random text: Python literals and docstrings evaluate back to the text, comments stay comments
   (one prefixed line per line, no line break, no trailing continuation), C++ string literals compiled by g++ hold
   exactly the text's UTF-8 bytes, Markdown cells stay one cell.
2. Random doc strings in a copy of the whole spec set: every changed Python file parses to the same statements
   (string constants aside), every changed C++ file passes `g++ -fsyntax-only` with the include paths of the real
   build and keeps the same tokens once comments are removed and string literals emptied (a doc ending in `\\`
   would have spliced the next line, say a `cb_push_back`, into its comment).
3. Random names for a new intrinsic: keywords are refused with their location; any other name renders into Python
   and C++ that parse and compile.
"""

from __future__ import annotations

import ast
import keyword
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import tvm_ffi.libinfo
import yaml
from fuzzing import campaign
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_specs import restore, run_generate, snapshot

from generator import naming

# Free text as a spec can hold it (no control characters but tab and newline), plus the injections of issue 19.
INJECTIONS = ("ends with a backslash \\", 'ends with a quote"', 'x"); import os; ("', '"""; import os; """',
              "*/ int evil; /*", "// \\\ncb_push_back(0, 1);", "??/", "trigraph ??=", "\\u0041\\x41\\n", "{{ x }}",
              "{op}", "| a | b |", "line\nbreak", "\u2028 and \u2029", "\ufeff bom", "\u202e rtl", "😀")
_FREE = st.text(st.characters(exclude_categories=("Cc", "Cs"), include_characters="\n\t\\\"'*/?"), min_size=1,
                max_size=120)
TEXT = st.one_of(st.sampled_from(INJECTIONS), _FREE.map(lambda s: s + "\\"), _FREE, _FREE.map(lambda s: s + '"'))
ANY_TEXT = st.text(max_size=80)  # what the escapers must survive even though the loader refuses some of it
DOC_TARGETS = ("specs/protocols/matmul_block_spill.yaml", "specs/protocols/reader_block_mcast.yaml",
               "specs/protocols/eltwise_tiles.yaml", "specs/protocols/pack_tiles.yaml",
               "specs/passes/lower_tt_protocols.yaml", "specs/passes/partition_tt_work.yaml",
               "specs/pipelines/optimize_tenstorrent.yaml", "specs/intrinsics/circular_buffer.yaml",
               "specs/intrinsics/tile_ops.yaml", "specs/ir/tirx.yaml", "specs/backends/tenstorrent.yaml",
               "specs/language/tilelang.yaml")
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


# ----------------------------------------------------------------------------------------- 1. the escapers

@campaign(default=100, full=2000)
@given(text=ANY_TEXT)
def test_python_escapers_round_trip(text: str) -> None:
    assert ast.literal_eval(naming.py_str(text)) == text
    assert ast.literal_eval(naming.py_value([text, 1])) == [text, 1]
    doc = naming.py_docstring(text)
    value = ast.literal_eval(doc)  # repr() of the stripped text, or the text in triple quotes, indented
    assert value == text.strip() or value.replace("\n    ", "\n").strip() == text.strip()
    module = ast.parse(f"def f():\n    {doc}\n    return 1\n")
    assert ast.get_docstring(module.body[0], clean=False) is not None  # type: ignore[arg-type]


@campaign(default=100, full=2000)
@given(text=ANY_TEXT)
def test_comments_cannot_be_left(text: str) -> None:
    for escape, prefix in ((naming.cpp_comment, "//"), (naming.py_comment, "#")):
        lines = escape(text).split("\n")
        for line in lines:
            assert line.startswith(prefix)
            assert not line.endswith(("\\", "??/"))
            assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]", line)
        assert len(lines) == len(re.split("\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]", text))
    comment = naming.py_comment(text)
    assert ast.parse(comment + "\nx = 1\n").body[0].lineno == len(comment.split("\n")) + 1
    cell = naming.md_cell(text)
    assert "\n" not in cell and not re.search(r"(?<!\\)(?:\\\\)*\|", cell)  # every | escaped by an odd run of \\


@campaign(default=3, full=20)  # one g++ build each
@given(texts=st.lists(st.text(st.characters(exclude_categories=("Cs",))), min_size=20, max_size=40))
def test_cpp_string_literals_hold_the_text(texts: list[str], tmp_path_factory: pytest.TempPathFactory) -> None:
    """g++ compiles every literal, and the program prints back each text's UTF-8 bytes."""
    texts = texts + list(INJECTIONS) + ["\x00", "nul\x00inside", "\x7f\x1b[0m\x85", "??=??/??'"]
    source = "#include <cstdio>\n#include <cstring>\nint main() {\n"
    for text in texts:
        encoded = text.encode("utf-8")
        source += (f"  {{ static const char s[] = {naming.cpp_str(text)};\n"
                   f"    for (unsigned i = 0; i + 1 < sizeof s; ++i) std::printf(\"%02x\", (unsigned char)s[i]);\n"
                   f"    std::printf(\"\\n\"); }}  {naming.cpp_comment(str(len(encoded)))}\n")
    folder = tmp_path_factory.mktemp("cpp_str")
    (folder / "t.cc").write_text(source + "  return 0;\n}\n", "utf-8")
    subprocess.run(["g++", "-std=c++17", "-o", str(folder / "t"), str(folder / "t.cc")], check=True,
                   capture_output=True, timeout=120)
    printed = subprocess.run([str(folder / "t")], check=True, capture_output=True, text=True).stdout.split("\n")
    assert printed[:-1] == [text.encode("utf-8").hex() for text in texts]


# ----------------------------------------------------------------------------------------- 2. docs in a spec set

@dataclass(repr=False)
class EmitProject:
    root: Path
    specs: dict[str, bytes] = field(repr=False)
    generated: dict[str, bytes] = field(repr=False)
    shapes: dict[str, str] = field(repr=False)  # generated file -> its statements without comments and strings


def _tvm_ffi_includes() -> list[str]:
    return [f"-I{tvm_ffi.libinfo.find_include_path()}", f"-I{tvm_ffi.libinfo.find_dlpack_include_path()}"]


def compile_command(root: Path, rel: str) -> list[str] | None:
    """g++ -fsyntax-only with the flags the real build uses for a generated C++ file (None: not C++)."""
    path = root / "generated" / rel
    if rel.startswith("cpp/") and path.suffix in (".cc", ".h"):
        return ["g++", "-std=c++17", "-fsyntax-only", "-x", "c++", f"-I{root / 'src/transform'}",
                f"-I{root / 'generated/cpp'}", *_tvm_ffi_includes(), str(path)]
    if rel.startswith("emulator/include/") and path.suffix in (".h", ".hpp"):
        profile = root / "generated" / "/".join(rel.split("/")[:3])
        return ["g++", "-std=c++20", "-fsyntax-only", "-x", "c++", f"-I{profile}", f"-I{root / 'src/emulator/include'}",
                str(path)]
    return None


def shape(rel: str, content: bytes) -> str:
    """A file's statements: Python's AST with string constants emptied; C++ after the preprocessor's phases 1-3
    (line splices, comments) with #include lines dropped and string literals emptied. '' for other files."""
    text = content.decode("utf-8")
    if rel.endswith(".py"):
        tree = ast.parse(text, rel)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                node.value = ""
        return ast.dump(tree)
    if compile_command(Path("."), rel) is None:
        return ""
    kept = "\n".join("" if line.lstrip().startswith("#include") else line for line in text.split("\n"))
    done = subprocess.run(["g++", "-E", "-P", "-x", "c++", "-std=c++20", "-"], input=kept, capture_output=True,
                          text=True, check=True, timeout=60)
    return STRING.sub('""', done.stdout)


@pytest.fixture(scope="module")
def emit_project(base_project: Path, tmp_path_factory: pytest.TempPathFactory) -> EmitProject:
    root = tmp_path_factory.mktemp("emit") / "project"
    shutil.copytree(base_project, root)
    assert run_generate(root) == (0, "")
    generated = snapshot(root / "generated")
    specs = {rel: (root / rel).read_bytes() for rel in DOC_TARGETS}
    return EmitProject(root, specs, generated, {rel: shape(rel, c) for rel, c in generated.items()})


def _doc_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if key == "doc" and isinstance(child, str):
                yield path + (key,)
            yield from _doc_paths(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _doc_paths(child, path + (i,))


def _set(data: Any, path: tuple[Any, ...], value: str) -> None:
    for part in path[:-1]:
        data = data[part]
    data[path[-1]] = value


def check_changed(project: EmitProject) -> list[str]:
    """The generated files that changed: each still parses (Python) or compiles (C++) with the same shape."""
    after = snapshot(project.root / "generated")
    changed = sorted(rel for rel, content in after.items() if project.generated.get(rel) != content)
    commands = [c for rel in changed if (c := compile_command(project.root, rel))]
    for rel in changed:
        assert shape(rel, after[rel]) == project.shapes.get(rel, ""), f"{rel} lost or gained a statement"
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
    return changed


# The tests of the rendered copy share one worker, so that it is copied and rendered once (~2.7 CPU-s) per run.
@pytest.mark.xdist_group("emit_project")
@campaign(default=5, full=50)  # a render and g++ on its changed C++ files: ~4 CPU-s each
@given(data=st.data())
def test_random_docs_keep_every_output_parsing_and_its_statements(emit_project: EmitProject,
                                                                   data: st.DataObject) -> None:
    target = data.draw(st.sampled_from(DOC_TARGETS))
    original = emit_project.specs[target]
    modeline, body = original.decode("utf-8").split("\n", 1)
    content = yaml.safe_load(body)
    for path in _doc_paths(content):  # every doc of the file: a protocol has one per step
        _set(content, path, data.draw(TEXT))
    spec = emit_project.root / target
    spec.write_text(modeline + "\n" + yaml.safe_dump(content, allow_unicode=True, sort_keys=False, width=100), "utf-8")
    try:
        code, err = run_generate(emit_project.root)
        assert (code, err) == (0, "")
        check_changed(emit_project)
    finally:
        spec.write_bytes(original)
        restore(emit_project.root / "generated", emit_project.generated)


@pytest.mark.xdist_group("emit_project")
def test_a_doc_ending_in_a_backslash_keeps_the_next_statement(emit_project: EmitProject) -> None:
    """Issue 19: `doc: "... \\"` on a protocol step commented out the cb_push_back under it in protocols.cc only."""
    spec = emit_project.root / "specs/protocols/pack_tiles.yaml"
    original = spec.read_bytes()
    text = original.decode("utf-8").replace("  - {call: cb_push_back, args: [cb, count]}",
                                            '  - {call: cb_push_back, args: [cb, count], doc: "publish \\\\"}')
    doc = r'doc: "a NUL escape written out, \\0, and a quote at the end\""' + "\n"  # YAML: ...\0... end"
    text = re.sub(r"^doc: >-\n(  .*\n)+", lambda _: doc, text, count=1, flags=re.M)
    spec.write_text(text, "utf-8")
    try:
        assert run_generate(emit_project.root) == (0, "")
        changed = check_changed(emit_project)
        assert "cpp/protocols.cc" in changed
        protocols = (emit_project.root / "generated/cpp/protocols.cc").read_text("utf-8")
        assert '  // publish \\.\n  b.call(std::string("cb_push_back")' in protocols
    finally:
        spec.write_bytes(original)
        restore(emit_project.root / "generated", emit_project.generated)


# ----------------------------------------------------------------------------------------- 3. names

NAMES = st.one_of(st.sampled_from(sorted(set(keyword.kwlist) - {"False", "None", "True"}) + ["delete", "new",
                                                                                              "template", "int"]),
                  st.from_regex(r"[a-z_][a-z0-9_]{0,20}", fullmatch=True))


@pytest.mark.xdist_group("emit_project")
@campaign(default=4, full=40)
@given(name=NAMES, arg=NAMES, doc=TEXT)
def test_random_names_are_refused_or_render(emit_project: EmitProject, name: str, arg: str, doc: str) -> None:
    spec = emit_project.root / "specs/intrinsics/tile_ops.yaml"
    original = spec.read_bytes()
    record = {"name": name, "roles": ["compute"], "doc": doc, "args": [{"name": arg, "type": "uint32", "doc": doc}]}
    dumped = yaml.safe_dump([record], allow_unicode=True, sort_keys=False, width=100)
    text = original.decode("utf-8").replace("\nintrinsics:\n", "\nintrinsics:\n" + "".join(
        "  " + line + "\n" for line in dumped.rstrip("\n").split("\n")), 1)
    spec.write_text(text, "utf-8")
    try:
        code, err = run_generate(emit_project.root)
        keywords = [n for n in (name, arg) if keyword.iskeyword(n) or n in ("delete", "new", "template", "int")]
        if code == 1:
            assert keywords or name in {i for i in re.findall(r"^  - name: (\w+)", original.decode(), re.M)}, err
            for word in keywords:
                assert f"'{word}' is a Python or C++ keyword, which cannot be a name in generated code" in err
            assert snapshot(emit_project.root / "generated") == emit_project.generated
        else:
            assert (code, err, keywords) == (0, "", [])
            after = snapshot(emit_project.root / "generated")
            for rel, content in after.items():
                if rel.endswith(".py") and emit_project.generated.get(rel) != content:
                    ast.parse(content.decode("utf-8"), rel)
            assert f"def {name}({arg}" in after["tilelang/language/tt.py"].decode("utf-8")
            changed = [rel for rel, content in after.items() if emit_project.generated.get(rel) != content]
            for command in [c for rel in changed if (c := compile_command(emit_project.root, rel))]:
                done = subprocess.run(command, capture_output=True, text=True, timeout=300)
                assert done.returncode == 0, done.stderr[-3000:]
    finally:
        spec.write_bytes(original)
        restore(emit_project.root / "generated", emit_project.generated)
