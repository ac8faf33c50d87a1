"""The text a host program is built from: its source with the comments blanked (issue 35).

A generated main.cpp's comments name the kernel, its tensors and its CBs' buffers ("// Host program for TileLang
kernel 'gemm_schedule'", "// A_shared: reader -> compute"), so kernels whose host code is the same rendered
main.cpps that differed only there, and the emulator's cache, keyed by the text, built one program for each. The
cache key and the build use `canonical(text)` instead: every comment replaced by one space (a block comment's
newlines kept, so every line keeps its number), trailing blanks dropped, and the build reads it behind a `#line 1
"<source>"` directive, so that diagnostics name the source's own file and lines. The program is the one the source
builds: only comments differ. Where the text holds something this scan does not model (a raw string literal, a
comment continued by a backslash, a literal cut by a newline), it is used as it is.
"""

from __future__ import annotations

_PREFIXES = ("u8", "u", "U", "L")  # the encoding prefixes of a character literal


def _char_literal_starts(text: str, at: int) -> bool:
    """Whether the quote at `at` opens a character literal, rather than separating the digits of a number (1'000)."""
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    word = text[start:at]
    return not word or word in _PREFIXES


def canonical(text: str) -> str | None:
    """`text` with its comments blanked and its lines' trailing blanks dropped, or None where it holds what the
    scan does not model (then the text is built as it is)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        two = text[i:i + 2]
        if two == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end
            if text[i:end].rstrip().endswith("\\"):
                return None  # a line comment continued onto the next line
            out.append(" ")
            i = end
        elif two == "/*":
            end = text.find("*/", i + 2)
            if end < 0:
                return None
            out.append(" " + "\n" * text.count("\n", i, end))
            i = end + 2
        elif c == '"' or (c == "'" and _char_literal_starts(text, i)):
            if c == '"' and i > 0 and text[i - 1] == "R":
                return None  # a raw string literal
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\n":
                    return None
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                return None
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "\n".join(line.rstrip() for line in "".join(out).split("\n"))


def build_text(source: str, path: str) -> str:
    """What the compiler reads for the source at `path`: its canonical text behind a `#line` naming `path`, or the
    source itself where it has none."""
    text = canonical(source)
    if text is None:
        return source
    quoted = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line 1 "{quoted}"\n{text}'
