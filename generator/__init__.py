"""The spec-driven code generator: specs/ -> schema/ validation -> model -> templates/ -> generated/."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .diagnostics import Diagnostic, Diagnostics, GeneratorError, Location
    from .layout import Project
    from .project import load_project

__all__ = ["Diagnostic", "Diagnostics", "GeneratorError", "Location", "Project", "load_project"]
_HOMES = {"Diagnostic": "diagnostics", "Diagnostics": "diagnostics", "GeneratorError": "diagnostics",
          "Location": "diagnostics", "Project": "layout", "load_project": "project"}


def __getattr__(name: str) -> Any:
    # Looked up on first use, not imported with the package: `python -m generator` imports the package first, and a
    # no-op `generate` must import no more than it needs (never the validating phases: jsonschema).
    if name in _HOMES:
        import importlib
        return getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
