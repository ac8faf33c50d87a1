"""The README's usage example runs as written, its first lines give the two commands, it stays short (the reference
is in docs/, every page of which MkDocs builds: `make check` runs `mkdocs build --strict`), and the how-to checklists
(docs/how-to-add.md) name files that exist."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

from projects import REPO

README = (REPO / "README.md").read_text("utf-8")
HOW_TO_ADD = (REPO / "docs" / "how-to-add.md").read_text("utf-8")


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
    section = ("\n" + HOW_TO_ADD).split("\n## How to add …\n", 1)[1].split("\n## ", 1)[0]
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
        assert found, f"docs/how-to-add.md names {path}, which does not exist"
        checked.add(concrete)
    assert {"specs/protocols", "generator/rules.py", "schema/pass.schema.json"} <= checked


def test_the_readme_is_short_and_points_at_every_docs_page() -> None:
    """At most 300 lines; every page of docs/ is in MkDocs' navigation (a page left out would not be reachable) and
    the README's "Where to go next" links it."""
    assert README.count("\n") <= 300
    pages = sorted(p.name for p in (REPO / "docs").glob("*.md"))
    nav = re.findall(r"^  - [^:]+: (\S+\.md)$", (REPO / "mkdocs.yml").read_text("utf-8"), re.M)
    assert sorted(nav) == pages
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)\)", README))
    assert linked == set(pages) - {"index.md"}
