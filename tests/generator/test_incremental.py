"""The incremental generator (generator/incremental.py, generator/render_cache.py): a `generate` with nothing to do
stops after hashing its inputs, without importing jsonschema or jinja2; a spec edit re-renders only the outputs that
read what it changed, and the result is byte for byte a full run's; `check` stays exact (a hand edit and a stale
output are found); the record lives under build/, never in generated/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from generator import cli, incremental
from generator.layout import Project
from projects import REPO, copy_project, snapshot


def run(root: Path, *args: str) -> int:
    return cli.main(["--root", str(root), *args])


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project, generated once (its record written) for the tests of this module."""
    root = copy_project(tmp_path_factory.mktemp("incremental") / "project")
    assert run(root, "generate", "-q") == 0
    return root


def test_the_record_lives_under_build(generated: Path) -> None:
    project = Project.at(generated)
    record = incremental.state_file(project)
    assert record.parent == generated / "build" / "generator" and record.is_file()
    assert not [p for p in (generated / "generated").rglob("*") if "state" in p.name]
    state = incremental.load_state(project)
    assert state.inputs == incremental.input_digest(project)
    assert set(state.outputs) == set(snapshot(generated / "generated"))


def test_a_no_op_imports_neither_jsonschema_nor_jinja2(generated: Path) -> None:
    env_path = str(REPO)
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "generator", "--root", str(generated),
                             "generate", "-q"], capture_output=True, text=True, check=True,
                            env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    files = len(snapshot(generated / "generated"))
    assert result.stdout.strip() == f"generated/: wrote 0, removed 0, unchanged {files}"
    imported = {line.split("|")[-1].strip().split(".")[0] for line in result.stderr.splitlines()}
    assert not imported & {"jsonschema", "jinja2", "yaml", "referencing"}, sorted(imported)


def _rendered(capsys: pytest.CaptureFixture[str]) -> tuple[int, int]:
    line = next(x for x in capsys.readouterr().out.splitlines() if "rendered" in x)
    words = line.split()
    return int(words[1]), int(words[3])


def test_a_spec_edit_re_renders_what_depends_on_it_and_matches_a_full_run(
        generated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = generated / "specs" / "passes" / "simplify.yaml"
    text = spec.read_text("utf-8")
    assert "  Arithmetic and statement" in text
    spec.write_text(text.replace("  Arithmetic and statement", "  Edited. Arithmetic and statement", 1), "utf-8")
    capsys.readouterr()
    assert run(generated, "generate") == 0
    rendered, total = _rendered(capsys)
    # The pass's own C++ file and the few outputs that list every pass (the Python wrappers, the docs, ...).
    assert 1 <= rendered <= 8 < total, (rendered, total)
    full = tmp_path / "full"  # another output folder has no record: everything is rendered
    assert run(generated, "--out", str(full), "generate") == 0
    assert _rendered(capsys) == (total, total)
    assert snapshot(full) == snapshot(generated / "generated")
    assert "Edited." in (generated / "generated" / "cpp" / "passes" / "simplify.cc").read_text("utf-8")


def test_check_finds_a_hand_edit_and_generate_restores_it(generated: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    target = generated / "generated" / "tilelang" / "engine" / "registry.py"
    original = target.read_text("utf-8")
    target.write_text(original + "# edited by hand\n", "utf-8")
    assert run(generated, "check") == 1
    assert "M generated/tilelang/engine/registry.py" in capsys.readouterr().err
    assert run(generated, "generate") == 0
    assert _rendered(capsys)[0] == 1  # only the edited file: its bytes are not those recorded
    assert target.read_text("utf-8") == original
    assert run(generated, "check") == 0


def test_check_finds_a_stale_output_the_record_does_not_hide(generated: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    spec = generated / "specs" / "passes" / "simplify.yaml"
    spec.write_text(spec.read_text("utf-8").replace("doc: >-\n", "doc: >-\n  Stale.\n", 1), "utf-8")
    assert run(generated, "check") == 1
    assert "M generated/cpp/passes/simplify.cc" in capsys.readouterr().err
    assert run(generated, "generate", "-q") == 0 and run(generated, "check") == 0


def test_an_input_the_checks_read_is_hashed(generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The hooks' declarations are no spec, yet a hook rule naming one that is gone is an error on the next run."""
    header = generated / "src" / "transform" / "engines.h"
    text = header.read_text("utf-8")
    assert "Any bind_cuda_threads();" in text  # specs/passes/bind_cuda_threads.yaml names it
    header.write_text(text.replace("Any bind_cuda_threads();", ""), "utf-8")
    try:
        assert run(generated, "generate", "-q") == 1
        assert "is not declared in src/transform/engines.h" in capsys.readouterr().err
    finally:
        header.write_text(text, "utf-8")
    assert run(generated, "generate", "-q") == 0
