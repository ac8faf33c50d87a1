"""`tilelang.contrib.nvcc`: facts about the CUDA toolkit on this machine (TileLang's tests ask for its version)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from ..errors import TileLangError


def find_nvcc(cuda_path: str | None = None) -> str:
    """The nvcc of `cuda_path`, of $CUDA_HOME / $CUDA_PATH, or on PATH; a TileLangError naming where it looked."""
    roots = [r for r in (cuda_path, os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")) if r]
    for root in roots:
        candidate = Path(root) / "bin" / "nvcc"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("nvcc")
    if found is None:
        raise TileLangError("tilelang.contrib.nvcc: no nvcc found (looked in " +
                            ", ".join([*(f"{r}/bin" for r in roots), "PATH"]) + ")")
    return found


def get_cuda_version(cuda_path: str | None = None) -> tuple[int, int]:
    """(major, minor) of the CUDA toolkit, from `nvcc --version` ("release 12.8, V12.8.93")."""
    nvcc = find_nvcc(cuda_path)
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError) as err:
        raise TileLangError(f"tilelang.contrib.nvcc.get_cuda_version: `{nvcc} --version` failed ({err})") from err
    match = re.search(r"release (\d+)\.(\d+)", out)
    if match is None:
        raise TileLangError(f"tilelang.contrib.nvcc.get_cuda_version: no 'release X.Y' in `{nvcc} --version`")
    return int(match.group(1)), int(match.group(2))
