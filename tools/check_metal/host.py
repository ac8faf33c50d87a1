"""Host entry points: the wheel ships no host headers, so main.cpp cannot be compiled from it; instead every
tt-metal host function main.cpp calls must be exported by the wheel's libtt_metal.so (`nm -DC`)."""

from __future__ import annotations

import json
import re
import subprocess
from functools import cache
from pathlib import Path

# Function templates of the host headers, instantiated in the caller, so never exported: not checkable here.
HEADER_TEMPLATES = ("EnqueueWriteMeshBuffer", "EnqueueReadMeshBuffer")

_QUALIFIED = re.compile(r"\b((?:[A-Za-z_]\w*::)+[A-Za-z_]\w*)\s*(?:<[^<>();]*>)?\(")
_CAMEL = re.compile(r"(?<![\w:.>])([A-Z]\w*)\s*(?:<[^<>();]*>)?\(")
_ARROW = re.compile(r"->\s*([a-z_]\w*)\s*\(")


def entry_points(main_cpp: str) -> set[str]:
    """The tt-metal host functions a main.cpp calls (qualified, CamelCase free functions and constructors, and
    member functions called through a device, mesh or buffer pointer)."""
    text = re.sub(r"//[^\n]*", "", main_cpp)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    names = {n for n in _QUALIFIED.findall(text) if not n.startswith("std::")}
    names |= set(_CAMEL.findall(text)) | {f"->{n}" for n in _ARROW.findall(text)}
    return {n for n in names if n.rsplit("::", 1)[-1] not in HEADER_TEMPLATES}


@cache
def exported(library: Path) -> str:
    done = subprocess.run(["nm", "-DC", "--defined-only", str(library)], capture_output=True, text=True, check=True)
    return done.stdout


def missing(main_cpp: str, library: Path) -> list[str]:
    """The entry points of `main_cpp` that `library` does not export."""
    symbols = exported(library)
    absent = []
    for name in sorted(entry_points(main_cpp)):
        parts = name.lstrip("->").split("::")
        if parts[0] == "distributed":
            parts = parts[1:]
        last = parts[-1]
        wanted = ["::".join(parts[-2:]) + "("] if len(parts) > 1 else [f"::{last}(", f"{last}::{last}("]
        if not any(w in symbols for w in wanted):
            absent.append(name)
    return absent


def same_host_program(corpora: dict[str, Path], host_apis: dict[str, str]) -> list[str]:
    """Profiles with the same host API must emit the same main.cpp for every program of the corpus (up to the
    profile's own name): tests/tenstorrent/test_tt_corpus_compiles.py checks main.cpp's syntax under the spec's profile
    only and relies on it for the others. The programs whose main.cpp differs, as '<profile> vs <profile>:
    <program>'. A program that leaves a tensor in L1 (a plan tensor with `l1_shard`) is written only where the profile
    has sharded L1 buffers (`sharded_l1_buffers`; tests/tt_l1_kernels.py compiles it with C in DRAM elsewhere): its
    main.cpp differs by design and is not compared."""
    from tilelang.tenstorrent.program_dirs import program_folders

    differ = []
    names = sorted(corpora)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if host_apis[first] != host_apis[second]:
                continue
            for program in sorted(p for k in corpora[first].iterdir() for p in program_folders(k)
                                  if (p / "main.cpp").exists()):
                where = program.relative_to(corpora[first])  # <kernel>.<variant>[/program<i>]
                if any(_in_l1(folder / where) for folder in (corpora[first], corpora[second])):
                    continue
                other = corpora[second] / where / "main.cpp"
                one = (program / "main.cpp").read_text().replace(first, "<profile>")
                if not other.exists() or other.read_text().replace(second, "<profile>") != one:
                    differ.append(f"{first} vs {second}: {where}")
    return differ


def _in_l1(program: Path) -> bool:
    """Whether the saved program's plan leaves a tensor in L1 (tl.tt.memory_config l1_sharded)."""
    plan = program / "tt.plan.json"
    return plan.exists() and any("l1_shard" in t for t in json.loads(plan.read_text()).get("tensors", ()))
