"""The load -> validate -> model phases for one project tree."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .build import build_model
from .checks import check_hooks, check_model
from .diagnostics import Diagnostics, GeneratorError, Location
from .ir_nodes import check_engine_views
from .language import check_builders
from .loader import SpecFile, load_spec
from .model import SpecSet
from .outputs import FRONTEND_PACKAGE, HOOKS_HEADER
from .schema import load_schemas, validate_spec

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

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix() if path.is_relative_to(self.root) else path.as_posix()

    def spec_files(self) -> list[Path]:
        return sorted(p for p in self.specs.rglob("*") if p.is_file() and p.suffix in SPEC_SUFFIXES)


def load_project(project: Project) -> SpecSet:
    """Load and check every spec; raises GeneratorError carrying all diagnostics of the run."""
    diagnostics = Diagnostics()
    schemas = load_schemas(project.schema, project.root, diagnostics)
    if schemas is None:
        raise GeneratorError(diagnostics)
    valid: list[tuple[str, SpecFile]] = []
    files = project.spec_files() if project.specs.is_dir() else []
    if not files:
        # Generating from nothing would remove every generated file and leave a package that cannot be imported.
        what = "holds no spec file (*.yaml)" if project.specs.is_dir() else "does not exist"
        diagnostics.error(Location(project.rel(project.specs) + "/"), f"the spec folder {what}; there is nothing "
                          "to generate the package from")
        raise GeneratorError(diagnostics)
    for file in files:
        spec = load_spec(file, project.rel(file), diagnostics)
        if spec is None:
            continue
        before = len(diagnostics)
        kind = validate_spec(spec, schemas, project.root, diagnostics)
        if kind is not None and len(diagnostics) == before:
            valid.append((kind, spec))
    model = build_model(valid, diagnostics)
    if not diagnostics:
        check_model(model, diagnostics)
        check_hooks(model, project.root / HOOKS_HEADER, HOOKS_HEADER, diagnostics)
        check_engine_views(model.ir_nodes, (project.root / HOOKS_HEADER).parent, project.root, diagnostics)
        check_builders(model.languages, project.root / FRONTEND_PACKAGE, diagnostics)
    if diagnostics:
        raise GeneratorError(diagnostics)
    return model
