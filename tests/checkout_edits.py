"""The checkout copies that tests edit and rebuild, each made once per session and shared (issue 35: one copy, one
generate and one C++ build where five tests made five). Their edits are independent of one another:

- `tenstorrent_edits`: a new SFPU op (docs/how-to-add.md's checklist, tests/backends/test_add_eltwise_op.py), two
  spec-only passes in the Tenstorrent pipeline (tests/passes/test_spec_only_passes.py) and the second API profile as the
  backend spec's one line (tests/tenstorrent/test_tt_codegen.py), generated and both libraries built once;
- `baked_backends`: two backends baked from templates/backend onto a checkout copy, then docs/add-backend.md's
  walkthrough run there as written (its `make generate` renders and builds all three backends once); the baked
  tests of tests/backends/test_backend_template.py run in it.

Each test asserts on its own edit (a test still fails when its feature breaks) and runs its own kernels in the copy.
The tests that share a copy share an `xdist_group`, so that one worker makes it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from projects import REPO, build_checkout, copy_env, copy_project, make_checkout, snapshot

# ------------------------------------------------------------------------------------------ the Tenstorrent edits

# The new SFPU op: T.abs as abs_tile (docs/how-to-add.md, "An element-wise op").
ABS_EDITS = (
    ("specs/intrinsics/sfpu.yaml", "foreach: {op: [exp2, log, sigmoid, tanh]}",
     "foreach: {op: [exp2, log, sigmoid, tanh, abs]}", 2),
    ("specs/ops/eltwise.yaml", None,
     '  - {name: abs, unit: sfpu_unary, match: {call: tirx.fabs}, init: abs_tile_init, tile: abs_tile,\n'
     '     doc: Absolute value.}\n', 0),
    ("src/emulator/src/sfpu_math.cpp", "constexpr SfpuMath kSfpuTable[] = {\n",
     "constexpr SfpuMath kSfpuTable[] = {\n    {Op::abs_tile, [](float x, float) { return std::fabs(x); }},\n", 1),
)

VERIFY_PASS = """\
# yaml-language-server: $schema=../../schema/pass.schema.json
kind: pass
name: CheckTTKernelBudget
stage: E
doc: A project's own limit on the CBs of each verified kernel, below the device's.
requires: [VerifyTTKernels]
options:
  max_cbs: {type: int, default: 32, doc: "CBs a kernel may use."}
reads:
  - {key: tt.cbs, type: list, doc: CB descriptors.}
rules:
  - kind: verify
    params:
      structural: [no_abstract_ops]
      checks:
        - expr: cbs <= options.max_cbs and options.max_cbs <= device.MAX_CBS
          error: "{cbs} CBs, more than options.max_cbs = {options.max_cbs} (the device has {device.MAX_CBS})"
"""

PARTITION_PASS = """\
# yaml-language-server: $schema=../../schema/pass.schema.json
kind: pass
name: PartitionTTWorkCapped
stage: B
doc: PartitionTTWork with a cap on the blocks of one core.
options:
  core_grid: {type: int_list, default: [8, 8], doc: "Worker cores used, as [x, y]."}
  mode: {type: string, default: auto, choices: [auto, global, shard], doc: "Partition mode."}
  max_blocks: {type: int, default: 64, doc: "Blocks one core may get."}
writes:
  - {key: tt.core_grid, type: int_list, doc: "Core grid [x, y]."}
  - {key: tt.grid_blocks, type: int_list, doc: "Block grid of the kernel [x, y, z]."}
  - {key: tt.partition_mode, type: string, doc: global or shard.}
  - {key: tt.work_partition, type: list, doc: "Per used core: {core: [x, y], ...work fields}."}
  - {key: tt.core_ranges, type: list, doc: "Ranges [x0, y0, x1, y1] covering the used cores."}
rules:
  - kind: partition
    params:
      auto_shard: options.max_blocks > 0 and grid_x % min(grid_x, cores_x) == 0
      require:
        - expr: ceildiv(grid_x * grid_y, cores_x * cores_y) <= options.max_blocks
          error: "{grid_x}x{grid_y} blocks on {cores_x}x{cores_y} cores, more than
            options.max_blocks = {options.max_blocks} per core"
