"""The spec-driven code generator: specs/ -> schema/ validation -> model -> templates/ -> generated/."""

from __future__ import annotations

from typing import Any

from .diagnostics import Diagnostic, Diagnostics, GeneratorError, Location
from .layout import Project

__all__ = ["Diagnostic", "Diagnostics", "GeneratorError", "Location", "Project", "load_project"]


def __getattr__(name: str) -> Any:
    # `load_project` is looked up on first use, not imported with the package: `python -m generator` imports the
    # package first, and a no-op `generate` must not import the validating phases (jsonschema) at all.
    if name == "load_project":
        from .project import load_project
        return load_project
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
