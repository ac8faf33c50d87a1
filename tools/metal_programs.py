"""Build and run tt-metal's programming examples against the emulator's CMake package, and print a table.

    python tools/metal_programs.py DIR [--only NAME ...] [--profile P ...] [--timeout S] [--jobs N] [--build-dir B]
                                   [--markdown]

DIR is a tt-metal source folder (or its `tt_metal/programming_examples/`). Every folder below it whose
CMakeLists.txt links `TT::Metalium` is one example: it is configured and built unmodified with
`-DCMAKE_PREFIX_PATH=$(python -m tilelang.tenstorrent.emulator --cmake-prefix)`, and each executable it builds is
run from the programming-examples folder with TT_METAL_HOME set to the tt-metal root (kernel paths resolve as
tt-metal resolves them: the examples name them relative to either, by OVERRIDE_KERNEL_PREFIX). An example passes
when it exits with 0 and prints none of the failure words of its own checks ("fail", "mismatch", "does not
match", ...). Each executable runs under the kernel API profile of the backend spec's default (the ttnn release
the emulator's kernel headers follow); an example written for an older tt-metal, whose kernels call what that
release removed, fails to compile there (the JIT names the call) and is run under the next profile (--profile
names them, in order): the table says which profile it ran under and what the ones before it reported. Examples
that need what the emulator does not model are listed as skipped, with the reason: kernels
written in SFPI (`sfpi.h`, `vFloat`, `dst_reg`) and programs for several devices. Nothing of tt-metal is kept here:
the table is printed, and the builds go to a temporary folder (or --build-dir).

Exit status: 0 when every example that was not skipped passed, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "python") not in sys.path:  # run as a script from a checkout
    sys.path[:0] = [str(ROOT / "python"), str(ROOT)]

EXAMPLES = Path("tt_metal") / "programming_examples"
FAILURE = re.compile(r"\b(fail(s|ed|ure)?|mismatch(es)?|does not match|incorrect|wrong result)\b", re.IGNORECASE)
# A count of none is no failure ("Number of mismatches: 0 / 640", "0 mismatches").
NO_FAILURE = re.compile(r"\b(0|no)\s+mismatch|\bmismatch(es)?\s*[:=]\s*0\b", re.IGNORECASE)
# What the emulator does not model, found in an example's sources (the reason printed for a skip).
# (`dst_reg` alone is also a common variable name in compute kernels: SFPI indexes it, `dst_reg[0]`.)
SFPI = re.compile(r'#include\s*[<"]sfpi\.h[">]|\bvFloat\b|\bdst_reg\s*\[|\bv_if\s*\(')
MULTI_DEVICE = re.compile(
    r"\bcreate_unit_meshes\b|MeshShape\s*\{?\s*\(?\s*[2-9]|\bfabric\b|\bMPI_|\bdistributed_context\b")


@dataclass
class Result:
    name: str
    status: str = "FAIL"  # PASS, FAIL or SKIP
    stage: str = ""  # where it stopped: configure, build, run, check
    reason: str = ""
    seconds: float = 0.0
    executables: list[str] = field(default_factory=list)
    profile: str = ""  # the kernel API profile it ran under


def examples_root(folder: Path) -> tuple[Path, Path]:
    """(the programming-examples folder, the tt-metal root that TT_METAL_HOME names)."""
    folder = folder.resolve()
    if (folder / EXAMPLES).is_dir():
        return folder / EXAMPLES, folder
    if folder.name == EXAMPLES.name and folder.parent.name == EXAMPLES.parent.name:
        return folder, folder.parents[1]
    return folder, folder


def find_examples(examples: Path) -> list[Path]:
    """Folders whose CMakeLists.txt links TT::Metalium and adds an executable (one CMake project each)."""
    found = []
    for cmake in sorted(examples.rglob("CMakeLists.txt")):
        text = cmake.read_text(errors="replace")
        if "TT::Metalium" in text and "add_executable" in text:
            found.append(cmake.parent)
    return found


def _sources(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in sorted(folder.rglob("*"))
                     if p.suffix in (".cpp", ".hpp", ".h", ".cc") and p.is_file())


def skip_reason(folder: Path, examples: Path) -> str:
    text = _sources(folder)
    if SFPI.search(text):
        return ("SFPI kernel (sfpi.h / vFloat / dst_reg[] / v_if): the emulator does not model the SFPU's vector "
                "programming")
    rel = folder.relative_to(examples).parts
    if (rel and rel[0] == "distributed" and "1x1" not in folder.name) or MULTI_DEVICE.search(text):
        return "several devices (a mesh, fabric or MPI): the emulator has one device"
    return ""


# A kernel API era no profile follows (the reason printed before the compilers' errors): the stream print, which
# ttnn 0.77.0 removed (its api/debug/dprint.h static_asserts), with the api/ include paths, which ttnn 0.65.0 lacks.
STREAM_PRINT = re.compile(r"^(?!\s*//).*\bDPRINT\s*<<", re.MULTILINE)
API_INCLUDE = re.compile(r'^\s*#include\s*[<"]api/', re.MULTILINE)


def era_reason(folder: Path) -> str:
    """Why no profile compiles an example's kernels, where its sources show an API era that no profile follows."""
    text = _sources(folder)
    if STREAM_PRINT.search(text) and API_INCLUDE.search(text):
        return ("no API profile follows its kernels' tt-metal: they print with the stream `DPRINT << ...`, removed in "
                "ttnn 0.77.0 (its and 0.81.1's api/debug/dprint.h static_assert), and include `api/...` paths, "
                "which ttnn 0.65.0 lacks (tt-metal between the two; the example's version of that release is "
                "needed): ")
    return ""


