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
