"""The writer: deterministic, write-if-changed, transactional, manifest-driven clean-up."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator import cli, writer
from projects import REPO, copy_project, snapshot


def run(root: Path, *args: str) -> int:
    return cli.main(["--root", str(root), *args])


@pytest.fixture(scope="module")
def generated_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project, generated once per module (a first generate renders every output)."""
    root = copy_project(tmp_path_factory.mktemp("generated") / "project")
    assert run(root, "generate", "-q") == 0
    return root


@pytest.fixture()
def project(generated_project: Path, tmp_path: Path) -> Path:
    """A private copy of the generated project (modification times kept): the generator's record names paths
    relative to the root, so a copy generates exactly as the tree it was copied from."""
    root = tmp_path / "project"
    shutil.copytree(generated_project, root)
    return root


def test_committed_generated_folder_is_up_to_date(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--root", str(REPO), "check"]) == 0, capsys.readouterr().err


def test_second_generate_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = project / "generated"
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    capsys.readouterr()
    assert run(project, "generate") == 0
    assert capsys.readouterr().out.strip().endswith("wrote 0, removed 0, unchanged " + str(len(before)))
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before


def test_output_is_deterministic_and_matches_the_repository(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    assert run(project, "--out", str(other), "generate", "-q") == 0
    assert snapshot(other) == snapshot(project / "generated") == snapshot(REPO / "generated")


def test_every_generated_file_has_a_banner(project: Path) -> None:
    out = project / "generated"
    for path, content in snapshot(out).items():
        head = content.decode("utf-8").splitlines()[0]
        assert "python -m generator" in head and ("do not edit" in head or "Files written" in head), path


def test_no_rendered_file_shadows_a_hand_written_one(project: Path) -> None:
    rendered = set(snapshot(project / "generated"))
    hand_written = {p.relative_to(REPO / "python").as_posix() for p in (REPO / "python").rglob("*") if p.is_file()}
    assert not rendered & hand_written


def _change_inputs(root: Path) -> None:
    """A spec edit (files change), a new pass spec (file added) and a removed backend (files deleted)."""
    spec = root / "specs" / "intrinsics" / "matmul.yaml"
    spec.write_text(spec.read_text("utf-8").replace("Tile matrix multiply", "Tiled matrix multiply"), "utf-8")
    simplify = (root / "specs" / "passes" / "simplify.yaml").read_text("utf-8")
    (root / "specs" / "passes" / "extra.yaml").write_text(simplify.replace("name: Simplify", "name: Extra"), "utf-8")
    (root / "specs" / "backends" / "webgpu.yaml").unlink()


def test_stale_files_are_removed_and_foreign_files_kept(project: Path) -> None:
    out = project / "generated"
    foreign = out / "tilelang" / "notes.txt"
    foreign.write_text("mine", "utf-8")
    _change_inputs(project)
    assert run(project, "generate", "-q") == 0
    assert not (out / "tilelang" / "engine" / "webgpu" / "lower.py").exists()
    assert (out / "cpp" / "passes" / "extra.cc").exists()
    assert foreign.read_text("utf-8") == "mine"
    assert "Tiled matrix multiply" in (out / "docs" / "intrinsics.md").read_text("utf-8")
    assert "cpp/passes/extra.cc" in (out / ".manifest").read_text("utf-8")


def test_emptied_directories_are_pruned(project: Path) -> None:
    assert (project / "generated" / "tilelang" / "engine" / "webgpu" / "lower.py").exists()
    (project / "specs" / "backends" / "webgpu.yaml").unlink()
    assert run(project, "generate", "-q") == 0
    assert not (project / "generated" / "tilelang" / "engine" / "webgpu").exists()


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_failure_while_staging_leaves_generated_untouched(project: Path, monkeypatch: pytest.MonkeyPatch,
                                                          fail_at: int) -> None:
    before = snapshot(project / "generated")
    _change_inputs(project)
    calls = {"n": 0}
    real = writer._write_file

    def flaky(path: Path, content: str) -> None:
        calls["n"] += 1
        if calls["n"] == fail_at:
            raise OSError(28, "No space left on device (injected)")
        real(path, content)

    monkeypatch.setattr(writer, "_write_file", flaky)
    assert run(project, "generate", "-q") == 1
    assert snapshot(project / "generated") == before


@pytest.mark.parametrize("fail_at", [1, 2, 4, 6])
def test_failure_while_committing_rolls_back(project: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int) -> None:
    before = snapshot(project / "generated")
    _change_inputs(project)
    calls = {"n": 0}
    real = os.replace

    def flaky(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls["n"] += 1
        if calls["n"] == fail_at:
            raise OSError(5, "Input/output error (injected)")
        real(src, dst)

    monkeypatch.setattr(writer.os, "replace", flaky)
    with pytest.raises(OSError):
        writer.apply(project / "generated", _plan(project))
    monkeypatch.setattr(writer.os, "replace", real)
    assert snapshot(project / "generated") == before


def _plan(root: Path) -> writer.Plan:
    from generator.project import Project, load_project
    from generator.render import render_all

    project = Project.at(root)
    return writer.plan(project.out, render_all(project, load_project(project)))


def test_template_failure_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(project / "generated")
    _change_inputs(project)
    template = project / "templates" / "docs" / "intrinsics.md.j2"
    template.write_text(template.read_text("utf-8") + "{{ model.no_such_field }}\n", "utf-8")
    assert run(project, "generate", "-q") == 1
    err = capsys.readouterr().err
    assert "templates/docs/intrinsics.md.j2:1:1: template error while rendering docs/intrinsics.md" in err
    assert snapshot(project / "generated") == before


def test_check_lists_differing_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited = project / "generated" / "tilelang" / "transform" / "__init__.py"
    edited.write_text(edited.read_text("utf-8") + "# hand edit\n", "utf-8")
    (project / "generated" / "docs" / "intrinsics.md").unlink()
    capsys.readouterr()
    assert run(project, "check") == 1
    err = capsys.readouterr().err
    assert "  M generated/tilelang/transform/__init__.py" in err
    assert "  A generated/docs/intrinsics.md" in err
    assert "make generate" in err


def test_dry_run_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(project / "generated")
    _change_inputs(project)
    capsys.readouterr()
    assert run(project, "generate", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "would write" in out and "  D generated/tilelang/engine/webgpu/lower.py" in out
    assert snapshot(project / "generated") == before


def test_manifest_cannot_point_outside_the_output(project: Path, tmp_path: Path) -> None:
    victim = project / "victim.txt"
    victim.write_text("keep", "utf-8")
    manifest = project / "generated" / ".manifest"
    manifest.write_text(manifest.read_text("utf-8") + "../victim.txt\n/etc/passwd\n", "utf-8")
    assert run(project, "generate", "-q") == 0
    assert victim.read_text("utf-8") == "keep"
