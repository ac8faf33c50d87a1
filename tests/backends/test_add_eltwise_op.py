"""docs/how-to-add.md's "An element-wise op" checklist, followed in a copy of the repo: a new SFPU function
(T.abs, abs_tile, which the real headers of every profile have) touches only the intrinsic spec, one op-map entry
and one line of the emulator's SFPU table; regenerated and rebuilt, it runs end to end in the emulator and
matches numpy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from checkout_edits import TenstorrentEdits, run_in

import tilelang
from projects import REPO
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


def test_abs_is_refused_before_it_is_added(tmp_path: Path) -> None:
    script = tmp_path / "abs_kernel.py"  # TVMScript reads the kernel's source from a file
    script.write_text(ABS_KERNEL, "utf-8")
    namespace: dict[str, object] = {}
    exec(compile(ABS_KERNEL, str(script), "exec"), namespace)  # noqa: S102
    with pytest.raises(TileLangError, match=r"calls T.fabs \(tirx.fabs\), which has no tenstorrent element-wise "
                                            r"lowering \(supported: the functions T.max\(x, 0\), 1 / x, T.exp\(x\)"):
        tilelang.lower(namespace["main"], target="tenstorrent")


@pytest.mark.slow  # builds both C++ libraries of a checkout copy (shared: tests/checkout_edits.py)
@pytest.mark.xdist_group("tenstorrent_edits")
def test_a_new_sfpu_op_takes_the_readme_checklist(tenstorrent_edits: TenstorrentEdits) -> None:
    root = tenstorrent_edits.root
    assert tenstorrent_edits.abs_changed == checklist_files() == {"specs/intrinsics/sfpu.yaml",
                                                                  "specs/ops/eltwise.yaml",
                                                                  "src/emulator/src/sfpu_math.cpp"}
    assert "abs_tile" in (root / "generated/emulator/include/tt_emu/sfpu_ops.hpp").read_text("utf-8")
    done = run_in(tenstorrent_edits, "run_abs", RUN)
    assert done.returncode == 0 and "abs ok" in done.stdout, done.stdout[-3000:] + done.stderr[-3000:]
