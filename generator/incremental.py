"""The generator's record of its last run, so that a run with nothing to do does nothing (ninja's and torchgen's
rule: hash the inputs, skip what they did not change).

One JSON file per output folder under build/generator/ holds
- `inputs`: one hash of every file a run reads (specs, schemas, templates, the generator's own code, the C++ and
  Python sources its checks read, the names of the hand-written package's modules, the libraries it renders with);
- `outputs`: the hash of each file the run produced (the manifest included);
- `renders`: per output, the key of what its template read (generator/render_cache.py) and which model fields;
- `validated`: the keys of the spec validations that passed (generator/schema.py).

`generate` first compares `inputs` and the output files on disk with the record: when both match, it stops there,
having imported neither jsonschema nor jinja2. Standard library only, for that reason. `check` never reads the
record: it always renders everything and compares.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine_table import PASS_SCHEMA
from .layout import Project
from .outputs import FRONTEND_PACKAGE, HANDWRITTEN_PACKAGE, HOOKS_HEADER

FORMAT = 1
# The libraries whose code shapes what a run produces or reports (a reinstall changes their files' size or time).
LIBRARIES = ("jinja2", "markupsafe", "jsonschema", "referencing", "yaml")
CODE = Path(__file__).resolve().parent  # the generator's own code: a change to it re-renders everything


def _update(digest: Any, label: str, data: bytes) -> None:
    digest.update(f"{label}\0{len(data)}\0".encode())
    digest.update(data)


def _tree(folder: Path, suffixes: tuple[str, ...] = ()) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and (not suffixes or p.suffix in suffixes))


def code_digest() -> str:
    """The generator's code (with the schema its engine table is read from), the libraries it loads and renders
    with, and the Python that runs them."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}\0".encode())
    for path in sorted(CODE.glob("*.py")):
        _update(digest, path.name, path.read_bytes())
    if PASS_SCHEMA.is_file():  # the engine table is read from it (in a copy with --root, the project's may differ)
        _update(digest, "engine table", PASS_SCHEMA.read_bytes())
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)  # locates without importing
        origin = spec.origin if spec is not None and spec.origin else ""
        stat = os.stat(origin) if origin else None
        _update(digest, name, f"{origin}\0{stat.st_size if stat else 0}\0{stat.st_mtime_ns if stat else 0}".encode())
    return digest.hexdigest()


def input_files(project: Project) -> list[Path]:
    """Every file a run reads: the specs, the schemas, the templates, and the sources the checks read (the hooks'
    declarations and the engines' views in src/transform, the frontend engine's builders)."""
    hooks = (project.root / HOOKS_HEADER).parent
    frontend = project.root / FRONTEND_PACKAGE
    files = project.spec_files() if project.specs.is_dir() else []
    files += _tree(project.schema) + _tree(project.templates)
    files += sorted(hooks.glob("*.cc")) + sorted(hooks.glob("*.h")) if hooks.is_dir() else []
    files += sorted(frontend.glob("*.py")) if frontend.is_dir() else []
    return files


def input_digest(project: Project) -> str:
    """One hash of everything a run depends on (paths relative to the root: a copy of the tree hashes the same)."""
    digest = hashlib.sha256(code_digest().encode())
    prefix = len(str(project.root)) + 1  # every input lies under the root; str slicing is cheaper than relative_to
    for path in input_files(project):
        _update(digest, str(path)[prefix:].replace(os.sep, "/"), path.read_bytes())
    # A rendered module must not shadow a hand-written one (render._clash): the names of those matter, not their text.
    handwritten = project.root / HANDWRITTEN_PACKAGE
    names = [str(p)[prefix:].replace(os.sep, "/") for p in handwritten.rglob("*") if "__pycache__" not in p.parts] \
        if handwritten.is_dir() else []
    _update(digest, "handwritten", "\n".join(sorted(names)).encode())
    return digest.hexdigest()


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class State:
    """The record of the last run that wrote an output folder (empty when there is none or it cannot be read)."""

    inputs: str = ""
    outputs: dict[str, str] = field(default_factory=dict)  # path in the output folder -> hash of its bytes
    renders: dict[str, dict[str, Any]] = field(default_factory=dict)  # path -> {"key": ..., "fields": [...]}
    validated: list[str] = field(default_factory=list)


def state_file(project: Project) -> Path:
    """Named after the output folder (relative to the root when inside it), so that `--out` elsewhere keeps its own."""
    tag = hashlib.sha256(project.rel(project.out).encode()).hexdigest()[:16]
    return project.cache / f"state-{tag}.json"


def load_state(project: Project) -> State:
    try:
        data = json.loads(state_file(project).read_text("utf-8"))
        if data.get("format") != FORMAT:
            return State()
        return State(str(data["inputs"]), dict(data["outputs"]), dict(data["renders"]), list(data["validated"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return State()


def save_state(project: Project, state: State) -> None:
    """Written atomically; a folder that cannot be written only costs the next run its shortcut."""
    target = state_file(project)
    data = {"format": FORMAT, "inputs": state.inputs, "outputs": state.outputs, "renders": state.renders,
            "validated": sorted(state.validated)}
    temp = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temp.write_text(json.dumps(data, sort_keys=True), "utf-8")
        os.replace(temp, target)
    except OSError:
        temp.unlink(missing_ok=True)


def outputs_intact(project: Project, state: State) -> bool:
    """Every file of the last run is in the output folder with the bytes it wrote (a hand edit or a removed file
    sends the run through the full path, which restores it)."""
    if not state.outputs:
        return False
    for path, expected in state.outputs.items():
        try:
            if file_hash((project.out / path).read_bytes()) != expected:
                return False
        except OSError:
            return False
    return True


def up_to_date(project: Project, state: State, digest: str) -> bool:
    return bool(state.inputs) and state.inputs == digest and outputs_intact(project, state)


def summary(project: Project, dry_run: bool, writes: int, deletes: int, unchanged: int) -> str:
    """The last line of `generate`, from the full run or the no-op answer alike."""
    verb = "would write" if dry_run else "wrote"
    return f"{project.rel(project.out)}/: {verb} {writes}, removed {deletes}, unchanged {unchanged}"
