"""The README's usage example runs as written, and its first lines give the two commands."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

from projects import REPO

README = (REPO / "README.md").read_text("utf-8")


def test_first_lines_give_the_demo_and_test_commands() -> None:
    head = README.split("\n\n", 2)[1]
    assert "make demo" in head and "make test" in head
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    assert "make test" in ci and "make check" in ci


def test_usage_example_runs(tmp_path: Path) -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    script = tmp_path / "readme_example.py"  # TVMScript reads kernel source from a real file
    script.write_text(block.group(1), "utf-8")
    namespace = runpy.run_path(str(script))
    assert "void" in str(namespace["c_source"]) or "int32_t" in str(namespace["c_source"])


def test_the_how_to_add_checklists_name_files_that_exist() -> None:
    """Every path the checklists name exists (a `<placeholder>` or NAME part: its folder; a `*`: some match)."""
    section = README.split("\n## How to add …\n", 1)[1].split("\n## ", 1)[0]
    headings = re.findall(r"^### (.+)$", section, re.M)
    assert {"A protocol", "A pass from existing rule kinds", "A backend", "An API profile"} <= set(headings)
    assert any(h.startswith("A rule kind") for h in headings)
    paths = {p for p in re.findall(r"`([A-Za-z_.]+/[^` ]*)`", section) if not p.startswith(".venv/")}
    assert len(paths) >= 20
    checked = set()
    for path in sorted(paths):
        head = path.split("<", 1)[0].split("NAME", 1)[0]
        concrete = head.rsplit("/", 1)[0] if head != path else path.rstrip("/")  # a placeholder: its folder
        # a package path (tilelang/...) lies in one of the trees the package is assembled from
        found = [m for root in (REPO, REPO / "generated", REPO / "python") for m in root.glob(concrete)]
        assert found, f"README 'How to add …' names {path}, which does not exist"
        checked.add(concrete)
    assert {"specs/protocols", "generator/rules.py", "schema/pass.schema.json"} <= checked
