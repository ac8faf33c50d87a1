"""`python -m generator new-backend NAME`: scaffold a backend from the cookiecutter template templates/backend.

The template writes specs (backend, pipeline, one example pass) and the backend's tests in this project's layout;
`make generate` then renders the backend's `tilelang/engine/<name>/` package and its registry entry. Answers are
validated by the template's pre_gen_project hook (so plain `cookiecutter templates/backend` checks them too) and
recorded in the baked folder's `.cruft.json`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .project import Project

TEMPLATE = "backend"  # folder under templates/


class NewBackendError(Exception):
    """The template could not be baked; the message says why and what to do."""


def template_dir(project: Project) -> Path:
    return project.templates / TEMPLATE


def template_variables(template: Path) -> dict[str, Any]:
    """The variables of the template's cookiecutter.json (private `_`/`__` entries included)."""
    data: dict[str, Any] = json.loads((template / "cookiecutter.json").read_text("utf-8"))
    return data


def parse_answers(items: Sequence[str], variables: Mapping[str, Any]) -> dict[str, str]:
    """`KEY=VALUE` command-line answers; unknown keys are errors (cookiecutter would ignore them silently)."""
    public = [key for key in variables if not key.startswith("_") and key != "backend_name"]
    answers: dict[str, str] = {}
    problems = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            problems.append(f"'{item}' is not KEY=VALUE")
        elif key == "backend_name":
            problems.append("the backend name is the NAME argument, not --set backend_name=...")
        elif key not in public:
            problems.append(f"'{key}' is not a variable of the template; variables: {', '.join(public)}")
        elif key in answers:
            problems.append(f"'{key}' is answered twice")
        else:
            answers[key] = value
    if problems:
        raise NewBackendError("; ".join(problems))
    return answers


def new_backend(project: Project, name: str, *, output_dir: Path, answers: Mapping[str, str] | None = None,
                no_input: bool = False, overwrite: bool = False) -> Path:
    """Bake the template for backend `name` into `output_dir/<name>/`; returns that folder."""
    from cookiecutter.exceptions import (  # type: ignore[import-untyped]
        CookiecutterException,
        FailedHookException,
        OutputDirExistsException,
    )
    from cookiecutter.main import cookiecutter  # type: ignore[import-untyped]

    if name in ("", ".", "..") or Path(name).name != name:  # the hook checks names; this one would leave out/
        raise NewBackendError(f"'{name}' is a path, not a backend name")
    template = template_dir(project)
    if not (template / "cookiecutter.json").is_file():
        raise NewBackendError(f"no backend template at {project.rel(template)}/cookiecutter.json")
    extra = {**(answers or {}), "backend_name": name}
    log = logging.getLogger("cookiecutter")
    quiet = logging.NullHandler()  # the hook prints the reasons; cookiecutter's traceback would bury them
    log.addHandler(quiet)
    try:
        baked = cookiecutter(str(template), no_input=no_input, extra_context=extra, output_dir=str(output_dir),
                             overwrite_if_exists=overwrite)
    except FailedHookException as exc:
        raise NewBackendError("the template rejected the answers (ERROR lines above); nothing was generated") from exc
    except OutputDirExistsException as exc:
        raise NewBackendError(f"{output_dir / name} already exists; choose another --output-dir or pass "
                              "--overwrite") from exc
    except (CookiecutterException, ValueError, OSError) as exc:  # ValueError: a choice outside the template's list
        raise NewBackendError(str(exc)) from exc
    finally:
        log.removeHandler(quiet)
    return Path(baked)
