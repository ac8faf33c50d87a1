"""Sizes of the hand-written sources: files over MAX_FILE_LINES lines and functions over MAX_FUNCTION_LINES.

    python tools/code_size.py            # list the offenders (exit 1 when there are any)
    python tools/code_size.py --totals   # hand-written lines per language

Python functions are measured with `ast`; C++ functions by brace matching from a line that opens a function
body (a signature ending in `) {`, not a control statement or a lambda).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80
HAND_WRITTEN = ("python", "src", "generator", "tests", "benchmarks", "examples", "tools")
SKIPPED = ("tests/fixtures", "tests/golden", "tests/emulator_cases")
LANGUAGES = {".py": "Python", ".cc": "C++", ".h": "C++", ".cpp": "C++", ".hpp": "C++"}
_CPP_BODY = re.compile(r"^\s*[A-Za-z_~][\w:<>,*&~\s]*\([^;]*\)\s*(const\s*)?(noexcept\s*)?(override\s*)?\{\s*$")
_CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|else|do|return)\b")


def sources() -> Iterator[Path]:
    for top in HAND_WRITTEN:
        for path in sorted((REPO / top).rglob("*")):
            rel = path.relative_to(REPO).as_posix()
            if path.suffix in LANGUAGES and path.is_file() and not rel.startswith(SKIPPED) \
                    and "__pycache__" not in rel:
                yield path


def python_functions(text: str) -> Iterator[tuple[str, int, int]]:
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, (node.end_lineno or node.lineno) - node.lineno + 1


def cpp_functions(text: str) -> Iterator[tuple[str, int, int]]:
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if not _CPP_BODY.match(line) or _CONTROL.match(line) or "[" in line.split("(")[0]:
            continue
        depth = 0
        for end in range(start, len(lines)):
            code = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|//.*', "", lines[end])
            depth += code.count("{") - code.count("}")
            if depth <= 0:
                name = line.split("(")[0].split()[-1] if line.split("(")[0].split() else "?"
                yield name, start + 1, end - start + 1
                break


def offenders() -> list[str]:
    found = []
    for path in sources():
        rel = path.relative_to(REPO).as_posix()
        text = path.read_text("utf-8")
        count = len(text.splitlines())
        if count > MAX_FILE_LINES:
            found.append(f"{rel}: {count} lines (limit {MAX_FILE_LINES})")
        functions = python_functions(text) if path.suffix == ".py" else cpp_functions(text)
        for name, line, length in functions:
            if length > MAX_FUNCTION_LINES:
                found.append(f"{rel}:{line}: function {name} has {length} lines (limit {MAX_FUNCTION_LINES})")
    return found


def totals() -> dict[str, int]:
    counts: dict[str, int] = {}
    for path in sources():
        if path.relative_to(REPO).parts[0] in ("python", "src", "generator"):
            language = LANGUAGES[path.suffix]
            counts[language] = counts.get(language, 0) + len(path.read_text("utf-8").splitlines())
    return counts


def main() -> int:
    if "--totals" in sys.argv:
        for language, count in sorted(totals().items()):
            print(f"{language}: {count} lines (python/, src/, generator/)")
        return 0
    found = offenders()
    print("\n".join(found) or "no file or function over the limits")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
