"""A precompiled header for the emulator's host programs.

Most of a host program's build is parsing the headers every generated main.cpp includes first (the standard
library and the host API, tt-metalium/*.hpp): about half of its compile time. The block of `#include <...>` lines a
main.cpp starts with is precompiled once per set of lines, compiler, flags and host API headers (at the third build
that starts with them: BUILDS_BEFORE_PCH), into a cache entry of its own (`pch/<key>/` under
`emulator.cache_dir()`, pruned by tilelang.tenstorrent.cache like a host program), and given to g++ with
`-include`. The program is the same either way: the forced include holds exactly the lines main.cpp starts with, so
main.cpp's own includes of them are no-ops, and g++ reads the header's text when it cannot use the PCH. A PCH that
cannot be built leaves the build as it was (main.cpp's compile then reports the error).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import cache

HEADER = "host_headers.hpp"
FAILED = "failed.log"  # beside the header when its PCH could not be built: not tried again for this key
USES = "uses"  # one byte per build that asked for the entry
# A block of includes is precompiled at the third build that asks for it: the PCH costs about three builds' worth of
# parsing (~5.5 CPU-s against ~1.6 s saved a build), so a block only one or two programs start with (a hand-written
# host program) is not worth it, while every generated main.cpp of a profile starts with the same block.
BUILDS_BEFORE_PCH = 2
_SYSTEM_INCLUDE = re.compile(r"#\s*include\s*<[^>]+>\s*")


@dataclass(frozen=True)
class Header:
    entry: Path  # the cache entry: pch/<key>/
    lines: tuple[str, ...]  # the leading #include <...> lines of the source
    command: tuple[str, ...]  # the compiler and its flags, as for the source (no source, no output)


def leading_includes(source: str) -> tuple[str, ...]:
    """The `#include <...>` lines a source starts with (blank and `//` comment lines between them skipped), up to
    its first other line."""
    lines: list[str] = []
    for line in source.splitlines():
        text = line.strip()
        if not text or text.startswith("//"):
            continue
        if not _SYSTEM_INCLUDE.fullmatch(text):
            break
        lines.append(text)
    return tuple(lines)


def header_for(source: Path, command: list[str], key: str, folder: Path) -> Header | None:
    """The PCH entry under `folder` for `source` built with `command` (compiler and flags; `key` digests them with
    the headers they read), or None when the source starts with no system include."""
    lines = leading_includes(source.read_text("utf-8", errors="replace"))
    if not lines:
        return None
    return Header(folder / hashlib.sha256("\0".join((key, *lines)).encode()).hexdigest()[:24], lines, tuple(command))


def _build(header: Header) -> bool:
    """Write the header and its PCH into the entry (the caller holds it); False when g++ cannot precompile it."""
    path = header.entry / HEADER
    if (header.entry / FAILED).exists():
        return False
    if (header.entry / f"{HEADER}.gch").exists():
        return True
    with open(header.entry / USES, "ab") as uses:
        builds = uses.tell()
        uses.write(b".")
    if builds < BUILDS_BEFORE_PCH:
        return False
    path.write_text("\n".join(header.lines) + "\n", "utf-8")
    tmp = header.entry / f"{HEADER}.gch.tmp{os.getpid()}"
    done = subprocess.run([*header.command, "-x", "c++-header", str(path), "-o", str(tmp)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        (header.entry / FAILED).write_text(done.stdout + done.stderr, "utf-8")
        return False
    os.replace(tmp, header.entry / f"{HEADER}.gch")
    return True


@contextlib.contextmanager
def flags(header: Header | None) -> Iterator[list[str]]:
    """`-include <header>` for a build of the source, the PCH built first if missing and held against pruning
    until the block ends; [] when there is none."""
    if header is None:
        yield []
        return
    with cache.in_use(header.entry):
        with cache.building(header.entry):  # one builder per key, across threads and processes
            usable = _build(header)
        cache.touch(header.entry)
        yield ["-include", str(header.entry / HEADER)] if usable else []
