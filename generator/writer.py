"""Deterministic, transactional writing of generated/.

1. plan: compare the rendered outputs with the disk; only changed files are written.
2. stage: every changed file is written to a temporary sibling; a failure removes them all.
3. commit: temporaries replace their targets (old files moved aside first); a failure restores
   every file moved so far, so generated/ is either fully old or fully new.

A manifest lists what the generator produced, so files it no longer produces are removed, and
files it never produced (someone else's) are left alone.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .outputs import MANIFEST
from .render import Output, banner

STAGED = ".gen-new"
BACKUP = ".gen-old"


@dataclass(frozen=True)
class Plan:
    writes: tuple[Output, ...]
    deletes: tuple[str, ...]
    unchanged: int
    added: tuple[str, ...] = field(default=())  # subset of writes that did not exist before

    @property
    def empty(self) -> bool:
        return not self.writes and not self.deletes


def manifest_output(outputs: list[Output]) -> Output:
    header = banner(MANIFEST, ["Files written by `python -m generator`; "
                               "it removes listed files it no longer produces."])
    return Output(MANIFEST, header + "".join(f"{path}\n" for path in sorted(o.path for o in outputs)))


def _read_manifest(out: Path) -> list[str]:
    try:
        text = (out / MANIFEST).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    paths = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        pure = PurePosixPath(line)
        if pure.is_absolute() or ".." in pure.parts:  # never let a manifest point outside generated/
            continue
        paths.append(line)
    return paths


def plan(out: Path, outputs: list[Output]) -> Plan:
    seen: set[str] = set()
    for output in outputs:
        if output.path in seen:
            raise ValueError(f"two outputs claim the same file: {output.path}")
        seen.add(output.path)
    everything = outputs + [manifest_output(outputs)]
    writes, added = [], []
    unchanged = 0
    for output in everything:
        target = out / output.path
        try:
            current = target.read_bytes()
        except OSError:
            current = None
        if current == output.content.encode("utf-8"):
            unchanged += 1
            continue
        writes.append(output)
        if current is None:
            added.append(output.path)
    produced = {o.path for o in everything}
    deletes = sorted(p for p in set(_read_manifest(out)) - produced if (out / p).is_file())
    return Plan(tuple(writes), tuple(deletes), unchanged, tuple(added))


def _write_file(path: Path, content: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(content)


def _sibling(target: Path, tag: str) -> Path:
    return target.with_name(f".{target.name}{tag}")


def apply(out: Path, the_plan: Plan) -> None:
    """Carry out a plan so that generated/ ends fully updated or untouched."""
    created_dirs: list[Path] = []
    staged: list[tuple[Path, Path]] = []
    try:
        for output in the_plan.writes:
            target = out / output.path
            missing = [p for p in reversed(target.parents) if not p.exists()]
            for directory in missing:
                directory.mkdir()
                created_dirs.append(directory)
            temp = _sibling(target, STAGED)
            _write_file(temp, output.content)
            staged.append((temp, target))
    except BaseException:
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
        _remove_dirs(created_dirs)
        raise

    moved: list[tuple[Path, Path]] = []  # (backup, original)
    placed: list[Path] = []
    try:
        for temp, target in staged:
            if target.exists():
                backup = _sibling(target, BACKUP)
                os.replace(target, backup)
                moved.append((backup, target))
            os.replace(temp, target)
            placed.append(target)
        for rel in the_plan.deletes:
            target = out / rel
            backup = _sibling(target, BACKUP)
            os.replace(target, backup)
            moved.append((backup, target))
    except BaseException:
        for target in reversed(placed):
            target.unlink(missing_ok=True)
        for backup, original in reversed(moved):
            os.replace(backup, original)
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
        _remove_dirs(created_dirs)
        raise
    for backup, _ in moved:
        backup.unlink(missing_ok=True)
    for rel in the_plan.deletes:
        _prune_empty_parents(out / rel, out)


def _remove_dirs(directories: list[Path]) -> None:
    for directory in reversed(directories):
        try:
            directory.rmdir()
        except OSError:
            pass


def _prune_empty_parents(path: Path, stop: Path) -> None:
    parent = path.parent
    while parent != stop and parent.is_relative_to(stop):
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent
