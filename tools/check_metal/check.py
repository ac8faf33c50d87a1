"""Compile every kernel of a saved corpus for every core, deduplicating identical compilations."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import jit

ROLES = ("reader", "compute", "writer")


@dataclass
class Unit:
    """One distinct compilation: a kernel text, its compile-time arguments and descriptors, one core."""
    role: str
    core: jit.Core
    source: str
    plan: dict
    ct_args: list[int]
    users: list[str] = field(default_factory=list)  # "<kernel>.<variant>"
    status: str = ""   # ok, error, skipped
    detail: str = ""   # first errors, or why it was skipped


def units_of(corpus: Path, sfpi: Path | None) -> list[Unit]:
    """The distinct compilations of the saved programs under `corpus` (one folder per program)."""
    found: dict[tuple, Unit] = {}
    for program in sorted(p for p in corpus.iterdir() if (p / "tt.plan.json").exists()):
        plan = json.loads((program / "tt.plan.json").read_text())
        for role in ROLES:
            source = (program / f"{role}.cpp").read_text()
            key_extra = jit.descriptors(plan)
            if role == "compute":
                cores, ct_args = jit.TRISCS, []
            else:
                cores = (jit.DATA_MOVEMENT[plan["kernels"][role]["processor"]],)
                ct_args = jit.compile_time_args(plan, role)
            for core in cores:
                key = (role, core.name, source, tuple(ct_args), key_extra)
                unit = found.setdefault(key, Unit(role, core, source, plan, ct_args))
                unit.users.append(program.name)
                if core.needs_sfpi and sfpi is None:
                    unit.status, unit.detail = "skipped", "needs the SFPI headers ($TT_METAL_SFPI_INCLUDE is not set)"
    return list(found.values())


def first_errors(diagnostics: str, limit: int = 12) -> str:
    lines = [line for line in diagnostics.splitlines() if not line.startswith("In file included from")]
    errors = [i for i, line in enumerate(lines) if ": error:" in line or "fatal error" in line]
    start = errors[0] if errors else 0
    return "\n".join(lines[start:start + limit])


def compile_units(units: list[Unit], headers: Path, frontend: list[str], scratch: Path, sfpi: Path | None,
                  jobs: int) -> None:
    """Compile every unit not yet decided, `jobs` at a time; set status and detail."""
    def one(index: int) -> None:
        unit = units[index]
        folder = scratch / f"u{index}"
        jit.write_build_folder(folder, unit.role, unit.source, unit.plan)
        ok, diagnostics = jit.run(jit.command(frontend, headers, folder, unit.core, unit.ct_args, sfpi))
        missing = None if ok else jit.missing_sfpi(diagnostics)
        if ok:
            unit.status = "ok"
        elif missing is not None and sfpi is None:
            unit.status, unit.detail = "skipped", f"needs the SFPI headers ({missing} is not in the wheel)"
        else:
            unit.status, unit.detail = "error", first_errors(diagnostics)

    todo = [i for i, u in enumerate(units) if not u.status]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, todo))
