"""Shared fixtures: a pristine copy of the project's inputs, made once per test session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PROJECT_INPUTS = ("schema", "templates", "specs")


@pytest.fixture(scope="session")
def base_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """schema/, templates/ and specs/ copied once; tests copy this tree, never the live one."""
    root = tmp_path_factory.mktemp("base") / "project"
    for name in PROJECT_INPUTS:
        shutil.copytree(REPO / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture
def project(base_project: Path, tmp_path: Path) -> Path:
    """A private copy of the base project that a test may change freely."""
    root = tmp_path / "project"
    shutil.copytree(base_project, root)
    return root
