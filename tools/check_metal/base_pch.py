"""One precompiled header per core and device (the base PCH): the headers of the wrapper's leading includes that
do not depend on what differs between the kernels of one core, i.e. everything the preprocessor enters before the
first file that does. Such a file (tainted) is one of the JIT's generated files with content (the descriptors
chlkc_*.h: their per-CB formats and tile sizes) or a header that reads the -D KERNEL_COMPILE_TIME_ARGS
(api/compile_time_args.h). tools/check_metal/pch.py's per-group PCH holds both and so needs a group per distinct
compile-time arguments and descriptors; the base PCH serves every unit of the core.

The base is read off the include tree of one unit's leading includes (clang -E line markers): the complete
subtrees that the preprocessor enters before the first tainted file, in that order, each written as an include
that the search path resolves to the very file. It stands for the unit's own text only if nothing the hoisted
headers see comes from the text of the tainted headers around them (a #define before their #include there, say);
that is checked, not assumed: the preprocessed output (tokens, files entered and whether each is a system header)
of the unit that includes the base header first (what its PCH stands for) must equal that of the unit alone, for
two units of the core. Where it does not,
or the base PCH fails to build, the units fall back to pch.py's groups (check.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import jit, pch

_MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"((?: \d)*)$')
EMPTY = "#pragma once\n"  # the JIT's generated headers with no content (jit.write_shared_files)


@dataclass
class Node:
    path: str
    system: bool
    children: list[Node] = field(default_factory=list)


def include_tree(preprocessed: str, root: str) -> Node:
    """The files entered while preprocessing `root`, as a tree (clang -E line markers: flag 1 enters a file,
    2 returns to one, 3 marks a system header)."""
    top = Node(root, False)
    stack = [top]
    for line in preprocessed.splitlines():
        marker = _MARKER.match(line)
        if marker is None:
            continue
        path, flags = marker.group(2), marker.group(3).split()
        if "1" in flags:
            node = Node(path, "3" in flags)
            stack[-1].children.append(node)
            stack.append(node)
        elif "2" in flags and len(stack) > 1:
            stack.pop()
    return top


def taints(path: str, generated: Path, ct_fixed: bool = False) -> bool:
    """A file whose text differs between the kernels of one core, or that reads their compile-time arguments
    (unless `ct_fixed`: the units share them)."""
    file = Path(path)
    if not file.is_file():
        return False  # <built-in>, <command line>
    text = file.read_text(errors="replace")
    return (file.parent == generated and text != EMPTY) or (not ct_fixed and "KERNEL_COMPILE_TIME_ARGS" in text)


def hoisted(root: Node, generated: Path, ct_fixed: bool = False) -> list[Node]:
    """The complete untainted subtrees entered before the first tainted file, in the order they are entered."""
    memo: dict[int, bool] = {}

    def tainted(node: Node) -> bool:
        if id(node) not in memo:
            memo[id(node)] = taints(node.path, generated, ct_fixed) or any(tainted(c) for c in node.children)
        return memo[id(node)]

    kept, node = [], root
    while True:
        for child in node.children:
            if not Path(child.path).is_file():
                continue  # <built-in>, <command line>: the predefines, the same for every unit of the core
            if tainted(child):
                if taints(child.path, generated, ct_fixed):
                    return kept
                node = child
                break
            kept.append(child)
        else:
            return kept


def search_dirs(command: list[str]) -> list[Path]:
    """The include folders of a front-end command, in the order it names them."""
    dirs = []
    for i, arg in enumerate(command):
        for flag in ("-internal-isystem", "-internal-externc-isystem", "-isystem", "-I"):
            if arg == flag and i + 1 < len(command):
                dirs.append(Path(command[i + 1]))
            elif arg.startswith(flag) and len(arg) > len(flag) and flag in ("-isystem", "-I"):
                dirs.append(Path(arg[len(flag):]))
    return dirs


def spelling(path: str, dirs: list[Path]) -> str | None:
    """An angled include of `path` that the first folder holding its name resolves to `path` itself."""
    target = Path(path).resolve()
    for base in sorted(dirs, key=lambda d: -len(str(d))):  # the most specific folder first
        try:
            rel = target.relative_to(base.resolve())
        except ValueError:
            continue
        first = next((d / rel for d in dirs if (d / rel).is_file()), None)
        if first is not None and first.resolve() == target:
            return f"#include <{rel.as_posix()}>"
    return None


def base_header(prefix_output: str, prefix_file: Path, generated: Path, command: list[str],
                ct_fixed: bool = False) -> str | None:
    """The text of the base header, from the -E output of the unit's prefix header; None when it would hold
    nothing or a hoisted file has no spelling that resolves to it."""
    nodes = hoisted(include_tree(prefix_output, str(prefix_file)), generated, ct_fixed)
    lines = [spelling(n.path, search_dirs(command)) for n in nodes]
    if not lines or None in lines:
        return None
    return "\n".join(str(line) for line in lines) + "\n"


def tokens(preprocessed: str) -> tuple[list[str], dict[str, bool]]:
    """The text of -E output without its line markers and blank lines, and the files it enters (system or not)."""
    text, files = [], {}
    for line in preprocessed.splitlines():
        marker = _MARKER.match(line)
        if marker is not None:
            if "1" in marker.group(3).split():
                files[marker.group(2)] = "3" in marker.group(3).split()
        elif line.strip():
            text.append(line.strip())
    return text, files


def same_as_alone(alone: str, included: str, header: Path) -> bool:
    """-E of a unit alone equals -E of the unit that first includes the base header (which is what its PCH
    stands for): the same text, and every file entered is a system header in both or in neither."""
    text, files = tokens(alone)
    with_text, with_files = tokens(included)
    return text == with_text and all(files.get(f) == system for f, system in with_files.items()
                                     if Path(f).is_file() and Path(f) != header)


def preprocess(command: list[str]) -> tuple[bool, str]:
    """Run a front-end command (-fsyntax-only) as -E to stdout: (ran, output)."""
    import subprocess

    args = [a for a in command if a != "-fsyntax-only"]
    done = subprocess.run([*args[:-1], "-E", "-o", "-", args[-1]], capture_output=True, text=True)
    return done.returncode == 0, done.stdout


def without_ct_args(command: list[str]) -> list[str]:
    """The command without its -D KERNEL_COMPILE_TIME_ARGS (the base is built without it; each unit adds its own:
    a macro the PCH never saw may be defined on the command line that uses it)."""
    return [a for a in command if not a.startswith("-DKERNEL_COMPILE_TIME_ARGS=")]


def header_command(command: list[str], header: Path) -> list[str]:
    """A unit's front-end command that preprocesses or checks `header` as a C++ header instead of its wrapper."""
    args = list(command[:-1])
    language = len(args) - 1 - args[::-1].index("-x")
    args[language + 1] = "c++-header"
    return [*args, str(header)]


