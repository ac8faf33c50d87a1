"""Golden before/after tests of every pass, on IR produced by the language (TileLang's CompareBeforeAfter style).

Each golden file `tests/golden/passes/<Pass>.<case>.py` holds the pass's input and its output as TVMScript (the
cases and the file format: tests/pass_goldens.py). The test parses the input back with `tvm.script.from_source`
(`tvm.script.parse` in TVM 0.27), runs the pass alone on it and compares the result with the stored output
(`tvm.ir.assert_structural_equal`). The input was recorded by running a kernel written with `tilelang.language`
through its backend's pipelines up to the pass, so a golden depends on its own pass only. `<case>` names the kernel
(`tt_gemm`, `cpu_gemm`, ...); a pass a pipeline runs more than once gets `.2`, `.3`, ... for its later runs. A
golden must change its input (one that does not tests nothing): the runs a case leaves unchanged are listed in the
case and checked to be so.

Every pass spec must run in the pipelines of a registered backend, and every pass a backend runs must have at least
one golden, unless it only checks (its rules are `verify` rules or TVM's Verify* transforms), or only backends
with tests of their own (tests/backends/test_backend_<name>.py, as templates/backend bakes)
run it (the checks enumerate the registry, so adding a backend keeps them green). Every pass of the Tenstorrent
pipeline has one on a small GEMM, the passes whose rules differ for element-wise kernels, a GEMM epilogue or a
spilled matmul have one on those too, and the loop-based passes have one on a small CPU GEMM.

To (re)write the golden files from what the passes produce now (then review the diff):

    TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py

A missing golden fails (it never passes silently); so does a golden file no case produces any more.

Two properties of the IR decide how a module is compared (both are checked by tests below):
- From GridToPersistentTT to FinalizeTTSignature the work arguments (`count`, `row0`, ...) are free variables by
  design: they become runtime arguments only in FinalizeTTSignature. The TVMScript printer declares a free variable
  (`count = T.int32()`) in the frame of the lowest statement using it; for a loop whose extent is the variable that
  frame is the loop's body, so the declaration lands after its use and the text does not parse ("Undefined
  variable: count"). The golden text therefore declares each free variable at the top of its function (the only
  edit made to the printer's output), and the comparison maps free variables (`map_free_vars=True`).
- From SplitTTKernels on, the reader, compute and writer kernels are copies of one body and share its Var objects
  (after FinalizeTTSignature the same `count` is bound in all three, which TVM's well-formedness check rejects:
  "multiple definitions of variable count"). Structural equality of a whole IRModule maps variables across its
  functions, so such a module is never equal to its parsed text (where each function has its own variables); the
  modules are compared function by function instead (same function names, each function structurally equal).
"""

from __future__ import annotations

import pytest
import tvm
import yaml
from pass_goldens import (
    CASES,
    GOLDEN_DIR,
    GOLDENS,
    PIPELINE_INPUT,
    UPDATE,
    UPDATE_COMMAND,
    Golden,
    assert_modules_equal,
    hoist_free_vars,
    modules,
    parse,
    render,
    run_pass,
    runs_of,
    split,
)
from tt_profiles import DEFAULT, PROFILE
from tvm import tirx

from generator import Project, load_project
from projects import REPO
from tilelang.engine import pipelines

ROOT = REPO
MODEL = load_project(Project.at(ROOT))


def same_modules(actual: tvm.IRModule, expected: tvm.IRModule) -> bool:
    try:
        assert_modules_equal(actual, expected)
    except (AssertionError, ValueError):
        return False
    return True


# ----------------------------------------------------------------------------------------------- tests


# Passes whose output is compared in its printed form: TVM's LowerThreadAllreduce annotates its result buffer with
# an ffi Bool (tirx.volatile), which TVMScript prints as `True` and parses back as the PrimExpr T.bool(True).
PRINTED_FORM = frozenset({"LowerThreadAllreduce"})


