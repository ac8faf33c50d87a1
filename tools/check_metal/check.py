"""Compile every kernel of a saved corpus for every core, deduplicating identical compilations."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import jit, pch

ROLES = ("reader", "compute", "writer")


@dataclass
class Unit:
    """One distinct compilation: a kernel text, its compile-time arguments and descriptors, one core."""
    role: str
    core: jit.Core
    source: str
    plan: dict
    ct_args: list[int]
    target: jit.Target  # the device the plan names
    users: list[str] = field(default_factory=list)  # "<kernel>.<variant>"
    status: str = ""   # ok, error, skipped
    detail: str = ""   # first errors, or why it was skipped


def units_of(corpus: Path, sfpi: Path | None) -> list[Unit]:
    """The distinct compilations of the saved programs under `corpus` (one folder per program)."""
    found: dict[tuple, Unit] = {}
    for program in sorted(p for p in corpus.iterdir() if (p / "tt.plan.json").exists()):
        plan = json.loads((program / "tt.plan.json").read_text())
        target = jit.target_of(plan)
        for role in ROLES:
            source = (program / f"{role}.cpp").read_text()
            key_extra = jit.descriptors(plan)
            if role == "compute":
                cores, ct_args = jit.TRISCS, []
            else:
                cores = (jit.DATA_MOVEMENT[plan["kernels"][role]["processor"]],)
                ct_args = jit.compile_time_args(plan, role)
            for core in cores:
                key = (role, core.name, source, tuple(ct_args), key_extra, target)
                unit = found.setdefault(key, Unit(role, core, source, plan, ct_args, target))
                unit.users.append(program.name)
                if core.needs_sfpi and sfpi is None:
                    unit.status, unit.detail = "skipped", "needs the SFPI headers ($TT_METAL_SFPI_INCLUDE is not set)"
    return list(found.values())


def first_errors(diagnostics: str, limit: int = 12) -> str:
    lines = [line for line in diagnostics.splitlines() if not line.startswith("In file included from")]
    errors = [i for i, line in enumerate(lines) if ": error:" in line or "fatal error" in line]
    start = errors[0] if errors else 0
    return "\n".join(lines[start:start + limit])


def precompile(units: list[Unit], todo: list[int], headers: Path, frontend: list[str], scratch: Path,
               sfpi: Path | None, jobs: int) -> dict[int, tuple[Path, Path]]:
    """The PCH of every group of two or more undecided units that see the same headers (tools/check_metal/pch.py):
    unit index -> (the group's folder of shared generated files, its PCH)."""
    groups: dict[tuple, list[int]] = {}
    for i in todo:
        key = pch.key(units[i].role, units[i].core, units[i].ct_args, units[i].plan, units[i].target)
        if key is not None:
            groups.setdefault(key, []).append(i)
    shared = [members for members in groups.values() if len(members) > 1]

    def build(n: int) -> tuple[Path, Path] | None:
        first = units[shared[n][0]]
        folder = scratch / f"pch{n}"
        jit.write_shared_files(folder, first.plan)
        unit_command = jit.command(frontend, headers, folder, first.core, first.ct_args, sfpi, first.target)
        wrapper = Path(unit_command[-1])
        header = pch.prefix(wrapper)
        if header is None:
            return None
        (folder / "prefix.h").write_text(header)
        ok, _ = jit.run(pch.build_command(unit_command, folder / "prefix.h", folder / "prefix.pch"))
        return (folder, folder / "prefix.pch") if ok else None

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        built = list(pool.map(build, range(len(shared))))
    return {i: found for members, found in zip(shared, built, strict=True) if found for i in members}


def compile_units(units: list[Unit], headers: Path, frontend: list[str], scratch: Path, sfpi: Path | None,
                  jobs: int) -> None:
    """Compile every unit not yet decided, `jobs` at a time; set status and detail."""
    todo = [i for i, u in enumerate(units) if not u.status]
    precompiled = precompile(units, todo, headers, frontend, scratch, sfpi, jobs)
    release = jit.sfpi_release(headers)
    pinned = f"; the wheel pins SFPI {release}, a tenstorrent/sfpi release no package registry has" if release else ""

    def one(index: int) -> None:
        unit = units[index]
        folder = scratch / f"u{index}"
        shared, header = precompiled.get(index, (None, None))
        jit.write_build_folder(folder, unit.role, unit.source, unit.plan, shared=shared is not None)
        command = jit.command(frontend, headers, folder, unit.core, unit.ct_args, sfpi, unit.target, shared)
        ok, diagnostics = jit.run(pch.use_command(command, header) if header is not None else command)
        missing = None if ok else jit.missing_sfpi(diagnostics)
        if ok:
            unit.status = "ok"
        elif missing is not None and sfpi is None:
            unit.status, unit.detail = "skipped", f"needs the SFPI headers ({missing} is not in the wheel{pinned})"
        else:
            unit.status, unit.detail = "error", first_errors(diagnostics)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, todo))
