"""The load -> validate -> model phases for one project tree."""

from __future__ import annotations

from .build import build_model
from .checks import check_hooks, check_model
from .diagnostics import Diagnostics, GeneratorError, Location
from .ir_nodes import check_engine_views
from .language import check_builders
from .layout import SPEC_SUFFIXES, Project
from .loader import SpecFile, load_spec
from .model import SpecSet
from .outputs import FRONTEND_PACKAGE, HOOKS_HEADER
from .schema import Validations, load_schemas, validate_spec

__all__ = ["SPEC_SUFFIXES", "Project", "load_project"]


def load_project(project: Project, validations: Validations | None = None) -> SpecSet:
    """Load and check every spec; raises GeneratorError carrying all diagnostics of the run. `validations`: schema
    validations passed before, which are not repeated (and collects this run's)."""
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
        kind = validate_spec(spec, schemas, project.root, diagnostics, validations)
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
