"""`make demo`'s executing step: the GEMM example runs and matches numpy."""

from __future__ import annotations

import subprocess
import sys

from projects import REPO


def test_gemm_demo_runs() -> None:
    done = subprocess.run([sys.executable, str(REPO / "examples" / "gemm_demo.py")], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "max relative error vs numpy" in done.stdout
