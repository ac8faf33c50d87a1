"""Several T.Kernel launches in one function on Tenstorrent (issue 28): SplitTTPrograms makes one PrimFunc per launch,
each is lowered to a program of its own (reader/compute/writer, CBs, grid, main.cpp, tt.plan.json in program<i>/),
and a run runs them in launch order on the same tensors, the T.alloc_global workspace allocated once by the host.

The corpus kernel (tests/tt_program_kernels.py): a split-K GEMM whose first program writes each K part's product into
the workspace and whose second sums the parts into C. Tolerance: bf16 inputs, exact products, fp32 sums in another
order than numpy's: |got - ref| <= 2^-16 * |A| @ |B| element-wise.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from tt_program_kernels import split_then_combine

import tilelang
from tilelang import transform
from tilelang.tenstorrent import attr_keys
from tilelang.tenstorrent.metalium import validate_plan
from tilelang.tenstorrent.perf_model import estimate, estimate_kernel
from tilelang.tenstorrent.program_dirs import program_folders
from tilelang.tenstorrent.programs import MetaliumPrograms
from tilelang.tenstorrent.records import PLAN, PROGRAM, REPORT, TENSOR

BF16 = ml_dtypes.bfloat16
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def test_each_launch_becomes_a_primfunc_with_the_workspaces_it_uses() -> None:
    import tvm

    mod = transform.SplitTTPrograms()(tvm.IRModule({"main": split_then_combine(64, 64, 128, 32, 32, 32, 2)}))
    funcs = {gv.name_hint: f for gv, f in mod.functions.items()}
    assert sorted(funcs) == ["main_program0", "main_program1"]
    for index, name in enumerate(sorted(funcs)):
        func = funcs[name]
        assert [str(p.name) for p in func.params] == ["A", "B", "C", "partial"]
        assert int(func.attrs[attr_keys.TT_PROGRAM]) == index
        assert int(func.attrs[attr_keys.TT_PROGRAM_COUNT]) == 2
        assert [str(w) for w in func.attrs[attr_keys.TT_WORKSPACES]] == ["partial"]
        assert str(func.attrs["global_symbol"]) == name


@needs_gxx
def test_split_then_combine_runs_its_programs_in_order(tmp_path: Path) -> None:
    m, n, k = 64, 64, 128
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (m, k)).astype(BF16)
    b = rng.uniform(-1, 1, (k, n)).astype(BF16)
    c = np.zeros((m, n), np.float32)
    kernel = tilelang.compile(split_then_combine(m, n, k, 32, 32, 32, 2), target="tenstorrent")
    kernel(a, b, c)
    af, bf = a.astype(np.float32), b.astype(np.float32)
    assert np.all(np.abs(c - af @ bf) <= 2.0**-16 * (np.abs(af) @ np.abs(bf))), float(np.abs(c - af @ bf).max())
    program = kernel.artifact.rt_mod
    assert isinstance(program, MetaliumPrograms)
    assert [p.plan[PLAN.KERNEL] for p in program.programs] == ["main_program0", "main_program1"]
    assert [p.plan[PLAN.GRID_BLOCKS] for p in program.programs] == [[2, 2, 2], [2, 2, 1]]
    roles = [{t[TENSOR.NAME]: t[TENSOR.ROLE] for t in p.plan[PLAN.TENSORS]} for p in program.programs]
    assert roles[0]["partial"] == "output" and roles[1]["partial"] == "input" and roles[1]["C"] == "output"
    assert len(kernel.last_report[REPORT.PROGRAMS]) == 2
    # The performance model's time: the programs run one after another, so their times add up (after one more run).
    latency = kernel.get_profiler().do_bench()
    assert latency == pytest.approx(sum(estimate(p.plan, p.last_report).modelled_seconds for p in program.programs)
                                    * 1e3)
    with pytest.raises(ValueError, match="several programs run in order"):
        estimate_kernel(kernel)
    assert latency > max(estimate(p.plan, p.last_report).modelled_seconds for p in program.programs) * 1e3
    out = kernel.save(tmp_path / "saved")
    folders = program_folders(out)
    assert [f.name for f in folders] == ["program0", "program1"]
    for index, folder in enumerate(folders):
        plan = json.loads((folder / "tt.plan.json").read_text())
        validate_plan(plan)
        assert plan[PLAN.PROGRAM] == {PROGRAM.INDEX: index, PROGRAM.DIRECTORIES: ["program0", "program1"],
                                      PROGRAM.WORKSPACES: ["partial"]}
        assert {"reader.cpp", "compute.cpp", "writer.cpp", "main.cpp"} <= {f.name for f in folder.iterdir()}

