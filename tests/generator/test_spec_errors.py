"""Every class of bad spec yields exact `path:LINE:COL: message` diagnostics, exit code 1, and no output.

Each case is tests/fixtures/errors/<case>.yaml (one bad spec) or tests/fixtures/errors/<case>/ (several
spec files), copied into specs/fixtures/ of a copy of the project, with the exact diagnostic lines in
tests/fixtures/errors/<case>.expected.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator import commands
from generator.cli import main
from generator.diagnostics import GeneratorError
from generator.project import Project, load_project
from projects import REPO, TESTS

FIXTURES = TESTS / "fixtures" / "errors"
CASES = sorted(p.stem if p.is_file() else p.name for p in FIXTURES.iterdir() if p.suffix == ".yaml" or p.is_dir())
COUNT_LINE = re.compile(r"^(\d+) errors?; nothing was written\.$")


def install_case(root: Path, case: str) -> None:
    """Copy a case's spec file(s) to specs/fixtures/ of the project at `root`."""
    dest = root / "specs" / "fixtures"
    dest.mkdir()
    source = FIXTURES / case
    files = sorted(source.iterdir()) if source.is_dir() else [FIXTURES / f"{case}.yaml"]
    for file in files:
        shutil.copyfile(file, dest / file.name)


def expected_lines(case: str) -> list[str]:
    return (FIXTURES / f"{case}.expected").read_text("utf-8").rstrip("\n").split("\n")


def split_stderr(stderr: str) -> tuple[list[str], str]:
    """(diagnostic lines, final count line); only \n ends a line (not \u2028 inside a message)."""
    lines = stderr.rstrip("\n").split("\n")
    assert lines, "no diagnostics printed"
    return lines[:-1], lines[-1]


def run_generate(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["--root", str(root), "--out", str(root / "generated"), "generate"])
    return code, capsys.readouterr().err


@pytest.fixture
def raised_by_load(monkeypatch: pytest.MonkeyPatch) -> list[GeneratorError]:
    """The errors the library entry point (`load_project`) raises inside `main`: a case's diagnostics are compared
    with the library's without loading the project a second time."""
    raised: list[GeneratorError] = []

    def recording(project: Project, *args: object) -> object:
        try:
            return load_project(project, *args)  # type: ignore[arg-type]
        except GeneratorError as exc:
            raised.append(exc)
            raise

    monkeypatch.setattr(commands, "load_project", recording)
    return raised


def test_case_files_are_paired() -> None:
    assert len(CASES) >= 30
    expected = {p.stem for p in FIXTURES.glob("*.expected")}
    assert expected == set(CASES)


