"""Reject answers that cannot become a backend, before cookiecutter writes anything.

Every problem is printed as an `ERROR:` line and the hook exits 1 (cookiecutter then removes the half-made
project). Names already taken are read from the project this template belongs to (specs/, schema/, generated/
next to templates/), so the list of existing backends is not repeated here.
"""

from __future__ import annotations

import json
import keyword
import os
import re
import sys
from pathlib import Path

ANSWERS = json.loads(r'''{{ cookiecutter | tojson }}''')

NAME_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
KEY_RE = re.compile(r"^[a-z_][a-z0-9_]*$")
MAX_NAME = 32  # the pass stage is the backend name (schema: at most 32 characters)
SPLITS = ("codegen", "ir")
# Default keys TVM gives targets; a backend named like one would capture tvm.target.Target objects by key.
TVM_DEFAULT_KEYS = ("cpu", "gpu")
# Modules of tilelang/engine that are not backends (a backend package tilelang/engine/<name>/ must not shadow them).
ENGINE_MODULES = ("backend", "codegen", "cpu_lowering", "interface", "lower", "lowering", "param", "pass_config",
                  "pass_options", "pipelines", "registry", "tvm_runtime")


def template_dir() -> Path | None:
    """Where the template lives, when cookiecutter says so (cruft re-renders without `_repo_dir`).

    Hooks run inside the new project, so a relative `_repo_dir` (plain `cookiecutter templates/backend`) is
    resolved against the shell's working directory ($PWD).
    """
    repo_dir = ANSWERS.get("_repo_dir") or ""
    if not repo_dir:
        return None
    path = Path(repo_dir)
    if not path.is_absolute():
        path = Path(os.environ.get("PWD", ".")) / path
    return path.resolve() if (path / "cookiecutter.json").is_file() else None


def project_root() -> Path | None:
    """The project tree holding this template (templates/backend -> ../..)."""
    template = template_dir()
    if template is None:
        return None
    root = template.parent.parent
    return root if (root / "specs").is_dir() and (root / "schema").is_dir() else None


def spec_names(folder: Path) -> set[str]:
    """The `name:` of every spec in `folder` (a plain line match: specs put `name:` at the top level)."""
    names = set()
    for path in sorted(folder.glob("*.y*ml")):
        match = re.search(r"^name:\s*['\"]?([A-Za-z0-9_]+)", path.read_text("utf-8"), re.M)
        if match:
            names.add(match.group(1))
    return names


def target_kinds(root: Path) -> list[str]:
    schema = json.loads((root / "schema" / "backend.schema.json").read_text("utf-8"))
    return list(schema["properties"]["target"]["properties"]["kind"]["enum"])


def single_line(text: str) -> bool:
    return bool(text.strip()) and not any(ord(c) < 32 for c in text)


def check(answers: dict[str, str], root: Path | None) -> list[str]:
    errors = []
    name = str(answers["backend_name"])
    if not NAME_RE.match(name):
        errors.append(f"backend_name {name!r} is not a lower-case identifier of letters, digits and single "
                      "underscores starting with a letter (for example my_accel)")
    elif len(name) > MAX_NAME:
        errors.append(f"backend_name {name!r} is longer than {MAX_NAME} characters")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        errors.append(f"backend_name {name!r} is a Python keyword; it names the package tilelang.engine.{name}")
    if name in ENGINE_MODULES:
        errors.append(f"backend_name {name!r} is a module of tilelang.engine "
                      f"(reserved: {', '.join(ENGINE_MODULES)})")
    if name in TVM_DEFAULT_KEYS:
        errors.append(f"backend_name {name!r} is a default TVM target key; tvm.target.Target objects would "
                      "dispatch to it by key")
    kinds = target_kinds(root) if root is not None else []
    if root is not None:
        existing = spec_names(root / "specs" / "backends")
        if name in existing:
            errors.append(f"backend_name {name!r} is an existing backend (specs/backends); existing backends: "
                          f"{', '.join(sorted(existing))}")
        elif name in kinds:
            errors.append(f"backend_name {name!r} is a TVM target kind; tvm.target.Target objects of that kind "
                          "would dispatch to it by key")
    kind = str(answers["target_kind"])
    if kinds and kind not in kinds:
        errors.append(f"target_kind {kind!r} is not a target kind of schema/backend.schema.json: {', '.join(kinds)}")
    keys = [k.strip() for k in str(answers["target_keys"]).split(",")]
    for key in keys:
        if not KEY_RE.match(key):
            errors.append(f"target_keys: {key!r} is not a lower-case identifier")
    if len(set(keys)) != len(keys):
        errors.append(f"target_keys repeat a key: {answers['target_keys']!r}")
    if name not in keys:
        errors.append(f"target_keys {answers['target_keys']!r} must include the backend name {name!r} "
                      "(tvm.target.Target objects find their backend by it)")
    split = str(answers["split"])
    if split not in SPLITS:
        errors.append(f"split {split!r} must be one of {', '.join(SPLITS)}")
    pipeline = str(answers["pipeline"])
    if root is not None and pipeline not in spec_names(root / "specs" / "pipelines"):
        errors.append(f"pipeline {pipeline!r} is not a pipeline of specs/pipelines")
    if split == "ir" and pipeline == "optimize_cpu":
        errors.append("split 'ir' needs block launches in the IR, but pipeline 'optimize_cpu' turns them into serial "
                      "loops (BlockIdxToSerial), leaving no device code to split; choose optimize_gpu or "
                      "optimize_common, or split 'codegen'")
    for field in ("description", "author"):
        if not single_line(str(answers[field])):
            errors.append(f"{field} must be one non-empty line without control characters")
    return errors


def main() -> int:
    errors = check(ANSWERS, project_root())
    for error in errors:
        print(f"ERROR: {error}", file=sys.stderr)
    if errors:
        print(f"{len(errors)} invalid answer{'s' if len(errors) != 1 else ''}; nothing was generated.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
