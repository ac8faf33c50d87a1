"""Compile every kernel of a saved corpus for every core, deduplicating identical compilations."""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import base_pch, jit, pch

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
    from tilelang.tenstorrent.program_dirs import program_folders

    found: dict[tuple, Unit] = {}
    for program in sorted(p for k in corpus.iterdir() for p in program_folders(k) if (p / "tt.plan.json").exists()):
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
                unit.users.append(str(program.relative_to(corpus)))  # <kernel>.<variant>[/program<i>]
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


def try_base(units: list[Unit], members: list[int], headers: Path, frontend: list[str], scratch: Path,
             sfpi: Path | None, tag: str, ct_fixed: bool) -> Path | None:
    """A base PCH (tools/check_metal/base_pch.py) for `members` (two or more units of one core and device;
    `ct_fixed`: of equal compile-time arguments too), or None. Worth it when a unit's share left to parse, times
    the units, costs less than pch.py's groups among them (a full parse each, then about 0.15 of one per unit)
    and the units alone (a full parse each)."""
    sizes = Counter(pch.key(units[i].role, units[i].core, units[i].ct_args, units[i].plan, units[i].target)
                    for i in members).values()
    grouped = sum(size for size in sizes if size > 1)
    max_share = (sum(1 for size in sizes if size > 1) + 0.15 * grouped + (len(members) - grouped) - 1) / len(members)
    commands = []
    for i in members[:2]:
        unit = units[i]
        jit.write_build_folder(scratch / f"u{i}", unit.role, unit.source, unit.plan)
        commands.append(jit.command(frontend, headers, scratch / f"u{i}", unit.core, unit.ct_args, sfpi, unit.target))
    return base_pch.build(commands, scratch / f"u{members[0]}", scratch / f"base{tag}", max_share, ct_fixed)


def precompile_bases(units: list[Unit], todo: list[int], headers: Path, frontend: list[str], scratch: Path,
                     sfpi: Path | None, jobs: int) -> dict[int, Path]:
    """The base PCH of every core and device with two or more undecided units without kernel defines, or where
    it has none (its headers read the compile-time arguments early: ttnn 0.77's firmware_common.h), one per
    compile-time arguments of the core: unit index -> its PCH. Units with neither are left out."""
    groups: dict[tuple, list[int]] = {}
    for i in todo:
        if not units[i].plan["kernels"][units[i].role].get("defines"):
            groups.setdefault((units[i].core.name, units[i].target), []).append(i)
    shared = [members for members in groups.values() if len(members) > 1]

    def build(n: int) -> dict[int, Path]:
        found = try_base(units, shared[n], headers, frontend, scratch, sfpi, str(n), False)
        if found is not None:
            return dict.fromkeys(shared[n], found)
        by_args: dict[tuple, list[int]] = {}
        for i in shared[n]:
            by_args.setdefault(tuple(units[i].ct_args), []).append(i)
        out: dict[int, Path] = {}
        for k, members in enumerate(m for m in by_args.values() if len(m) > 1):
            found = try_base(units, members, headers, frontend, scratch, sfpi, f"{n}_{k}", True)
            out.update(dict.fromkeys(members, found) if found is not None else {})
        return out

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return {i: path for found in pool.map(build, range(len(shared))) for i, path in found.items()}


def compile_units(units: list[Unit], headers: Path, frontend: list[str], scratch: Path, sfpi: Path | None,
                  jobs: int) -> None:
    """Compile every unit not yet decided, `jobs` at a time; set status and detail. A unit uses its core's base
    PCH, or where that has none, its group's PCH (precompile), or none."""
    todo = [i for i, u in enumerate(units) if not u.status]
    bases = precompile_bases(units, todo, headers, frontend, scratch, sfpi, jobs)
    precompiled = precompile(units, [i for i in todo if i not in bases], headers, frontend, scratch, sfpi, jobs)
    release = jit.sfpi_release(headers)
    pinned = f"; the wheel pins SFPI {release}, a tenstorrent/sfpi release no package registry has" if release else ""

    def one(index: int) -> None:
        unit = units[index]
        # (the first units of a core's base are written already, and its PCH reads them: left as they are)
        folder = scratch / (f"u{index}" if index in bases else f"v{index}")
        shared, header = precompiled.get(index, (None, bases.get(index)))
        if not folder.exists():
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
