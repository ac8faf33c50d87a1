"""The Jinja templates of the Tenstorrent host files (metalium/: main.cpp, CMakeLists.txt, run_ttnn.py, the
emulator's CMake package files)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from .records import NOC_X, NOC_Y, SEMAPHORE_ID, TENSOR_ADDRESS

HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def templates() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "metalium")), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True, autoescape=False)
    env.filters["cpp_arg"] = _cpp_arg
    return env


def _cpp_arg(value: Any) -> str:
    """One runtime argument in main.cpp: a 32-bit constant, or what the host knows at run time (a tensor's DRAM
    address, a core's NoC coordinate, a semaphore id)."""
    if not isinstance(value, dict):
        return f"{int(value) & 0xFFFFFFFF}u"
    if TENSOR_ADDRESS.TENSOR in value:
        return f"static_cast<uint32_t>({value[TENSOR_ADDRESS.TENSOR]}->address())"
    if SEMAPHORE_ID.SEMAPHORE in value:
        return f"semaphore_{value[SEMAPHORE_ID.SEMAPHORE]}"
    axis, (x, y) = ("x", value[NOC_X.NOC_X]) if NOC_X.NOC_X in value else ("y", value[NOC_Y.NOC_Y])
    return f"static_cast<uint32_t>(noc_core({x}, {y}).{axis})"