"""
# The spec-only passes, each inserted after the pass it follows in the Tenstorrent pipeline.
PASS_SPECS = {"check_tt_kernel_budget.yaml": VERIFY_PASS, "partition_tt_work_capped.yaml": PARTITION_PASS}
PIPELINE = "specs/pipelines/optimize_tenstorrent.yaml"
PIPELINE_STEPS = (("PartitionTTWorkCapped", "PartitionTTWork"), ("CheckTTKernelBudget", "VerifyTTKernels"))

# The second API profile: the backend spec's one line.
PROFILE_SPEC, PROFILE_LINE, SECOND_PROFILE_LINE = ("specs/backends/tenstorrent.yaml", "api_profile: ttnn_0_81\n",
                                                   "api_profile: tilelang_tt_2025\n")


def edit(path: Path, old: str | None, new: str, count: int = 1) -> None:
    """Replace `old` (found `count` times) by `new`; `old` None appends `new`."""
    text = path.read_text("utf-8")
    if old is None:
        path.write_text(text + new, "utf-8")
        return
    assert text.count(old) == count, (path, old)
    path.write_text(text.replace(old, new), "utf-8")


def sources(root: Path) -> dict[str, bytes]:
    """The hand-edited inputs of a copy: specs/ and src/ (relative to the root)."""
    return {f"{part}/{name}": data for part in ("specs", "src") for name, data in snapshot(root / part).items()}


def changed_by(root: Path, edits: tuple[tuple[str, str | None, str, int], ...]) -> set[str]:
    """Apply `edits` to the copy; returns the files they changed."""
    before = sources(root)
    for name, old, new, count in edits:
        edit(root / name, old, new, count)
    after = sources(root)
    return {name for name in after.keys() | before.keys() if after.get(name) != before.get(name)}


def add_spec_only_passes(root: Path) -> None:
    for name, text in PASS_SPECS.items():
        (root / "specs" / "passes" / name).write_text(text, "utf-8")
    pipeline = root / PIPELINE
    text = pipeline.read_text("utf-8")
    for step, after in PIPELINE_STEPS:
        assert text.count(f"  - {{pass: {after}}}\n") == 1
        text = text.replace(f"  - {{pass: {after}}}\n", f"  - {{pass: {after}}}\n  - {{pass: {step}}}\n")
    pipeline.write_text(text, "utf-8")


@dataclass(frozen=True)
class TenstorrentEdits:
    root: Path  # the copy, generated and built
    env: dict[str, str]  # imports the copy's `tilelang` (and the tests' kernel corpora)
    abs_changed: set[str]  # the files the SFPU op's edits changed


def tenstorrent_edits(folder: Path) -> TenstorrentEdits:
    """A checkout copy with the three Tenstorrent edits, generated and both C++ libraries built once."""
    root = make_checkout(copy_project(folder / "checkout"))
    abs_changed = changed_by(root, ABS_EDITS)
    add_spec_only_passes(root)
    edit(root / PROFILE_SPEC, PROFILE_LINE, SECOND_PROFILE_LINE)
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(root), "--out", str(root / "generated"),
                           "generate", "--quiet"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    env = build_checkout(root)  # the profile is compiled into both libraries, the SFPU op into the emulator
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(REPO / "tests")])
    env.pop("TILELANG_TT_API_PROFILE", None)  # the spec line, not a profile this run was given, decides
    return TenstorrentEdits(root, env, abs_changed)


def run_in(copy: TenstorrentEdits, name: str, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`script` run as the file `name`.py next to the copy (TVMScript reads a kernel's source from its file),
    importing the copy's `tilelang`."""
    path = copy.root.parent / f"{name}.py"
    path.write_text(script, "utf-8")
    return subprocess.run([sys.executable, str(path), *args], cwd=copy.root, env=copy.env, capture_output=True,
                          text=True, timeout=600)


# ---------------------------------------------------------------------------------------------- the baked backends

