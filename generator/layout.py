"""Where a project's inputs and outputs live. Standard library only: the no-op `generate` (generator/incremental.py)
reads the tree through it without importing the validating and rendering phases."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SPEC_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Project:
    """Where a project's inputs and outputs live (tests and benchmarks point it at copies)."""

    root: Path
    out: Path

    @classmethod
    def at(cls, root: Path, out: Path | None = None) -> Project:
        root = root.resolve()
        return cls(root, (out or root / "generated").resolve())

    @property
    def specs(self) -> Path:
        return self.root / "specs"

    @property
    def schema(self) -> Path:
        return self.root / "schema"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def cache(self) -> Path:
        """The generator's own records (input hashes per output, validations passed): under build/ (ignored by
        git), never in the output folder."""
        return self.root / "build" / "generator"

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else path.as_posix()

    def spec_files(self) -> list[Path]:
        return sorted(p for p in self.specs.rglob("*") if p.is_file() and p.suffix in SPEC_SUFFIXES)
