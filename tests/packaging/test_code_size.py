"""The hand-written sources stay small: no file over 400 lines, no function over 80 (tools/code_size.py)."""

from __future__ import annotations

import sys

from projects import REPO

sys.path.insert(0, str(REPO / "tools"))

import code_size  # noqa: E402


def test_no_hand_written_file_or_function_is_over_the_limits() -> None:
    assert code_size.offenders() == []


def test_the_measure_sees_functions_of_both_languages() -> None:
    python = list(code_size.python_functions("def f():\n    return 1\n"))
    cpp = list(code_size.cpp_functions("int f(int a) {\n  if (a) {\n    return 1;\n  }\n  return 0;\n}\n"))
    assert python == [("f", 1, 2)] and cpp == [("f", 1, 6)]