def build(commands: list[list[str]], generated: Path, folder: Path, max_share: float = 1.0,
          ct_fixed: bool = False) -> Path | None:
    """The base PCH of the units whose syntax-check commands are `commands` (two or more, one core and device,
    each unit's build folder written; `generated`: the first one's, which the PCH reads): built from the first,
    checked against the first two; None when there is no base, when the share of the first unit's preprocessed
    lines it leaves to each unit exceeds `max_share` (not worth it: the caller's groups cost less), or when the
    check fails. `ct_fixed`: the units share their compile-time arguments, so the base may hold what reads them
    (built with their -D, which each unit's command repeats)."""
    first = commands[0]
    plain = first if ct_fixed else without_ct_args(first)
    header = pch.prefix(Path(first[-1]))
    if header is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "prefix.h").write_text(header)
    ok, output = preprocess(header_command(plain, folder / "prefix.h"))
    text = base_header(output, folder / "prefix.h", generated, first, ct_fixed) if ok else None
    if text is None:
        return None
    (folder / "base.h").write_text(text)
    ok_base, base = preprocess(header_command(plain, folder / "base.h"))
    ok_alone, alone = preprocess(first)
    if not (ok_base and ok_alone) or 1 - len(tokens(base)[0]) / max(1, len(tokens(alone)[0])) > max_share:
        return None
    built, _ = jit.run(pch.build_command(plain, folder / "base.h", folder / "base.pch"))
    if not built:
        return None
    for command in commands[:2]:
        ok_alone, alone = preprocess(command)
        ok_with, included = preprocess([*command[:-1], "-include", str(folder / "base.h"), command[-1]])
        if not (ok_alone and ok_with and same_as_alone(alone, included, folder / "base.h")):
            return None
    return folder / "base.pch"
