"""The cases of tests/passes/test_pass_golden.py and the text of its golden files.

A case is a kernel written with `tilelang.language` and the pipelines that lower it; where no kernel reaches a
pass's rewrite, the kernel is TVMScript written by hand (CompareBeforeAfter style) and the case names the passes it
runs. A golden file, `tests/golden/passes/<Pass>.<case>[.<n>].py`, holds two TVMScript modules: the pass's input, as
the case's pipelines produced it when the file was written, and the pass's output. The test parses the input back
and runs the pass alone on it, so each golden depends on its own pass only: a pass added to a pipeline, or another
pass's output changing, touches no other golden (PIPELINE_INPUT names the goldens whose input does not parse back).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import tvm
import tvm_ffi
from tt_attention_kernels import bshd_exp
from tt_dram_loop_kernels import cpu_gemm, gemm_schedule
from tt_kernels import elementwise_add, elementwise_unary, matmul, matmul_bias_relu, row_reduce
from tt_loop_kernels import accumulate_blocks, guarded_rows, row_sum_blocks
from tt_norm_kernels import rms_norm, softmax
from tt_program_kernels import split_then_combine
from tt_split_k_kernels import splitk_matmul
from tt_thread_kernels import gemv_split_k
from tvm import tirx

import tilelang.language  # noqa: F401  (importing tilelang registers the tt.* ops and the T.tt script namespace)
from projects import TESTS
from tilelang import transform
from tilelang.engine import pipelines
from tilelang.engine.registry import BACKENDS

GOLDEN_DIR = TESTS / "golden" / "passes"
UPDATE = os.environ.get("TILELANG_UPDATE_GOLDEN", "") not in ("", "0")
UPDATE_COMMAND = "TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py"
# Goldens whose input is taken from the pipeline instead of their file: TVMScript prints the project's tile primitive
# tl.tile.atomic_add as `T.tile.tl.tile.atomic_add(...)`, which its parser cannot resolve.
PIPELINE_INPUT = frozenset({"LowerTileOpsToTT.tt_split_k"})

# A select whose true branch reads A out of bounds unless the condition holds: RewriteUnsafeSelect makes it an
# if_then_else, which evaluates only the branch taken (no golden kernel of the language writes T.Select).
UNSAFE_SELECT = """
@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        B[i] = T.Select(i < 4, A[i * 4], T.float32(0.0))
"""


def _script(source: str) -> tirx.PrimFunc:
    func = tvm.script.from_source(source)
    assert isinstance(func, tirx.PrimFunc)
    return func


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
    """A kernel, the pipelines that lower it, and the passes that get a golden on it (None: all of them but those
    `unchanged` names). A hand-written case names its `steps` instead of pipelines: its kernel is their input."""

    doc: str
    kernel: Callable[[], tirx.PrimFunc]
    backend: str  # the registered backend whose pipelines the case runs
    target: Callable[[], tvm.target.Target]
    pipelines: tuple[str, ...]
    goldens: frozenset[str] | None = None
    # Runs (`Pass`, or `Pass.2` for its second run) that leave this kernel's module as it is: a golden of them would
    # test nothing, so they get none here (test_unchanged_runs_leave_their_case_as_it_is keeps the list true).
    unchanged: frozenset[str] = frozenset()
    steps: tuple[str, ...] = ()
    # Pass options of the case's runs, by pass (what pass_configs or a target sets: a mesh target's
    # PartitionTTMesh.mesh); the golden test runs the pass alone with them too.
    options: dict[str, dict[str, object]] = field(default_factory=dict)


CASES: dict[str, Case] = {
    "tt_gemm": Case("matmul(64, 64, 64, 32, 32, 32, dtype='bfloat16'): 2x2 blocks, 2 K steps, A/B multicast",
                    lambda: matmul(64, 64, 64, 32, 32, 32, dtype="bfloat16"), "tenstorrent", _tt_target, TT,
                    unchanged=frozenset({"SerializeThreads", "LowerTTLoopsToTileOps", "Simplify", "PartitionTTMesh",
                                         "AddTTConstants", "PlanTTAtomicOrder", "VerifyTTKernels"})),
    "tt_gemm_mesh": Case("matmul(64, 128, 64, 32, 32, 32, dtype='bfloat16') on a 1x2 mesh: the grid's 4 x-blocks "
                         "split 2 per device, B and C sharded by columns, A replicated",
                         lambda: matmul(64, 128, 64, 32, 32, 32, dtype="bfloat16"), "tenstorrent", _tt_target, TT,
                         frozenset({"PartitionTTMesh"}), options={"PartitionTTMesh": {"mesh": [1, 2]}}),
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
                     lambda: matmul(64, 64, 64, 32, 32, 32, dtype="float32"), "llvm", _cpu_target, CPU,
                     unchanged=frozenset({"Simplify", "SerializeThreads", "Simplify.2", "VectorizeLoop", "UnrollLoop",
                                          "RenormalizeSplitPattern", "Simplify.3", "RemoveNoOp", "RewriteUnsafeSelect",
                                          "HoistIfThenElse", "VerifyMemory"})),
    "cpu_loops": Case("guarded_rows(60, 40, 16, 8) for llvm: partial blocks, vectorized and unrolled loops",
                      lambda: guarded_rows(60, 40, 16, 8), "llvm", _cpu_target, CPU,
                      frozenset({"LowerTileOpsToLoops", *pipelines.PIPELINE_STEPS["optimize_common"]}),
                      unchanged=frozenset({"RewriteUnsafeSelect", "VerifyMemory"})),
    "tt_programs": Case("split_then_combine(64, 64, 128, 32, 32, 32, 2): two T.Kernel launches, a T.alloc_global "
                        "workspace the first writes and the second reads", lambda: split_then_combine(
                            64, 64, 128, 32, 32, 32, 2), "tenstorrent", _tt_target, (), steps=("SplitTTPrograms",)),
    "cpu_unsafe_select": Case("hand-written: a T.Select whose taken branch reads memory the other branch guards",
                              lambda: _script(UNSAFE_SELECT), "llvm", _cpu_target, (),
                              steps=("RewriteUnsafeSelect",)),
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
    return list(case.steps) or [name for pipeline in case.pipelines for name in pipelines.PIPELINE_STEPS[pipeline]]


def runs_of(case: Case) -> list[tuple[int, str, str]]:
    """(step index, pass, run name) for every step: the run name is `Pass`, then `Pass.2`, `Pass.3`, ..."""
    seen: dict[str, int] = {}
    out = []
    for index, name in enumerate(steps_of(case)):
        seen[name] = seen.get(name, 0) + 1
        out.append((index, name, name if seen[name] == 1 else f"{name}.{seen[name]}"))
    return out


def _goldens() -> list[Golden]:
    out = []
    for case_name, case in CASES.items():
        for index, name, run in runs_of(case):
            if (case.goldens is None or name in case.goldens) and run not in case.unchanged:
                suffix = run[len(name):]
                out.append(Golden(f"{name}.{case_name}{suffix}", case_name, index, name))
    return out


GOLDENS = _goldens()


def make_pass(name: str, target: tvm.target.Target, options: dict[str, dict[str, object]] | None = None,
              ) -> tvm.transform.Pass:
    if name == "BindTarget":
        return transform.BindTarget(target)
    return getattr(transform, name)(**(options or {}).get(name, {}))


@functools.cache
def modules(case_name: str) -> tuple[tvm.IRModule, ...]:
    """The module before every step of the case, and after the last one: modules(case)[i] is the `before` of step i."""
    case = CASES[case_name]
    target = case.target()
    mod = tvm.IRModule({"main": case.kernel()})
    out = [mod]
    with target:
        for name in steps_of(case):
            mod = make_pass(name, target, case.options)(mod)
            out.append(mod)
    return tuple(out)


def run_pass(case_name: str, pass_name: str, before: tvm.IRModule) -> tvm.IRModule:
    """The pass alone applied to `before` under the case's target (which it must leave unchanged)."""
    target = CASES[case_name].target()
    digest = tvm_ffi.structural_hash(before)
    with target:
        after = make_pass(pass_name, target, CASES[case_name].options)(before)
    assert tvm_ffi.structural_hash(before) == digest, f"{pass_name} changed its input module in place"
    return after