def write_golden(golden: Golden) -> None:
    """Record the golden from the pipeline: the pass's input and what the pass makes of it."""
    before = modules(golden.case)[golden.step]
    text = render(golden, before, run_pass(golden.case, golden.pass_name, before))
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    if not golden.path.exists() or golden.path.read_text("utf-8") != text:
        golden.path.write_text(text, "utf-8")


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.name for g in GOLDENS])
def test_pass_matches_golden(golden: Golden) -> None:
    if CASES[golden.case].backend == "tenstorrent" and PROFILE != DEFAULT:
        pytest.skip(f"the Tenstorrent goldens are the spec's API profile's ({DEFAULT}); this run emits {PROFILE}")
    if UPDATE:
        write_golden(golden)
    if not golden.path.exists():
        pytest.fail(f"no golden for {golden.pass_name} on {golden.case}: {golden.path.relative_to(ROOT)} is "
                    f"missing; write it with `{UPDATE_COMMAND}` and review it", pytrace=False)
    before_text, after_text = split(golden)
    before = modules(golden.case)[golden.step] if before_text is None else parse(before_text)
    after = run_pass(golden.case, golden.pass_name, before)
    if golden.pass_name in PRINTED_FORM:
        after = parse(hoist_free_vars(after.script()))
    try:
        assert_modules_equal(after, parse(after_text))
    except (AssertionError, ValueError) as exc:
        raise AssertionError(f"{golden.pass_name} on {golden.case} no longer produces {golden.path.relative_to(ROOT)}"
                             f"; if the change is intended, rewrite the goldens with `{UPDATE_COMMAND}` and review "
                             f"the diff.\n{exc}") from None
    assert not same_modules(after, before), (
        f"{golden.pass_name} leaves case {golden.case} as it is, so its golden tests nothing: list the run in the "
        f"case's `unchanged` and give the pass a case it changes (a hand-written one, as cpu_unsafe_select)")


@pytest.mark.parametrize("case_name", [name for name, case in CASES.items() if case.unchanged])
def test_unchanged_runs_leave_their_case_as_it_is(case_name: str) -> None:
    case = CASES[case_name]
    if case.backend == "tenstorrent" and PROFILE != DEFAULT:
        pytest.skip(f"checked under the spec's API profile ({DEFAULT})")
    runs = {run: (index, name) for index, name, run in runs_of(case)}
    assert case.unchanged <= set(runs), f"{case_name}: not runs of its pipelines: {sorted(case.unchanged - set(runs))}"
    changed = []
    for run in sorted(case.unchanged):
        index, name = runs[run]
        before = modules(case_name)[index]
        if not same_modules(run_pass(case_name, name, before), before):
            changed.append(run)
    assert not changed, f"{case_name}: these runs change the module now; remove them from `unchanged`: {changed}"


def test_the_stored_inputs_are_what_the_pipelines_made_when_recorded() -> None:
    """A sample: the tt_gemm golden of PlanTTDst holds the module the pipeline gives PlanTTDst (while no pass before
    it changed since the goldens were written; rewrite them if this fails after such a change)."""
    golden = next(g for g in GOLDENS if g.name == "PlanTTDst.tt_gemm")
    if PROFILE != DEFAULT:
        pytest.skip(f"the Tenstorrent goldens are the spec's API profile's ({DEFAULT})")
    before_text, _ = split(golden)
    assert before_text is not None and golden.name not in PIPELINE_INPUT
    assert_modules_equal(modules("tt_gemm")[golden.step], parse(before_text))


def backend_passes() -> dict[str, set[str]]:
    """Each registered backend (the backend specs the registry is rendered from) -> the passes of its pipelines,
    and its `programs` pass (one PrimFunc per T.Kernel launch, run before them)."""
    return {b.name: set(pipelines.PIPELINE_STEPS[b.legalize]) | set(pipelines.PIPELINE_STEPS[b.pipeline])
            | ({b.programs} if b.programs else set()) for b in MODEL.lowering_backends}


def pass_specs() -> dict[str, dict[str, object]]:
    return {spec["name"]: {**spec, "path": p} for p in sorted((ROOT / "specs/passes").glob("*.yaml"))
            for spec in [yaml.safe_load(p.read_text("utf-8"))]}


