"""The fallback of tools/check_metal/base_pch.py (the base PCH of a core, which every unit of the core shares),
for the units of a core whose base fails its check: a precompiled header per group of compilations that see the
same headers: the same core (its wrapper and
defines), the same compile-time arguments (api/compile_time_args.h expands KERNEL_COMPILE_TIME_ARGS into a
namespace-scope array) and the same JIT-generated descriptors (api/dataflow/dataflow_api.h includes
chlkc_descriptors.h through `__has_include`). The header is the wrapper's own leading #include lines, up to the
generated file that brings in the kernel (kernel_includes.hpp, chlkc_list.h); clang's -include-pch then stands
for exactly those lines, which the wrapper's include guards and #pragma once skip when it reaches them.

The generated files every unit of a group shares (descriptors, the empty *_generated.h) are written once into the
group's folder, which both the PCH and its units find by -I after the unit's own folder: clang's #pragma once is
per file, so the descriptors chlkc_list.h includes again must be the very file the PCH holds. A unit whose kernel
config has defines (defines_generated.h precedes the wrapper's includes in trisck.cc) is compiled without a PCH,
as is a group of one (building the PCH costs more than the compile it saves). A PCH that fails to build (an error
in the shared headers for this group's arguments) leaves its units to compile without it, reporting the error."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import jit

# The generated files that carry the kernel itself (or its defines): never part of a shared header.
KERNEL_FILES = ("kernel_includes.hpp", "chlkc_list.h", "defines_generated.h")
_DIRECTIVE = re.compile(r"\s*#\s*(\w+)")


def key(role: str, core: jit.Core, ct_args: list[int], plan: dict[str, Any], target: jit.Target) -> tuple | None:
    """What a unit's shared headers depend on (the device's among them); None when its kernel defines rule a shared
    header out."""
    if plan["kernels"][role].get("defines"):
        return None
    return (core.name, tuple(ct_args), jit.descriptors(plan), target)


def prefix(wrapper: Path) -> str | None:
    """The wrapper's leading preprocessor lines before the first include of a kernel-carrying generated file
    (defines_generated.h left out: an empty file for the units that use a PCH); None when they do not close
    every #if they open, when code comes first, or when a quoted include would find a file next to the wrapper
    (the PCH's header lives elsewhere and would find another)."""
    kept, depth = [], 0
    for line in wrapper.read_text().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("//"):
            continue
        directive = _DIRECTIVE.match(line)
        if directive is None:
            break
        if directive.group(1) == "include" and any(name in line for name in KERNEL_FILES):
            if "defines_generated.h" in line:
                continue
            break
        quoted = re.search(r'#\s*include\s*"([^"]+)"', line)
        if quoted and (wrapper.parent / quoted.group(1)).exists():
            return None
        depth += {"if": 1, "ifdef": 1, "ifndef": 1, "endif": -1}.get(directive.group(1), 0)
        kept.append(line)
    return "\n".join(kept) + "\n" if kept and depth == 0 else None


def build_command(unit_command: list[str], header: Path, out: Path) -> list[str]:
    """The command that precompiles `header` with exactly the flags, defines and include paths of a unit's
    syntax check (`unit_command`, whose last argument is the wrapper)."""
    args = list(unit_command[:-1])
    args[args.index("-fsyntax-only")] = "-emit-pch"
    language = len(args) - 1 - args[::-1].index("-x")
    args[language + 1] = "c++-header"
    return [*args, "-o", str(out), str(header)]


def use_command(unit_command: list[str], pch: Path) -> list[str]:
    """A unit's syntax check with the group's PCH standing for the wrapper's leading includes."""
    return [*unit_command[:-1], "-include-pch", str(pch), unit_command[-1]]
