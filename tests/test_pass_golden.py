"""Golden before/after tests of every pass, on IR produced by the language (TileLang's CompareBeforeAfter style).

For each golden, a kernel written with `tilelang.language` is run through its backend's pipelines up to the pass
(that module is the pass's `before`), the pass is applied, and the result is compared with
`tvm.ir.assert_structural_equal` against the expected module stored as TVMScript in
`tests/golden/passes/<Pass>.<case>.py` and parsed back with `tvm.script.from_source` (the same function as
`tvm.script.parse` in TVM 0.27). `<case>` names the kernel
(`tt_gemm`, `cpu_gemm`, ...); a pass a pipeline runs more than once gets `.2`, `.3`, ... for its later runs.

Every pass spec must run in the pipelines of a registered backend, and every pass a backend runs must have at least
one golden, unless only backends with tests of their own (tests/test_backend_<name>.py, as templates/backend bakes)
run it (the checks enumerate the registry, so adding a backend keeps them green). Every pass of the Tenstorrent
pipeline has one on a small GEMM, the passes whose rules differ for element-wise kernels, a GEMM epilogue or a
spilled matmul have one on those too, and the loop-based passes have one on a small CPU GEMM.

To (re)write the golden files from what the passes produce now (then review the diff):

    TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_pass_golden.py

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

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import tvm
import tvm_ffi
import yaml
from tt_attention_kernels import bshd_exp
from tt_dram_loop_kernels import cpu_gemm, gemm_schedule
from tt_kernels import elementwise_add, elementwise_unary, matmul, matmul_bias_relu, row_reduce
from tt_loop_kernels import accumulate_blocks, guarded_rows, row_sum_blocks
from tt_norm_kernels import rms_norm, softmax
from tt_profiles import DEFAULT, PROFILE
from tt_split_k_kernels import splitk_matmul
from tt_thread_kernels import gemv_split_k
from tvm import tirx

import tilelang.language  # noqa: F401  (importing tilelang registers the tt.* ops and the T.tt script namespace)
from generator import Project, load_project
from projects import REPO, TESTS
from tilelang import transform
from tilelang.engine import pipelines
from tilelang.engine.registry import BACKENDS

ROOT = REPO
GOLDEN_DIR = TESTS / "golden" / "passes"
UPDATE = os.environ.get("TILELANG_UPDATE_GOLDEN", "") not in ("", "0")
UPDATE_COMMAND = "TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_pass_golden.py"
MODEL = load_project(Project.at(ROOT))


def _tt_target() -> tvm.target.Target:
    return BACKENDS["tenstorrent"].make_target(None)


def _cpu_target() -> tvm.target.Target:
    # The llvm backend's target names this machine's CPU (mcpu=$host_cpu); a pinned CPU and triple keep the goldens
    # the same on every machine.
    return tvm.target.Target({"kind": "llvm", "mtriple": "x86_64-unknown-linux-gnu", "mcpu": "x86-64"})


TT = ("lower_and_legalize_tt", "optimize_tenstorrent")
CPU, CUDA = ("lower_and_legalize", "optimize_cpu"), ("lower_and_legalize", "optimize_cuda")


@dataclass(frozen=True)
class Case:
    """A kernel, the pipelines that lower it, and the passes that get a golden on it (None: all of them)."""

    doc: str
    kernel: Callable[[], tirx.PrimFunc]
    backend: str  # the registered backend whose pipelines the case runs
    target: Callable[[], tvm.target.Target]
    pipelines: tuple[str, ...]
    goldens: frozenset[str] | None = None


CASES: dict[str, Case] = {
    "tt_gemm": Case("matmul(64, 64, 64, 32, 32, 32, dtype='bfloat16'): 2x2 blocks, 2 K steps, A/B multicast",
                    lambda: matmul(64, 64, 64, 32, 32, 32, dtype="bfloat16"), "tenstorrent", _tt_target, TT),
    "tt_gemm_spill": Case("matmul(64, 128, 64, 64, 128, 32, dtype='bfloat16'): a 2x4-tile fp32 block over 2 K "
                          "steps, in DST sub-blocks with a partial-sum CB",
                          lambda: matmul(64, 128, 64, 64, 128, 32, dtype="bfloat16"), "tenstorrent", _tt_target, TT,
                          frozenset({"BuildTTTileDataflow", "LowerTileOpsToTT", "PlanTTDst", "LowerTTProtocols"})),
    "tt_add": Case("elementwise_add(64, 64, 32, 32, 'bfloat16', 'bfloat16'): binary FPU op, a local-to-shared copy",
                   lambda: elementwise_add(64, 64, 32, 32, "bfloat16", "bfloat16"), "tenstorrent", _tt_target, TT,
                   frozenset({"BuildTTTileDataflow", "LowerTileOpsToTT", "SplitTTKernels", "InsertTTComputeInit",
                              "LowerTTProtocols"})),
    "tt_exp": Case("elementwise_unary(64, 64, 32, 32, 'exp'): an SFPU op",
                   lambda: elementwise_unary(64, 64, 32, 32, "exp"), "tenstorrent", _tt_target, TT,
                   frozenset({"LowerTileOpsToTT", "InsertTTComputeInit", "LowerTTProtocols"})),
    "tt_gemm_bias_relu": Case("matmul_bias_relu(64, 64, 64, 32, 32, 32): a GEMM, then a binary op with a relu",
                              lambda: matmul_bias_relu(64, 64, 64, 32, 32, 32), "tenstorrent", _tt_target, TT,
                              frozenset({"BuildTTTileDataflow", "LowerTileOpsToTT", "SplitTTKernels", "PlanTTDst",
                                         "InsertTTComputeInit", "LowerTTProtocols"})),
    "tt_reduce": Case("row_reduce(64, 64, 32, 'sum', accumulate=True): two row sums into a column vector (the scaler "
                      "constant, clear=False), written to a 1-D tensor through an on-chip transpose",
                      lambda: row_reduce(64, 64, 32, "sum", accumulate=True), "tenstorrent", _tt_target, TT,
                      frozenset({"AddTTConstants", "InferTTLayout", "BuildTTTileDataflow", "LowerTileOpsToTT",
                                 "InsertTTComputeInit", "LowerTTProtocols"})),
    "tt_loop_row_sum": Case("row_sum_blocks(64, 128, 32, 64): a row sum carried across the column-block loop (one "
                            "CB of two blocks), the scaler tile held before the loop and freed after it",
                            lambda: row_sum_blocks(64, 128, 32, 64), "tenstorrent", _tt_target, TT,
                            frozenset({"BuildTTTileDataflow", "LowerTileOpsToTT", "LowerTTProtocols"})),
    "tt_loop_accumulate": Case("accumulate_blocks(64, 128, 32, 64): acc = acc + A_s carried across the loop, copied "
                               "on chip for the writer after it",
                               lambda: accumulate_blocks(64, 128, 32, 64), "tenstorrent", _tt_target, TT,
                               frozenset({"BuildTTTileDataflow", "LowerTileOpsToTT", "LowerTTProtocols"})),
    "tt_softmax": Case("softmax(64, 64, 32), TileLang's own: fp32 row reductions, stores split into one op per "
                       "operation, broadcasts of [block_M] column vectors (bcast_block)",
                       lambda: softmax(64, 64, 32), "tenstorrent", _tt_target, TT,
                       frozenset({"BuildTTTileDataflow", "LowerTileOpsToTT", "LowerTTProtocols"})),
    # Before LowerTileOpsToTT the IR holds tl.tile.atomic_add, which TVMScript prints but does not parse back.
    "tt_split_k": Case("splitk_matmul(64, 64, 128, 32, 32, 32, 2, dtype='bfloat16'): T.atomic_add of a split-K "
                       "group (turn semaphore)",
                       lambda: splitk_matmul(64, 64, 128, 32, 32, 32, 2, dtype="bfloat16"), "tenstorrent", _tt_target,
                       TT, frozenset({"LowerTileOpsToTT", "PlanTTAtomicOrder", "LowerTTProtocols"})),
    "tt_bshd": Case("bshd_exp(2, 64, 2, 64, 32): (batch, seq, heads, dim) tensors sliced per head, laid out row-major, "
                    "read by rows and tilized on chip, untilized and written by rows",
                    lambda: bshd_exp(2, 64, 2, 64, 32), "tenstorrent", _tt_target, TT,
                    frozenset({"InferTTLayout", "AttachTTAccessors", "BuildTTTileDataflow", "LowerTileOpsToTT",
                               "InsertTTComputeInit", "LowerTTProtocols"})),
    "tt_gemm_schedule": Case("gemm_schedule(64, 64, 64, 32, 32, 32): B's block read by a T.Parallel loop (a T.copy)",
                             lambda: gemm_schedule(64, 64, 64, 32, 32, 32), "tenstorrent", _tt_target, TT,
                             frozenset({"LowerTTLoopsToTileOps"})),
    "tt_multiply_add": Case("TileLang's CPU-test matmul(64, 64, 64, 32, 32, 32): the multiply-add loop C_local[i, j] "
                            "+= A_local[i, k] * B_local[k, j] (a T.gemm)",
                            lambda: cpu_gemm(64, 64, 64, 32, 32, 32), "tenstorrent", _tt_target, TT,
                            frozenset({"LowerTTLoopsToTileOps"})),
    "cuda_add": Case("elementwise_add(64, 64, 32, 32, 'bfloat16', 'bfloat16') for cuda, on 128 threads",
                     lambda: elementwise_add(64, 64, 32, 32, "bfloat16", "bfloat16"), "cuda", lambda: tvm.target.Target(
                         {"kind": "cuda", "arch": "sm_90"}), CUDA, frozenset({"BindCudaThreads"})),
    "cuda_rms_norm": Case("rms_norm(8, 256, 1) for cuda: a row sum across 128 threads (per-thread partial sums, "
                          "tvm_thread_allreduce lowered to warp shuffles and shared memory)",
                          lambda: rms_norm(8, 256, 1), "cuda", lambda: tvm.target.Target(
                              {"kind": "cuda", "arch": "sm_90"}), CUDA,
                          frozenset({"BindCudaThreads", "LowerThreadAllreduce"})),
    "cpu_thread_gemv": Case("gemv_split_k(8, 16, 4, 2, 4) for llvm: T.get_thread_binding's threads (4, 2) as loops "
                            "around each thread-dependent statement, per-thread arrays, the shared atomic as an add",
                            lambda: gemv_split_k(8, 16, 4, 2, 4), "llvm", _cpu_target, CPU,
                            frozenset({"SerializeThreads"})),
    "cpu_gemm": Case("matmul(64, 64, 64, 32, 32, 32, dtype='float32') for llvm",
                     lambda: matmul(64, 64, 64, 32, 32, 32, dtype="float32"), "llvm", _cpu_target, CPU),
    "cpu_loops": Case("guarded_rows(60, 40, 16, 8) for llvm: partial blocks, vectorized and unrolled loops",
                      lambda: guarded_rows(60, 40, 16, 8), "llvm", _cpu_target, CPU,
                      frozenset({"LowerTileOpsToLoops", *pipelines.PIPELINE_STEPS["optimize_common"]})),
}


@dataclass(frozen=True)
class Golden:
    name: str  # the golden file's stem: <Pass>.<case>[.<n>]
    case: str
    step: int  # index of the pass in the case's steps
    pass_name: str

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.name}.py"


def steps_of(case: Case) -> list[str]:
    return [name for pipeline in case.pipelines for name in pipelines.PIPELINE_STEPS[pipeline]]


def _goldens() -> list[Golden]:
    out = []
    for case_name, case in CASES.items():
        seen: dict[str, int] = {}
        for index, name in enumerate(steps_of(case)):
            seen[name] = seen.get(name, 0) + 1
            if case.goldens is None or name in case.goldens:
                suffix = f".{seen[name]}" if seen[name] > 1 else ""
                out.append(Golden(f"{name}.{case_name}{suffix}", case_name, index, name))
    return out


GOLDENS = _goldens()


def make_pass(name: str, target: tvm.target.Target) -> tvm.transform.Pass:
    return transform.BindTarget(target) if name == "BindTarget" else getattr(transform, name)()


@functools.cache
def modules(case_name: str) -> tuple[tvm.IRModule, ...]:
    """The module before every step of the case, and after the last one: modules(case)[i] is the `before` of step i."""
    case = CASES[case_name]
    target = case.target()
    mod = tvm.IRModule({"main": case.kernel()})
    out = [mod]
    with target:
        for name in steps_of(case):
            mod = make_pass(name, target)(mod)
            out.append(mod)
    return tuple(out)


def before_and_after(golden: Golden) -> tuple[tvm.IRModule, tvm.IRModule]:
    """The pass's input, from the language through the pipelines, and the pass applied to it here (which must
    leave its input unchanged)."""
    case = CASES[golden.case]
    before = modules(golden.case)[golden.step]
    digest = tvm_ffi.structural_hash(before)
    target = case.target()
    with target:
        after = make_pass(golden.pass_name, target)(before)
    assert tvm_ffi.structural_hash(before) == digest, f"{golden.pass_name} changed its input module in place"
    return before, after


# ------------------------------------------------------------------------------------------ golden text


# How the printer declares a free scalar variable: `name = T.int32()` (a Bind prints `name: T.let[...] = value`).
FREE_VAR_DECL = re.compile(r"^(?P<indent> +)(?P<name>\w+) = T\.(?P<dtype>\w+)\(\)$")


def hoist_free_vars(text: str) -> str:
    """Move the printer's free-variable declarations of each function to the top of the function's body."""
    lines = text.split("\n")
    out: list[str] = []
    func_start: int | None = None  # index in `out` of the first body statement of the current function
    body_indent = ""
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("def "):
            out.append(line)
            func_start, body_indent = len(out), " " * (len(line) - len(stripped) + 4)
            continue
        if func_start is not None and stripped.startswith("T.func_attr("):
            out.append(line)
            func_start = len(out)
            continue
        match = FREE_VAR_DECL.match(line)
        if match and func_start is not None:
            out.insert(func_start, f"{body_indent}{match['name']} = T.{match['dtype']}()")
            func_start += 1
            continue
        out.append(line)
    return "\n".join(out)


def render(golden: Golden, mod: tvm.IRModule) -> str:
    case = CASES[golden.case]
    runs = steps_of(case)[:golden.step + 1].count(golden.pass_name)
    nth = f", its {runs}{'nd' if runs == 2 else 'rd' if runs == 3 else 'th'} run" if runs > 1 else ""
    header = [
        "# ruff: noqa",
        f"# Golden: the module after {golden.pass_name} ({' + '.join(case.pipelines)}{nth}), case {golden.case}:",
        f"# {case.doc}.",
        f"# Written by `{UPDATE_COMMAND}`; do not edit by hand.",
    ]
    return "\n".join(header) + "\n" + hoist_free_vars(mod.script()).rstrip("\n") + "\n"


def parse(text: str) -> tvm.IRModule:
    # Not well-formed by TVM's definition from GridToPersistentTT to FinalizeTTSignature (free work arguments).
    mod = tvm.script.from_source(text, check_well_formed=False)
    assert isinstance(mod, tvm.IRModule)
    return mod


def assert_modules_equal(actual: tvm.IRModule, expected: tvm.IRModule) -> None:
    """Same functions, each structurally equal (function by function: the role kernels share Var objects)."""
    names = sorted(gv.name_hint for gv in actual.functions)
    assert names == sorted(gv.name_hint for gv in expected.functions)
    for name in names:
        tvm.ir.assert_structural_equal(actual[name], expected[name], map_free_vars=True)
    tvm.ir.assert_structural_equal(actual.attrs, expected.attrs)


# ----------------------------------------------------------------------------------------------- tests


# Passes whose output is compared in its printed form: TVM's LowerThreadAllreduce annotates its result buffer with
# an ffi Bool (tirx.volatile), which TVMScript prints as `True` and parses back as the PrimExpr T.bool(True).
PRINTED_FORM = frozenset({"LowerThreadAllreduce"})


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.name for g in GOLDENS])
def test_pass_matches_golden(golden: Golden) -> None:
    if CASES[golden.case].backend == "tenstorrent" and PROFILE != DEFAULT:
        pytest.skip(f"the Tenstorrent goldens are the spec's API profile's ({DEFAULT}); this run emits {PROFILE}")
    _, after = before_and_after(golden)
    if UPDATE:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        text = render(golden, after)
        if not golden.path.exists() or golden.path.read_text("utf-8") != text:
            golden.path.write_text(text, "utf-8")
    if not golden.path.exists():
        pytest.fail(f"no golden for {golden.pass_name} on {golden.case}: {golden.path.relative_to(ROOT)} is "
                    f"missing; write it with `{UPDATE_COMMAND}` and review it", pytrace=False)
    expected = parse(golden.path.read_text("utf-8"))
    if golden.pass_name in PRINTED_FORM:
        after = parse(render(golden, after))
    try:
        assert_modules_equal(after, expected)
    except (AssertionError, ValueError) as exc:
        raise AssertionError(f"{golden.pass_name} on {golden.case} no longer produces {golden.path.relative_to(ROOT)}"
                             f"; if the change is intended, rewrite the goldens with `{UPDATE_COMMAND}` and review "
                             f"the diff.\n{exc}") from None


def backend_passes() -> dict[str, set[str]]:
    """Each registered backend (the backend specs the registry is rendered from) -> the passes of its pipelines."""
    return {b.name: set(pipelines.PIPELINE_STEPS[b.legalize]) | set(pipelines.PIPELINE_STEPS[b.pipeline])
            for b in MODEL.lowering_backends}


def test_every_pass_spec_runs_in_a_registered_backend() -> None:
    specs = {yaml.safe_load(p.read_text("utf-8"))["name"]: p for p in sorted((ROOT / "specs/passes").glob("*.yaml"))}
    reached = set().union(*backend_passes().values())
    unreached = sorted(f"{name} ({path.relative_to(ROOT)})" for name, path in specs.items() if name not in reached)
    assert not unreached, f"pass specs no backend's pipelines run: {', '.join(unreached)}"


def test_every_pass_a_backend_runs_has_a_golden() -> None:
    """Enumerated over the registry: a pass needs a golden unless every backend running it is covered by tests of
    its own, tests/test_backend_<name>.py (what templates/backend bakes: the standard GEMM through its pipeline),
    and no golden case lowers for it. A backend added from the template therefore keeps this test green, while a
    pass added to a pipeline of the project's cases must come with its golden."""
    covered = {g.pass_name for g in GOLDENS if g.path.exists() or UPDATE}
    case_backends = {case.backend for case in CASES.values()}
    missing = []
    for backend, passes in sorted(backend_passes().items()):
        own_tests = (ROOT / "tests" / f"test_backend_{backend}.py").is_file() and backend not in case_backends
        missing += [f"{name} (run by {backend})" for name in sorted(passes - covered) if not own_tests]
    assert not missing, (f"passes without a golden: {', '.join(missing)}; add a case to CASES in "
                         f"tests/test_pass_golden.py and run `{UPDATE_COMMAND}`")


def test_every_tenstorrent_pass_has_a_gemm_golden() -> None:
    tt = {g.pass_name for g in GOLDENS if g.case == "tt_gemm"}
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
