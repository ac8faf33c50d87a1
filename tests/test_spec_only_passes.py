"""Passes written as specs only, with options, added to a copy of the checkout as the README's "How to add a pass
from existing rule kinds" says: they lower, and their expressions and messages read `options` and `device` in
every engine (issue 20: a verify or partition rule reading `options` failed at lowering, as those engines did not
provide it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from projects import REPO, build_checkout, copy_project, make_checkout

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

# Run in the copy: the defaults lower; an option that makes a check fail is the check's message, with the values.
SCRIPT = """
import tilelang
from tt_kernels import matmul

kernel = matmul(256, 256, 256, 64, 64, 32, dtype="bfloat16")  # 4x4 blocks
tilelang.compile(kernel, target="tenstorrent")
for configs in ({"tl.CheckTTKernelBudget.max_cbs": 2},
                {"tl.PartitionTTWorkCapped.max_blocks": 1, "tl.PartitionTTWorkCapped.core_grid": [2, 2]}):
    try:
        tilelang.compile(kernel, target="tenstorrent", pass_configs=configs)
    except tilelang.TileLangError as err:
        print(type(err).__name__, err)
"""


@pytest.mark.slow  # builds the C++ passes of a checkout copy
def test_spec_only_verify_and_partition_passes_read_their_options(tmp_path: Path) -> None:
    root = make_checkout(copy_project(tmp_path / "checkout"))
    (root / "specs" / "passes" / "check_tt_kernel_budget.yaml").write_text(VERIFY_PASS, "utf-8")
    (root / "specs" / "passes" / "partition_tt_work_capped.yaml").write_text(PARTITION_PASS, "utf-8")
    pipeline = root / "specs" / "pipelines" / "optimize_tenstorrent.yaml"
    text = pipeline.read_text("utf-8")
    for step, after in (("PartitionTTWorkCapped", "PartitionTTWork"), ("CheckTTKernelBudget", "VerifyTTKernels")):
        assert text.count(f"  - {{pass: {after}}}\n") == 1
        text = text.replace(f"  - {{pass: {after}}}\n", f"  - {{pass: {after}}}\n  - {{pass: {step}}}\n")
    pipeline.write_text(text, "utf-8")
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(root), "generate", "-q"], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    env = build_checkout(root, "passes")
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(REPO / "tests")])
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=root, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    verify, partition = done.stdout.strip().split("\n")
    assert verify.startswith("TTLoweringError main_") and \
        "CBs, more than options.max_cbs = 2 (the device has 32)" in verify, verify
    assert partition == ("TTLoweringError 4x4 blocks on 2x2 cores, more than options.max_blocks = 1 per core"), \
        partition
