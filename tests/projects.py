"""Helpers that build throw-away copies of this project for generator tests."""

from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("specs", "schema", "templates", "src")


def copy_project(destination: Path) -> Path:
    """Copy specs/, schema/, templates/ and the hooks' C++ declarations (the generator's inputs) to `destination`."""
    for part in PROJECT_PARTS:
        shutil.copytree(REPO / part, destination / part, ignore=shutil.ignore_patterns("__pycache__"))
    return destination


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative POSIX path -> bytes), hidden files included."""
    if not folder.exists():
        return {}
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
