"""Escaping and naming helpers used as Jinja2 filters.

Spec text reaches generated Python, C++ and Markdown only through these functions, one per language and
context, so a doc string such as `x"); import os; ("` can never escape from the literal or comment it is
placed in: Python literals `py_str`/`py_value`, docstrings `py_doc`, comments `py_comment`; C++ string literals
`cpp_str` (expressions.cpp_string, which the expression translator uses too), comments `cpp_comment`; Markdown
table cells `md_cell`. tests/generator/test_emitter_fuzz.py renders random text through every template and compiles the
result.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .expressions import cpp_string

cpp_str = cpp_string  # the one C++ string-literal escaper (JSON escapes are C++ escapes; see its doc)


def py_str(text: str) -> str:
    """A Python string literal for `text`."""
    return repr(str(text))


def py_value(value: Any) -> str:
    """A Python literal for a JSON-like value (spec data is always JSON-like)."""
    return repr(value)


def py_docstring(text: str, indent: str = "    ") -> str:
    """A docstring literal: triple-quoted when that is safe, a plain repr() otherwise."""
    text = str(text).strip()
    unsafe = '"""' in text or "\\" in text or text.endswith('"') or any(ord(c) < 32 and c != "\n" for c in text)
    if unsafe:
        return repr(text)
    body = text.replace("\n", "\n" + indent)
    return f'"""{body}"""' if "\n" not in text else f'"""{body}\n{indent}"""'


def cpp_comment(text: str, prefix: str = "// ") -> str:
    """A C++ line comment per line of `text` (no way to break out of it)."""
    return "\n".join(_comment_line(prefix, line) for line in _lines(text))


def py_comment(text: str, prefix: str = "# ") -> str:
    """A Python comment per line of `text`."""
    return "\n".join(_comment_line(prefix, line) for line in _lines(text))


def _lines(text: str) -> list[str]:
    # \r, \v, \f and NEL end a line for some compilers or editors: every one is a line break here.
    return str(text).replace("\r\n", "\n").translate(_BREAKS).split("\n")


_BREAKS = {ord(c): "\n" for c in "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}


def _comment_line(prefix: str, line: str) -> str:
    # Other control characters (NUL, escapes) make compilers warn and carry nothing in a comment.
    line = "".join(c if c == "\t" or unicodedata.category(c) not in ("Cc", "Cs") else "?" for c in line)
    line = f"{prefix}{line}".rstrip()
    # A trailing backslash (or its trigraph ??/) would continue a C++ line comment onto the next line.
    return line + "." if line.endswith(("\\", "??/")) else line


def md_cell(text: str) -> str:
    """Text safe inside one Markdown table cell: one line, every `|` escaped (GitHub's table scanner pairs each
    backslash with the character after it, so a pipe after an even run of backslashes gets one more)."""
    return re.sub(r"(?<!\\)((?:\\\\)*)\|", r"\1\\|", " ".join(str(text).split()))


def camel(name: str) -> str:
    """snake_case -> CamelCase (tvm enum members, class names)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def arg_value(value: Any) -> str:
    """A pass-constructor argument: a run-time value name ('$target' -> target) or a Python literal."""
    from .model import CONTEXT_VALUES

    if isinstance(value, str) and value in CONTEXT_VALUES:
        return CONTEXT_VALUES[value]
    return repr(value)


def cpp_arg_value(value: Any) -> str:
    """A C++ pass-constructor argument: a run-time value ('$target' -> the pass option) or a literal."""
    from .expressions import cpp_literal
    from .model import CONTEXT_VALUES

    if isinstance(value, str) and value in CONTEXT_VALUES:
        return f'tl::attr(options, "{CONTEXT_VALUES[value]}")'
    return cpp_literal(value)


# Spec value types -> C++ parameter types of the emulator's declarations (accessors are any address generator).
CPP_ARG_TYPES = {"int32": "int32_t", "uint32": "uint32_t", "uint64": "uint64_t", "bool": "bool", "float32": "float",
                 "accessor": "const Accessor&", "l1_ptr": "volatile uint32_t*"}


def cpp_arg_type(value_type: str) -> str:
    """The C++ parameter type of a spec argument type."""
    if value_type not in CPP_ARG_TYPES:
        raise ValueError(f"no C++ parameter type for spec type {value_type!r}")
    return CPP_ARG_TYPES[value_type]
