"""docs/how-to-add.md's "An element-wise op" checklist, followed in a copy of the repo: a new SFPU function
(T.abs, abs_tile, which the real headers of every profile have) touches only the intrinsic spec, one op-map entry
and one line of the emulator's SFPU table; regenerated and rebuilt, it runs end to end in the emulator and
matches numpy."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import tilelang
from projects import REPO, build_checkout, copy_project, make_checkout, snapshot
from tilelang.language import TileLangError

HOW_TO_ADD = (REPO / "docs" / "how-to-add.md").read_text("utf-8")
ABS_KERNEL = '''
import ml_dtypes, numpy as np, tilelang
import tilelang.language as T

@T.prim_func
def main(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(2, 2, threads=128) as (bx, by):
        A_s = T.alloc_shared((32, 32), "bfloat16")
        C_l = T.alloc_fragment((32, 32), "bfloat16")
        T.copy(A[by * 32, bx * 32], A_s)
        for i, j in T.Parallel(32, 32):
            C_l[i, j] = T.abs(A_s[i, j])
        T.copy(C_l, C[by * 32, bx * 32])
'''
RUN = ABS_KERNEL + '''
kernel = tilelang.compile(main, out_idx=[-1], target="tenstorrent")
assert "abs_tile_init();" in kernel.get_kernel_source() and "abs_tile(0);" in kernel.get_kernel_source()
a = np.random.default_rng(2).uniform(-3, 3, (64, 64)).astype(ml_dtypes.bfloat16)
got = kernel(a)
assert np.array_equal(got.astype(np.float32), np.abs(a.astype(np.float32)))  # |x| of a bf16 value is exact
assert kernel.last_report["total"]["sfpu_tiles"] == 4
print("abs ok")
'''


def checklist_files() -> set[str]:
    """The files the checklist of docs/how-to-add.md names (backticked paths under specs/ and src/)."""
    section = HOW_TO_ADD.split("### An element-wise op", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    items = section.split("\n1. ", 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"`((?:specs|src)/[\w./]+\.(?:yaml|cpp))`", items))


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text("utf-8")
    assert text.count(old) == count, (path, old)
    path.write_text(text.replace(old, new), "utf-8")


def test_abs_is_refused_before_it_is_added(tmp_path: Path) -> None:
    script = tmp_path / "abs_kernel.py"  # TVMScript reads the kernel's source from a file
    script.write_text(ABS_KERNEL, "utf-8")
    namespace: dict[str, object] = {}
    exec(compile(ABS_KERNEL, str(script), "exec"), namespace)  # noqa: S102
    with pytest.raises(TileLangError, match=r"calls T.fabs \(tirx.fabs\), which has no tenstorrent element-wise "
                                            r"lowering \(supported: the functions T.max\(x, 0\), 1 / x, T.exp\(x\)"):
        tilelang.lower(namespace["main"], target="tenstorrent")


def sources(root: Path) -> dict[str, bytes]:
    """The hand-edited inputs of a copy: specs/ and src/ (relative to the root)."""
    return {f"{part}/{name}": data for part in ("specs", "src") for name, data in snapshot(root / part).items()}


@pytest.mark.slow  # builds both C++ libraries of a checkout copy
def test_a_new_sfpu_op_takes_the_readme_checklist(tmp_path: Path) -> None:
    root = make_checkout(copy_project(tmp_path / "project"))
    before = sources(root)
    edit(root / "specs/intrinsics/sfpu.yaml", "foreach: {op: [exp2, log, sigmoid, tanh]}",
         "foreach: {op: [exp2, log, sigmoid, tanh, abs]}", count=2)
    with (root / "specs/ops/eltwise.yaml").open("a", encoding="utf-8") as spec:
        spec.write('  - {name: abs, unit: sfpu_unary, match: {call: tirx.fabs}, init: abs_tile_init, tile: abs_tile,\n'
                   '     doc: Absolute value.}\n')
    edit(root / "src/emulator/src/sfpu_math.cpp", "constexpr SfpuMath kSfpuTable[] = {\n",
         "constexpr SfpuMath kSfpuTable[] = {\n    {Op::abs_tile, [](float x, float) { return std::fabs(x); }},\n")
    after = sources(root)
    changed = {name for name in after.keys() | before.keys() if after.get(name) != before.get(name)}
    assert changed == checklist_files() == {"specs/intrinsics/sfpu.yaml", "specs/ops/eltwise.yaml",
                                            "src/emulator/src/sfpu_math.cpp"}
    generate = subprocess.run([sys.executable, "-m", "generator", "--root", str(root), "--out",
                               str(root / "generated"), "generate", "--quiet"], cwd=REPO, capture_output=True,
                              text=True, timeout=300)
    assert generate.returncode == 0, generate.stderr
    assert "abs_tile" in (root / "generated/emulator/include/tt_emu/sfpu_ops.hpp").read_text("utf-8")
    env = build_checkout(root)
    script = tmp_path / "run_abs.py"
    script.write_text(RUN, "utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0 and "abs ok" in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
