"""The Tenstorrent API profile the tests run under, and what the specs say it emits.

The suite runs under the backend spec's profile, and CI runs the Tenstorrent tests again under every other one
(`TILELANG_TT_API_PROFILE=<profile>`, see the Makefile's `test-profiles`). A test whose expectation depends on the
profile reads it here, from the intrinsic and protocol specs, never from a second copy of their facts.
"""

from __future__ import annotations

from generator import Project, load_project
from generator.model import Protocol, ProtocolStep
from projects import REPO
from tilelang.tenstorrent import INTRINSICS, PROFILES, api_profile

PROFILE = api_profile()
DEFAULT = next(b.profile for b in load_project(Project.at(REPO)).backends if b.device)
PROTOCOLS: dict[str, Protocol] = {p.name: p for p in load_project(Project.at(REPO)).protocols}


def offered(step: ProtocolStep, profile: str) -> bool:
    return not step.profiles or profile in step.profiles


def protocol_calls(name: str, profile: str = PROFILE, branch: str | None = None) -> list[str]:
    """The intrinsics protocol `name` calls in `profile`, in order, each call step once (loops not unrolled,
    `use` expanded, both sides of a `when`); `branch` keeps only the `when` whose condition is that text."""
    out: list[str] = []

    def visit(steps: tuple[ProtocolStep, ...], inside: bool) -> None:
        for step in steps:
            if not offered(step, profile):
                continue
            if step.kind == "when" and branch is not None:
                visit(step.steps, inside or step.expr == branch)
                continue
            if step.kind == "call" and inside:
                out.append(step.name)
            elif step.kind == "use":
                visit(PROTOCOLS[step.name].steps, inside)
            visit(step.steps, inside)
            visit(step.otherwise, inside)

    visit(PROTOCOLS[name].steps, branch is None)
    return out


def full_configurations(profile: str = PROFILE) -> dict[str, str]:
    """The call that configures the hardware in a compute kernel, first, by the condition of its operation family
    (`family == "binary"`): the first call of each branch of the compute_startup protocol."""
    branches = [s.expr for s in PROTOCOLS["compute_startup"].steps if s.kind == "when"]
    return {branch: protocol_calls("compute_startup", profile, branch)[0] for branch in branches}


def spelling(intrinsic: str, profile: str = PROFILE) -> str:
    """The C++ function an intrinsic is emitted as in `profile` (template arguments dropped)."""
    return INTRINSICS[intrinsic].cpp[profile].callee.split("<")[0]


def counterpart(intrinsic: str, profile: str = PROFILE) -> str:
    """The intrinsic a protocol calls in `profile` where it calls `intrinsic` in others: the sibling step of the
    same position among the steps offered in `profile` but not where `intrinsic` is (matmul_tiles ->
    matmul_tiles_transposable in tilelang_tt_2025); `intrinsic` itself where no protocol limits it to other
    profiles and the profile offers it."""
    for protocol in PROTOCOLS.values():
        for step in protocol.walk():
            for steps in (step.steps, step.otherwise):
                found = _sibling(steps, intrinsic, profile)
                if found:
                    return found
        found = _sibling(protocol.steps, intrinsic, profile)
        if found:
            return found
    if profile in INTRINSICS[intrinsic].cpp:
        return intrinsic
    raise LookupError(f"no protocol calls a counterpart of '{intrinsic}' in API profile '{profile}'")


def _sibling(steps: tuple[ProtocolStep, ...], intrinsic: str, profile: str) -> str | None:
    calls = [s for s in steps if s.kind == "call"]
    mine = next((s for s in calls if s.name == intrinsic and not offered(s, profile)), None)
    if mine is None:
        return None
    group = [s for s in calls if s.profiles == mine.profiles]
    others = [s for s in calls if offered(s, profile) and s.profiles and not set(s.profiles) & set(mine.profiles)]
    index = group.index(mine)
    return others[index].name if index < len(others) else None


def accessor_args() -> int:
    """Compile-time arguments of one tensor accessor in the profile (0: addressed without any)."""
    return PROFILES[PROFILE].accessor_compile_time_args


__all__ = ["DEFAULT", "PROFILE", "accessor_args", "counterpart", "full_configurations", "protocol_calls", "spelling"]
