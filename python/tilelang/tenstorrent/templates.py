"""The Jinja templates of the Tenstorrent host files (metalium/: main.cpp, CMakeLists.txt, run_ttnn.py, the
emulator's CMake package files)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def templates() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "metalium")),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True,
                              lstrip_blocks=True, autoescape=False)
