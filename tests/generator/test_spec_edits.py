"""Edits of real specs that once exited 0 and left a broken package (issue 19) are pinned `path:LINE:COL: message`
errors, and generated/ keeps every byte.

Each case is tests/fixtures/edits/<case>.yaml: `delete` (a path of the project copy: a spec, a folder, or
`folder/*` for its contents), `add` and `text` (a new spec file), or `spec`, `replace` and `with` (one text edit of
that spec); its first comment says what the edit did before. <case>.expected holds the exact diagnostics (`{line}`:
the line the text edit starts on). The
self-contained bad specs of the same study (alias bomb, deep nesting, keyword names, control characters, negative
repeat counts, option bounds) are cases of tests/fixtures/errors (test_spec_errors.py).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from test_spec_errors import COUNT_LINE, REPO, run_generate, split_stderr

from generator.cli import main
from generator.diagnostics import GeneratorError
from generator.project import Project, load_project
from generator.render import render_all
from projects import TESTS, snapshot

EDITS = TESTS / "fixtures" / "edits"
CASES = sorted(p.stem for p in EDITS.glob("*.yaml"))


@pytest.fixture(scope="module")
def generated_project(base_project: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project with its generated/ (the state a user's checkout is in)."""
    root = tmp_path_factory.mktemp("edits") / "project"
    shutil.copytree(base_project, root)
    assert main(["--root", str(root), "--out", str(root / "generated"), "generate", "--quiet"]) == 0
    return root


def apply_edit(root: Path, edit: dict[str, str]) -> None:
    if "add" in edit:
        (root / edit["add"]).parent.mkdir(parents=True, exist_ok=True)
        (root / edit["add"]).write_text(edit["text"], "utf-8")
        return
    if "delete" in edit:
        target = root / edit["delete"].removesuffix("/*")
        for path in (sorted(target.iterdir()) if edit["delete"].endswith("/*") else [target]):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        return
    spec = root / edit["spec"]
    text = spec.read_text("utf-8")
    assert text.count(edit["replace"]) == 1, f"{edit['replace']!r} must occur once in {edit['spec']}"
    spec.write_text(text.replace(edit["replace"], edit["with"]), "utf-8")


def edited_line(root: Path, edit: dict[str, str]) -> str:
    """The line a text edit starts on, before the edit: `{line}` in <case>.expected, so that the pinned errors do
    not move whenever a spec above the edit grows."""
    if "spec" not in edit:
        return "{line}"
    text = (root / edit["spec"]).read_text("utf-8")
    return str(text[:text.index(edit["replace"])].count("\n") + 1)


def test_cases_are_paired() -> None:
    assert len(CASES) >= 12
    assert {p.stem for p in EDITS.glob("*.expected")} == set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_edit_is_a_pinned_error(case: str, generated_project: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "project"
    shutil.copytree(generated_project, root)
    before = snapshot(root / "generated")
    edit = yaml.safe_load((EDITS / f"{case}.yaml").read_text("utf-8"))
    line = edited_line(root, edit)
    apply_edit(root, edit)
    code, err = run_generate(root, capsys)
    lines, count = split_stderr(err)
    want = (EDITS / f"{case}.expected").read_text("utf-8").replace("{line}", line).rstrip("\n").split("\n")
    assert (code, lines) == (1, want)
    match = COUNT_LINE.match(count)
    assert match and int(match.group(1)) == len(want), count
    assert snapshot(root / "generated") == before  # nothing lost, nothing half-written
    with pytest.raises(GeneratorError) as raised:  # the library reports the same (rendering included)
        project = Project.at(root)
        render_all(project, load_project(project))
    assert [str(d) for d in raised.value.diagnostics.sorted()] == want


def test_removing_an_ir_view_the_engines_use_names_each_use(generated_project: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Deleting specs/ir once exited 0 with an empty ir_nodes.h (the C++ passes no longer built). The errors point
    into src/transform, whose lines move, so they are matched by form rather than pinned."""
    root = tmp_path / "project"
    shutil.copytree(generated_project, root)
    before = snapshot(root / "generated")
    apply_edit(root, {"delete": "specs/ir"})
    code, err = run_generate(root, capsys)
    lines, _ = split_stderr(err)
    assert code == 1 and snapshot(root / "generated") == before
    form = re.compile(r"^src/transform/\w+\.(cc|h):\d+:\d+: the C\+\+ engines use ir::(\w+), which no ir spec "
                      r"declares \(specs/ir/\)$")
    op_map = re.compile(r"^specs/ops/\w+\.yaml:\d+:\d+: op '\w+': node '\w+' needs a view with Expr fields .+ in "
                        r"an ir spec \(specs/ir\)$")  # the element-wise op map names the views its ops match
    engine_lines = [line for line in lines if not op_map.match(line)]
    views = {m.group(2) for line in engine_lines if (m := form.match(line))}
    assert len(views) == len(engine_lines) and {"For", "PrimFunc", "Call", "BufferStore"} <= views, lines
    assert len(engine_lines) < len(lines)


def test_a_tile_op_must_match_its_builder(generated_project: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`primitive: copy` for T.gemm once exited 0, and every GEMM then failed in build_copy with a TypeError. The
    builders are read from the hand-written frontend engine, which a copy of the specs alone does not have."""
    root = tmp_path / "project"
    shutil.copytree(generated_project, root)
    shutil.copytree(REPO / "python/tilelang/language", root / "python/tilelang/language",
                    ignore=shutil.ignore_patterns("__pycache__"))
    apply_edit(root, {"spec": "specs/language/tilelang.yaml", "replace": "    primitive: gemm\n",
                      "with": "    primitive: copy\n"})
    code, err = run_generate(root, capsys)
    line = (REPO / "specs/language/tilelang.yaml").read_text().splitlines().index("  - name: gemm") + 1  # its name
    assert (code, split_stderr(err)[0]) == (1, [
        f"specs/language/tilelang.yaml:{line}:11: T.gemm passes 'A', 'B', 'C', 'transpose_A', 'transpose_B', "
        "'clear_accum', which it does not take (build_copy takes dst, src)"])
