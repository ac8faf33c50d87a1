"""The layer folders the tests are sorted into. The modules the tests share (kernels, projects) and their data
(fixtures/, golden/, emulator_cases/, ...) stay in tests/ itself; some tests and tools reuse kernels that another
layer's test module defines, so importing this module puts tests/ and every layer folder on the import path
(`import layers  # noqa: F401` before such an import; conftest.py does it before any test is collected)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
LAYERS = {
    "generator": "specs, schemas and the generator: validation, errors, rendering, the writer, incremental runs",
    "language": "the tilelang package users import: the T.* surface, eager and classic style, jit, upstream kernels",
    "passes": "the passes one at a time: goldens and spec-only passes",
    "tenstorrent": "lowering TileLang to Tenstorrent kernels and host programs, run in the emulator against numpy",
    "emulator": "the Metalium emulator itself: host and kernel APIs, the sanitizer, ttnn's and tt-metal's own code",
    "backends": "the backend contract: the cookiecutter template, the CPU and CUDA backends, adding an op",
    "packaging": "the repository as shipped: the wheel, the README and demo, import structure, code size",
}


def import_path() -> list[str]:
    """tests/ and its layer folders, in that order."""
    return [str(TESTS), *(str(TESTS / name) for name in LAYERS)]


def add_to_sys_path() -> None:
    """Put `import_path()` at the front of sys.path (idempotent)."""
    for entry in reversed(import_path()):
        if entry not in sys.path:
            sys.path.insert(0, entry)


add_to_sys_path()