ADD_A_BACKEND = "\n" + (REPO / "docs" / "add-backend.md").read_text("utf-8")  # the walkthrough's page
# What a checkout needs for the baked tests: the standard GEMM lives in language/test_language_llvm.py.
TEST_SUPPORT = ("conftest.py", "layers.py", "projects.py", "checkout_edits.py", "language/test_language_llvm.py")
# The project tests the baked test runs in the copy, and what they import (the corpora take TileLang's examples
# from the last).
PROJECT_TEST_FILES = ("passes/test_pass_golden.py", "pass_goldens.py", "backends/test_backends.py",
                      "language/test_language_surface.py", "backends/test_backend_template.py",
                      "language/test_tilelang_examples.py")


def readme_walkthrough() -> tuple[str, str]:
    """The sh block under '## Add a backend', and the backend name it scaffolds."""
    section = ADD_A_BACKEND.split("\n## Add a backend\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "docs/add-backend.md: no sh block under '## Add a backend'"
    name = re.search(r"new-backend (\w+)", block.group(1))
    assert name is not None, "docs/add-backend.md: the walkthrough runs no `new-backend NAME`"
    return block.group(1), name.group(1)


def checkout_copy(root: Path) -> Path:
    """A checkout the baked backends are generated into, with pytest's configuration, the generator, the project
    tests the baked test runs and what they read, and the Makefile whose `make generate` the walkthrough runs (its
    .venv is this one)."""
    make_checkout(copy_project(root))
    (root / "tests").mkdir()
    helpers = [path.name for path in (REPO / "tests").glob("tt_*.py")]  # the kernel corpora the tests import
    for name in (*TEST_SUPPORT, *PROJECT_TEST_FILES, *helpers):  # relative to tests/, layer folder included
        (root / "tests" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / "tests" / name, root / "tests" / name)
    shutil.copytree(REPO / "tests" / "golden", root / "tests" / "golden")
    shutil.copytree(REPO / "generator", root / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("README.md", "mkdocs.yml", "Makefile"):
        shutil.copy2(REPO / name, root / name)
    shutil.copytree(REPO / "docs", root / "docs")
    os.utime(root / "pyproject.toml", (0, 0))  # never older than the venv's install stamp: make must not reinstall
    (root / ".venv").symlink_to(REPO / ".venv", target_is_directory=True)
    return root


@dataclass(frozen=True)
class BakedBackends:
    root: Path  # the copy
    backends: Path  # the walkthrough's ../backends
    baked: tuple[str, ...]  # the backends baked before the walkthrough ran
    walkthrough: str  # the backend the walkthrough baked
    installed: bool  # `make -q .venv/.installed` held in the copy before the walkthrough ran
    done: subprocess.CompletedProcess[str]  # the walkthrough's run (bash -euxc)


def baked_backends(folder: Path, baked: dict[str, dict[str, str]], script: str, walkthrough: str) -> BakedBackends:
    """`baked` (name -> answers) baked with `python -m generator new-backend` and copied onto a checkout copy, then
    the walkthrough's `script` run there, verbatim: its `make generate` renders all of them and builds the copy's
    C++ libraries (as Quick, copy_env) once. The copy's generated/ is not rendered before."""
    root = checkout_copy(folder / "checkout")
    config = folder / "cookiecutter.yaml"  # cookiecutter's replay dir, not ~
    config.write_text(f"replay_dir: {folder / 'replay'}\ncookiecutters_dir: {folder / 'cookiecutters'}\n")
    env = {**copy_env(root), "PWD": str(root), "COOKIECUTTER_CONFIG": str(config)}
    for name, answers in baked.items():
        sets = [f"--set={key}={value}" for key, value in answers.items()]
        done = subprocess.run([sys.executable, "-m", "generator", "new-backend", name, "--no-input", "--output-dir",
                               str(folder / "baked"), *sets], cwd=root, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        for part in ("specs", "tests"):  # docs/add-backend.md's `cp -R`
            shutil.copytree(folder / "baked" / name / part, root / part, dirs_exist_ok=True)
    installed = subprocess.run(["make", "-q", ".venv/.installed"], cwd=root).returncode == 0
    # `make generate` builds both C++ libraries: as long as build_checkout allows (tests share the cores)
    done = subprocess.run(["bash", "-euxc", script], cwd=root, env=env, capture_output=True, text=True, timeout=900)
    return BakedBackends(root, folder / "backends", tuple(baked), walkthrough, installed, done)