# The line between a golden file's input and output modules.
AFTER_MARK = "# " + "-" * 40 + " after"
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


def _nth(golden: Golden) -> str:
    runs = steps_of(CASES[golden.case])[:golden.step + 1].count(golden.pass_name)
    return f", its {runs}{'nd' if runs == 2 else 'rd' if runs == 3 else 'th'} run" if runs > 1 else ""


def render(golden: Golden, before: tvm.IRModule, after: tvm.IRModule) -> str:
    """The golden file: a header, the pass's input (unless PIPELINE_INPUT) and, after AFTER_MARK, its output."""
    case = CASES[golden.case]
    origin = " + ".join(case.pipelines) + _nth(golden) if case.pipelines else "written by hand in tests/pass_goldens.py"
    header = [
        "# ruff: noqa",
        f"# Golden of {golden.pass_name}, case {golden.case} ({origin}):",
        f"# {case.doc}.",
        f"# Written by `{UPDATE_COMMAND}`; do not edit by hand. The pass's input, then its output.",
    ]
    parts = [] if golden.name in PIPELINE_INPUT else [hoist_free_vars(before.script()).rstrip("\n")]
    parts.append(f"{AFTER_MARK} {golden.pass_name}\n" + hoist_free_vars(after.script()).rstrip("\n"))
    return "\n".join(header) + "\n" + "\n\n".join(parts) + "\n"


def split(golden: Golden) -> tuple[str | None, str]:
    """The input's and the output's TVMScript text of a golden file (no input for PIPELINE_INPUT)."""
    before, mark, after = golden.path.read_text("utf-8").partition(f"{AFTER_MARK} {golden.pass_name}\n")
    assert mark, f"{golden.path.name}: no line '{AFTER_MARK} {golden.pass_name}'; rewrite it with `{UPDATE_COMMAND}`"
    return (None if golden.name in PIPELINE_INPUT else before), after


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