def test_unchanged_copy_generates(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The copy is valid without a case, so each case fails only because of its own spec(s)."""
    code, err = run_generate(project, capsys)
    assert (code, err) == (0, "")
    assert (project / "generated").is_dir()


@pytest.mark.parametrize("case", CASES)
def test_bad_spec(case: str, project: Path, capsys: pytest.CaptureFixture[str],
                  raised_by_load: list[GeneratorError]) -> None:
    install_case(project, case)
    code, err = run_generate(project, capsys)
    lines, count = split_stderr(err)
    want = expected_lines(case)
    assert code == 1
    assert lines == want
    assert _locations_sorted(lines)
    match = COUNT_LINE.match(count)
    assert match and int(match.group(1)) == len(want), count
    assert not (project / "generated").exists()
    # The library entry point reports exactly the same diagnostics.
    assert len(raised_by_load) == 1
    assert [str(d) for d in raised_by_load[0].diagnostics.sorted()] == want


def _locations_sorted(lines: list[str]) -> bool:
    """Lines are ordered by (path, line, column), then message."""
    def key(line: str) -> tuple[str, int, int, str]:
        path, row, col, message = line.split(":", 3)
        return path, int(row), int(col), message
    return [key(line) for line in lines] == sorted(key(line) for line in lines)


def test_all_errors_of_several_files_are_reported_together(project: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Schema errors in one file, build errors in a second, a YAML error in a third: one run, all sorted."""
    install_case(project, "several_files")
    code, err = run_generate(project, capsys)
    lines, count = split_stderr(err)
    assert code == 1
    assert {line.split(":", 1)[0] for line in lines} == {
        "specs/fixtures/a.yaml", "specs/fixtures/b.yaml", "specs/fixtures/c.yaml"}
    assert _locations_sorted(lines)
    assert count == f"{len(lines)} errors; nothing was written."


def test_generated_folder_is_left_untouched(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An existing generated/ keeps every byte when a later run fails."""
    assert run_generate(project, capsys)[0] == 0
    out = project / "generated"
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    install_case(project, "duplicate_key")
    code, err = run_generate(project, capsys)
    assert code == 1
    assert split_stderr(err)[0] == expected_lines("duplicate_key")
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before


def test_process_exit_code_and_stderr(project: Path) -> None:
    """`python -m generator` as a real process: exit status 1, diagnostics on stderr, nothing on stdout."""
    install_case(project, "unknown_profile")
    result = subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(project), "--out", str(project / "generated"), "generate"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    want = expected_lines("unknown_profile")
    assert result.stderr.rstrip("\n").split("\n") == want + [f"{len(want)} errors; nothing was written."]
    assert not (project / "generated").exists()


def test_engines_without_device_facts_name_the_first_pass(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    backend = project / "specs" / "backends" / "tenstorrent.yaml"
    text = backend.read_text("utf-8")
    backend.write_text(text[: text.index("\ndevice:")] + "\n", "utf-8")
    code, err = run_generate(project, capsys)
    assert code == 1
    assert err.splitlines() == [
        "specs/passes/add_tt_constants.yaml:39:5: pass 'AddTTConstants' uses the 'constants' engine, which needs "
        "the device facts of a backend spec with a `device` section; no backend has one",
        "1 error; nothing was written."]


def test_a_float_option_is_read_as_a_float(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An int default of a float option becomes a float, and the C++ pass turns an int it is given into a double."""
    spec = project / "specs" / "passes" / "scaled.yaml"
    spec.write_text("# yaml-language-server: $schema=../../schema/pass.schema.json\n"
                    "kind: pass\nname: Scaled\nstage: C\ndoc: A float option.\n"
                    "options:\n  ratio: {type: float, default: 1, choices: [1, 2.5], doc: A ratio.}\n"
                    "rules:\n  - {kind: tvm, module: tirx, transform: StmtSimplify}\n", "utf-8")
    assert run_generate(project, capsys) == (0, "")
    wrapper = (project / "generated" / "tilelang" / "transform" / "__init__.py").read_text("utf-8")
    assert "def Scaled(ratio: float = 1.0)" in wrapper
    options = (project / "generated" / "tilelang" / "engine" / "pass_options.py").read_text("utf-8")
    assert '"default": 1.0, "choices": [1.0, 2.5]' in options
    source = (project / "generated" / "cpp" / "passes" / "scaled.cc").read_text("utf-8")
    assert 'for (const char* key : {"ratio"})' in source
    assert "options.Set(String(key), Any(as_float(options.at(String(key)))));" in source


def test_a_pass_configs_key_names_one_option(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An option's `key` (InferTTLayout's dram_format: tl.tt.dram_format) may not be claimed by another option; a
    str_map option renders as a dict of names to strings."""
    spec = project / "specs" / "passes" / "formats.yaml"
    spec.write_text("# yaml-language-server: $schema=../../schema/pass.schema.json\n"
                    "kind: pass\nname: Formats\nstage: C\ndoc: A map option.\n"
                    "options:\n  dram_format: {type: str_map, default: {}, key: tl.tt.dram_format, doc: Formats.}\n"
                    "rules:\n  - {kind: tvm, module: tirx, transform: StmtSimplify}\n", "utf-8")
    code, err = run_generate(project, capsys)
    assert code == 1
    assert err.splitlines() == [
        "specs/passes/infer_tt_layout.yaml:34:14: option 'dram_format': pass_configs key 'tl.tt.dram_format' sets "
        "Formats.dram_format already", "1 error; nothing was written."]
    spec.write_text(spec.read_text("utf-8").replace("tl.tt.dram_format", "tl.tt.formats"), "utf-8")
    assert run_generate(project, capsys) == (0, "")
    wrapper = (project / "generated" / "tilelang" / "transform" / "__init__.py").read_text("utf-8")
    assert "def Formats(dram_format: dict[str, str] = {})" in wrapper
