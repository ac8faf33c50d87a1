"""Python vs C++ rendering of the Tenstorrent pass pipeline (lower_and_legalize_tt + optimize_tenstorrent).

Kernels: the standard TileLang GEMM at 4096^3 (blocks 256x256x64, bf16, fp32 accumulation, 64 cores with
multicast), the GEMM + bias + ReLU epilogue at 4096^3, and a kernel with many tile ops (16 tensors each copied
through its own CB: 32 tile ops, 16 input and 16 output CBs). For each kernel the whole pipeline is timed in both
renderings (best of REPEATS, same process, library already built), then every pass on the same input. The
target is C++ >= 3x faster overall; passes that are TVM's own transforms (BindTarget, Simplify) run the same
code in both renderings and are marked as such.

Run: .venv/bin/python benchmarks/bench_cpp_passes.py
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tvm

import tilelang
import tilelang.cpp
from tilelang import transform
from tilelang.engine import pipelines
from tilelang.engine.registry import BACKENDS
from tilelang.transform import cpp as cpp_transform

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from tt_bad_kernels import many_inputs  # noqa: E402
from tt_kernels import matmul, matmul_bias_relu  # noqa: E402

REPEATS = 5
TARGET = BACKENDS["tenstorrent"].make_target(None)
STEPS = pipelines.PIPELINE_STEPS["lower_and_legalize_tt"] + pipelines.PIPELINE_STEPS["optimize_tenstorrent"]
TVM_PASSES = {"BindTarget", "Simplify"}  # TVM's own transforms in both renderings


def best(action: Callable[[], Any]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def many_ops_kernel() -> Any:
    source, _ = many_inputs(16)
    path = Path(tempfile.mkdtemp()) / "many_ops.py"
    path.write_text(source, "utf-8")
    spec = importlib.util.spec_from_file_location("many_ops", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def pipeline(module: Any, mod: tvm.IRModule) -> tvm.IRModule:
    with TARGET:
        for name in STEPS:
            mod = getattr(module, name)(**({"target": TARGET} if name == "BindTarget" else {}))(mod)
    return mod


def per_pass(mod: tvm.IRModule) -> list[tuple[str, float, float]]:
    rows = []
    with TARGET:
        for name in STEPS:
            args = {"target": TARGET} if name == "BindTarget" else {}
            py_pass, cpp_pass = getattr(transform, name)(**args), getattr(cpp_transform, name)(**args)
            rows.append((name, best(lambda p=py_pass, m=mod: p(m)), best(lambda p=cpp_pass, m=mod: p(m))))
            mod = py_pass(mod)
    return rows


def main() -> None:
    start = time.perf_counter()
    tilelang.cpp.load()
    print(f"C++ passes library ready in {time.perf_counter() - start:.1f} s (built once, cached by content hash)")
    kernels = {
        "GEMM 4096^3 (256x256x64 blocks)": matmul(4096, 4096, 4096, 256, 256, 64),
        "GEMM+bias+ReLU 4096^3 (128x128x32)": matmul_bias_relu(4096, 4096, 4096, 128, 128, 32),
        "many ops (16 copies in/out, 32 CBs)": many_ops_kernel(),
    }
    overall_py = overall_cpp = 0.0
    for title, func in kernels.items():
        mod = tvm.IRModule({"main": func})
        tvm.ir.assert_structural_equal(pipeline(cpp_transform, mod), pipeline(transform, mod), map_free_vars=True)
        py, cpp = best(lambda m=mod: pipeline(transform, m)), best(lambda m=mod: pipeline(cpp_transform, m))
        overall_py, overall_cpp = overall_py + py, overall_cpp + cpp
        print(f"\n{title}: whole pipeline Python {py * 1e3:.1f} ms, C++ {cpp * 1e3:.1f} ms, "
              f"C++ speed-up {py / cpp:.2f}x")
        print(f"  {'pass':<22} {'Python ms':>10} {'C++ ms':>9} {'speed-up':>9}")
        for name, p, c in per_pass(mod):
            note = "  (TVM transform in both)" if name in TVM_PASSES else ""
            print(f"  {name:<22} {p * 1e3:>10.2f} {c * 1e3:>9.2f} {p / c:>8.2f}x{note}")
    print(f"\noverall (all kernels): Python {overall_py * 1e3:.1f} ms, C++ {overall_cpp * 1e3:.1f} ms, "
          f"speed-up {overall_py / overall_cpp:.2f}x (target >= 3x)")


if __name__ == "__main__":
    main()
