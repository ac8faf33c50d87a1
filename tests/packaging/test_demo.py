"""`make demo`'s executing step (the TT GEMM on the emulator) and the CPU GEMM example: both match numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from projects import REPO


def test_tt_gemm_demo_runs_on_the_emulator(tmp_path: Path) -> None:
    out = tmp_path / "artifacts"
    done = subprocess.run([sys.executable, str(REPO / "examples" / "tt_gemm_demo.py"), "--out", str(out)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "max relative error vs numpy" in done.stdout and "on 64 cores" in done.stdout
    assert "matmul_tiles 4096" in done.stdout  # 512^3 in 32^3 tile products
    # 8x8 blocks of 64x64 on 8x8 cores: A and B each read from DRAM once (0.5 MiB each), each multicast once
    assert "DRAM read 1.00 MiB" in done.stdout and "multicast: " in done.stdout and "1.00 MiB sent" in done.stdout
    assert sorted(p.name for p in out.iterdir()) == ["CMakeLists.txt", "compute.cpp", "main.cpp", "reader.cpp",
                                                     "run_ttnn.py", "tt.host_args", "tt.plan.json", "tt.report.json",
                                                     "tt.trace.json", "writer.cpp"]


def test_cpu_gemm_example_runs() -> None:
    done = subprocess.run([sys.executable, str(REPO / "examples" / "gemm_demo.py")], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "max relative error vs numpy" in done.stdout
