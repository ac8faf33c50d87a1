"""The spec-driven code generator: specs/ -> schema/ validation -> model -> templates/ -> generated/."""

from .diagnostics import Diagnostic, Diagnostics, GeneratorError, Location
from .project import Project, load_project

__all__ = ["Diagnostic", "Diagnostics", "GeneratorError", "Location", "Project", "load_project"]