def checks_only(spec: dict[str, object]) -> bool:
    """A pass that only checks: every rule a `verify` rule or one of TVM's Verify* transforms (TVM's naming)."""
    rules = spec["rules"]
    assert isinstance(rules, list)
    return all(r["kind"] == "verify" or (r["kind"] == "tvm" and str(r["transform"]).startswith("Verify"))
               for r in rules)


def test_every_pass_spec_runs_in_a_registered_backend() -> None:
    specs = pass_specs()
    reached = set().union(*backend_passes().values())
    unreached = sorted(f"{name} ({spec['path']})" for name, spec in specs.items() if name not in reached)
    assert not unreached, f"pass specs no backend's pipelines run: {', '.join(unreached)}"


def test_every_pass_a_backend_runs_has_a_golden() -> None:
    """Enumerated over the registry: a pass needs a golden unless every backend running it is covered by tests of
    its own, tests/backends/test_backend_<name>.py (what templates/backend bakes: the standard GEMM through its
    pipeline), and no golden case lowers for it. A backend added from the template therefore keeps this test green,
    while a pass added to a pipeline of the project's cases must come with its golden."""
    covered = {g.pass_name for g in GOLDENS if g.path.exists() or UPDATE}
    covered |= {name for name, spec in pass_specs().items() if checks_only(spec)}
    case_backends = {case.backend for case in CASES.values()}
    missing = []
    for backend, passes in sorted(backend_passes().items()):
        own_tests = (ROOT / "tests" / "backends" / f"test_backend_{backend}.py").is_file()
        own_tests = own_tests and backend not in case_backends
        missing += [f"{name} (run by {backend})" for name in sorted(passes - covered) if not own_tests]
    assert not missing, (f"passes without a golden: {', '.join(missing)}; add a case to CASES in "
                         f"tests/pass_goldens.py and run `{UPDATE_COMMAND}`")


def test_every_tenstorrent_pass_has_a_gemm_golden_or_leaves_the_gemm_as_it_is() -> None:
    tt = {g.pass_name for g in GOLDENS if g.case == "tt_gemm"}
    tt |= {run.split(".")[0] for run in CASES["tt_gemm"].unchanged}
    assert set(pipelines.PIPELINE_STEPS["optimize_tenstorrent"]) <= tt


def test_no_stale_golden_files() -> None:
    expected = {g.path.name for g in GOLDENS}
    stale = sorted(p.name for p in GOLDEN_DIR.glob("*.py") if p.name not in expected)
    if UPDATE:
        for name in stale:
            (GOLDEN_DIR / name).unlink()
        stale = []
    assert not stale, f"golden files that no case produces: {stale}; delete them or restore their case"


def _stage(case: str, pass_name: str) -> tvm.IRModule:
    golden = next(g for g in GOLDENS if g.case == case and g.pass_name == pass_name)
    return modules(case)[golden.step + 1]


def test_why_free_vars_are_hoisted() -> None:
    """The printer's own text of a persistent loop over a free `count` does not parse; the hoisted text does."""
    mod = _stage("tt_gemm", "GridToPersistentTT")
    with pytest.raises(Exception, match="Undefined variable: count"):
        tvm.script.from_source(mod.script(), check_well_formed=False)
    assert_modules_equal(mod, parse(hoist_free_vars(mod.script())))


def test_why_modules_are_compared_function_by_function() -> None:
    """After FinalizeTTSignature the kernels bind the same Var objects; a whole-module comparison cannot match."""
    mod = _stage("tt_gemm", "FinalizeTTSignature")
    with pytest.raises(Exception, match="multiple definitions of variable count"):
        tirx.analysis.verify_well_formed(mod)
    parsed = parse(hoist_free_vars(mod.script()))
    with pytest.raises(ValueError, match="StructuralEqual check failed"):
        tvm.ir.assert_structural_equal(mod, parsed)
    assert_modules_equal(mod, parsed)