KERNEL_COMPILE = "kernel compilation failed"  # what the emulator's JIT says when a kernel does not compile
COMPILER_ERROR = re.compile(r"[^\s:]+\.(cpp|cc|h|hpp):\d+:\d+: (fatal )?error: .*")


def _last_lines(text: str, count: int = 1) -> str:
    """The first error (the compiler's own, file:line:col: error: ..., when there is one), else the last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    picked = errors[:count] if errors else lines[-count:]
    compiler = next((m.group(0) for line in lines if (m := COMPILER_ERROR.search(line))), None)
    if compiler and compiler not in picked:
        picked.append(Path(compiler.split(":", 1)[0]).name + ":" + compiler.split(":", 1)[1])
    return " / ".join(picked)[:400]


def _executables(build: Path) -> list[Path]:
    found = []
    for path in sorted(build.rglob("*")):
        if "CMakeFiles" in path.parts or not path.is_file() or path.suffix in (".so", ".a", ".o"):
            continue
        if os.access(path, os.X_OK) and path.read_bytes()[:4] == b"\x7fELF":
            found.append(path)
    return found


PROJECT = re.compile(r"^\s*project\s*\(", re.MULTILINE | re.IGNORECASE)
SUBDIRECTORY = re.compile(r"^\s*add_subdirectory\s*\(\s*([^\s)]+)", re.MULTILINE | re.IGNORECASE)


def shared_siblings(folder: Path) -> list[Path]:
    """The folders that the parent's CMakeLists.txt adds before the example and that build no executable: the
    libraries its examples share (matmul/'s `matmul_common`, target Matmul::Common), added first as tt-metal's tree
    adds them."""
    parent = folder.parent / "CMakeLists.txt"
    if not parent.is_file():
        return []
    found = []
    for name in SUBDIRECTORY.findall(parent.read_text(errors="replace")):
        sibling = (folder.parent / name.strip('"')).resolve()
        if sibling == folder.resolve():
            break
        cmake = sibling / "CMakeLists.txt"
        if cmake.is_file() and "add_executable" not in cmake.read_text(errors="replace"):
            found.append(sibling)
    return found


def _project_source(folder: Path, build: Path) -> Path:
    """The folder CMake configures: the example's own, or, where its CMakeLists.txt is a subdirectory of tt-metal's
    build (no project(): tt-metal's tree adds it with add_subdirectory, as reduce_max/, softmax/ and matmul/'s
    examples are), a top-level project beside the build that adds it the same way, after the shared libraries its
    parent adds before it."""
    if PROJECT.search((folder / "CMakeLists.txt").read_text(errors="replace")):
        return folder
    top = build.parent / (build.name + ".project")
    top.mkdir(parents=True, exist_ok=True)
    shared = "".join(f'add_subdirectory("{s.as_posix()}" shared_{i})\n' for i, s in enumerate(shared_siblings(folder)))
    (top / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.22...4.2)\n"
        f"project({build.name} CXX)\n"
        f'{shared}add_subdirectory("{folder.as_posix()}" example)\n')
    return top


def _run_executable(exe: Path, examples: Path, env: dict[str, str], timeout: float, profiles: list[str],
                    result: Result) -> bool:
    """Run one executable under the first kernel API profile whose headers compile its kernels (a kernel
    written for an older tt-metal calls what the default profile's release removed: the emulator's JIT names
    the call and the next profile is tried). False, with the result's stage and reason, when it failed."""
    tried = []
    for profile in profiles:
        result.stage, result.profile = "run", profile
        try:
            done = subprocess.run([str(exe)], capture_output=True, text=True, cwd=examples,
                                  env={**env, "TT_EMU_PROFILE": profile}, timeout=timeout)
        except subprocess.TimeoutExpired:
            result.reason = f"{exe.name}: still running after {timeout:g} s"
            return False
        output = done.stdout + done.stderr
        if done.returncode != 0 and KERNEL_COMPILE in output and profile != profiles[-1]:
            tried.append(f"{profile}: {_last_lines(output)}")
            continue
        before = f" (after {'; '.join(tried)})" if tried else ""
        if done.returncode != 0:
            result.reason = f"{exe.name}: exit code {done.returncode}: {_last_lines(output)}{before}"[:900]
            return False
        result.stage = "check"
        line = next((ln for ln in output.splitlines() if FAILURE.search(ln) and not NO_FAILURE.search(ln)), None)
        if line is not None:
            result.reason = f"{exe.name}: its check printed: {line.strip()[:200]}{before}"[:900]
            return False
        if tried:
            result.reason = f"under {profile}{before}"[:900]
        return True
    return False


def run_example(folder: Path, examples: Path, home: Path, prefix: Path, build_root: Path, timeout: float,
                env: dict[str, str], profiles: list[str]) -> Result:
    name = folder.relative_to(examples).as_posix()
    result = Result(name)
    start = time.monotonic()
    try:
        reason = skip_reason(folder, examples)
        if reason:
            result.status, result.reason = "SKIP", reason
            return result
        build = build_root / name.replace("/", "__")
        shutil.rmtree(build, ignore_errors=True)
        result.stage = "configure"
        # Release, as tt-metal's build_metal.sh builds its examples by default: the hosts' golden loops (the mcast
        # matmul's 3584 x 3072 x 768) take minutes unoptimised.
        done = subprocess.run(["cmake", "-S", str(_project_source(folder, build)), "-B", str(build),
                               f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"],
                              capture_output=True, text=True, env=env)
        if done.returncode != 0:
            result.reason = _last_lines(done.stdout + done.stderr)
            return result
        result.stage = "build"
        done = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            result.reason = _last_lines(done.stdout + done.stderr)
            return result
        exes = _executables(build)
        if not exes:
            result.reason = "the build made no executable"
            return result
        for exe in exes:
            result.executables.append(exe.name)
            if not _run_executable(exe, examples, env, timeout, profiles, result):
                if KERNEL_COMPILE in result.reason:
                    result.reason = (era_reason(folder) + result.reason)[:900]
                return result
        result.status, result.stage = "PASS", ""
        return result
    finally:
        result.seconds = time.monotonic() - start


def table(results: list[Result], markdown: bool) -> str:
    rows = [(r.name, r.status if r.status != "FAIL" else f"FAIL ({r.stage})", r.profile or "-", f"{r.seconds:.1f}",
             r.reason) for r in results]
    head = ("example", "result", "profile", "s", "reason")
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    else:
        widths = [max(len(head[i]), *(len(row[i]) for row in rows)) if rows else len(head[i]) for i in range(4)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(head[:4], widths, strict=True)) + "  " + head[4]]
        lines += ["  ".join(c.ljust(w) for c, w in zip(row[:4], widths, strict=True)) + "  " + row[4] for row in rows]
    passed = sum(r.status == "PASS" for r in results)
    skipped = sum(r.status == "SKIP" for r in results)
    lines.append(f"\n{passed} passed, {len(results) - passed - skipped} failed, {skipped} skipped, "
                 f"of {len(results)} examples")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/metal_programs.py", description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=Path, help="a tt-metal source folder or its tt_metal/programming_examples")
    parser.add_argument("--only", nargs="*", default=None, help="run only these examples (names as in the table)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds each executable may run (300)")
    parser.add_argument("--jobs", type=int, default=1, help="examples built and run at once (1)")
    parser.add_argument("--build-dir", type=Path, default=None,
                        help="keep the builds here (default: a temporary folder)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--profile", nargs="*", default=None, metavar="PROFILE",
                        help="kernel API profiles to try, in order, until one compiles an example's kernels "
                             "(default: the backend spec's default profile, then the others)")
    args = parser.parse_args(argv)
    if not args.dir.is_dir():
        parser.error(f"{args.dir} is not a folder (give a tt-metal source folder; see docs/emulator.md)")
    examples, home = examples_root(args.dir)
    found = find_examples(examples)
    if args.only:
        unknown = set(args.only) - {f.relative_to(examples).as_posix() for f in found}
        if unknown:
            parser.error(f"no example named {', '.join(sorted(unknown))} under {examples}")
        found = [f for f in found if f.relative_to(examples).as_posix() in args.only]
    if not found:
        parser.error(f"no example under {examples}: no CMakeLists.txt there links TT::Metalium")

    from tilelang.cpp import CppLibraryError
    from tilelang.tenstorrent import emulator, intrinsics

    profiles = args.profile or [emulator.DEFAULT_PROFILE] + [p for p in intrinsics.PROFILES
                                                           if p != emulator.DEFAULT_PROFILE]
    unknown_profiles = [p for p in profiles if p not in intrinsics.PROFILES]
    if unknown_profiles:
        parser.error(f"no API profile named {', '.join(unknown_profiles)} (the backend spec has "
                     f"{', '.join(intrinsics.PROFILES)})")

    try:
        prefix = emulator.cmake_prefix()
    except (CppLibraryError, emulator.TTEmulatorError) as exc:
        print(f"metal_programs: error: {exc}", file=sys.stderr)
        return 2
    env = {k: v for k, v in os.environ.items() if not k.startswith("TT_EMU_INCLUDE")}
    env["TT_METAL_HOME"] = str(home)
    with tempfile.TemporaryDirectory(prefix="metal_programs.") as tmp:
        build_root = args.build_dir.resolve() if args.build_dir else Path(tmp)
        build_root.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda f: run_example(f, examples, home, prefix, build_root, args.timeout, env,
                                                      profiles),
                                    found))
    print(table(results, args.markdown))
    return 0 if all(r.status != "FAIL" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
