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


def _tree(folder: Path, suffixes: tuple[str, ...] = (), with_dirs: bool = False) -> list[str]:
    """The files (and with `with_dirs` the folders) under `folder`, __pycache__ left out (os.walk: pathlib's rglob
    costs a no-op run a third of its time)."""
    found: list[str] = []
    for where, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found += [os.path.join(where, d) for d in dirs] if with_dirs else []
        found += [os.path.join(where, f) for f in files if not suffixes or os.path.splitext(f)[1] in suffixes]
    return sorted(found)


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


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


def input_files(project: Project) -> list[str]:
    """Every file a run reads: the specs (any file under specs/: more than the loader reads, never less), the
    schemas, the templates, and the sources the checks read (the hooks' declarations and the engines' views in
    src/transform, the frontend engine's builders)."""
    hooks = (project.root / HOOKS_HEADER).parent
    frontend = project.root / FRONTEND_PACKAGE
    files = _tree(project.specs) + _tree(project.schema) + _tree(project.templates)
    files += [f for f in _tree(hooks, (".cc", ".h")) if os.path.dirname(f) == str(hooks)]
    files += [f for f in _tree(frontend, (".py",)) if os.path.dirname(f) == str(frontend)]
    return files


def input_digest(project: Project) -> str:
    """One hash of everything a run depends on (paths relative to the root: a copy of the tree hashes the same)."""
    digest = hashlib.sha256(code_digest().encode())
    prefix = len(str(project.root)) + 1  # every input lies under the root
    for path in input_files(project):
        _update(digest, path[prefix:].replace(os.sep, "/"), _read(path))
    # A rendered module must not shadow a hand-written one (render._clash): the names of those matter, not their text.
    names = [p[prefix:].replace(os.sep, "/") for p in _tree(project.root / HANDWRITTEN_PACKAGE, with_dirs=True)]
    _update(digest, "handwritten", "\n".join(names).encode())
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
    out = str(project.out)
    for path, expected in state.outputs.items():
        try:
            if file_hash(_read(os.path.join(out, path))) != expected:
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
