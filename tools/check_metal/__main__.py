"""make check-metal: compile every kernel of the project's kernel corpus, for every API profile, the way
tt-metal's JIT does, against the real device headers of the profile's ttnn wheel; check main.cpp's host calls
against the wheel's libtt_metal.so and run_ttnn.py's ttnn names against its Python binding. Exit 1 on any error, 2
when a wheel cannot be downloaded.

    python -m tools.check_metal [--profiles ttnn_0_81,...] [--devices n150,p150] [--jobs 2] [--table table.md]

The corpus is lowered and compiled per (profile, device): the default device (n150) under every chosen profile,
one device of each other architecture (p150: Blackhole's headers, ARCH_BLACKHOLE, its bank counts) under the spec's
profile only and its `default` pass-option variant (CI time; `--devices p150,p100 --profiles ... --device-variants
all` checks more), where the profile's wheel ships the device's architecture headers.

$TT_METAL_SFPI_INCLUDE: a folder with the SFPI headers (sfpi.h, lltt.h; no package registry has them); without
it TRISC0 (unpack) and TRISC1 (math) are reported as skipped. $TILELANG_CHECK_METAL_OFFLINE_OK=1: a wheel that
cannot be downloaded skips the check (exit 0) instead of failing it. $TILELANG_TTNN_CACHE: the wheel cache.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from . import check, host, jit, ttnn_names, wheels
from .corpus import REPO


def profiles() -> dict:
    sys.path.insert(0, str(REPO / "python"))
    sys.path.insert(0, str(REPO / "generated"))
    from tilelang.tenstorrent.intrinsics import PROFILES

    return PROFILES


def checks(chosen: list[str], devices: str | None) -> list[tuple[str, str]]:
    """The (profile, device) pairs to check: the named devices under every chosen profile, or by default the
    default device under every chosen profile and, under the spec's profile (when chosen), the first device (in spec
    order) of each other architecture: the headers are per architecture, so a harvested variant (p100) differs only
    in its bank counts and is checked with --devices."""
    from tilelang.tenstorrent import device

    if devices:
        return [(p, d) for p in chosen for d in devices.split(",")]
    others: dict[str, str] = {}
    for name, record in device.DEVICES.items():
        if record.arch != device.ARCH:
            others.setdefault(record.arch, name)
    return [(p, device.DEVICE) for p in chosen] + [
        (device.PROFILE, d) for d in others.values() if device.PROFILE in chosen]


def label(profile: str, name: str) -> str:
    """A check's name and scratch folder: the profile, and the device unless it is the default one."""
    from tilelang.tenstorrent import device

    return profile if name == device.DEVICE else f"{profile}@{name}"


def device_arch(name: str) -> str:
    """The architecture of device `name`; a device the spec lacks is a usage error naming them."""
    from tilelang.tenstorrent import device

    if name not in device.DEVICES:
        raise SystemExit(f"check-metal: unknown device {name}; known: {', '.join(sorted(device.DEVICES))}")
    return device.DEVICES[name].arch


def start_lowering(profile: str, name: str, out: Path, variants: str) -> subprocess.Popen:
    """Lower the corpus of one profile for device `name` in a process of its own (the pass library reads the
    profile once per process); every lowering starts at once, so later ones lower while earlier ones compile.
    `variants`: the pass-option variants a device other than the default one is lowered under (`all`: every one)."""
    from tilelang.tenstorrent import device

    env = {**os.environ, "TILELANG_TT_API_PROFILE": profile,
           "PYTHONPATH": os.pathsep.join([str(REPO / "python"), str(REPO), os.environ.get("PYTHONPATH", "")])}
    if name != device.DEVICE and variants != "all":
        env["TILELANG_CHECK_METAL_VARIANTS"] = variants
    return subprocess.Popen([sys.executable, "-m", "tools.check_metal.corpus", str(out), name], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish_lowering(profile: str, lowering: subprocess.Popen) -> None:
    _, stderr = lowering.communicate()
    if lowering.returncode != 0:
        raise RuntimeError(f"lowering the corpus for profile {profile} failed:\n{stderr[-3000:]}")


def report(profile: str, version: str, units: list[check.Unit], table: list[str]) -> int:
    """Print one profile's kernel x core results; the number of errors."""
    rows: dict[tuple[str, str], dict[str, set[str]]] = {}
    for unit in units:
        for user in unit.users:
            kernel = user.split(".")[0]
            rows.setdefault((kernel, unit.role), {}).setdefault(unit.core.name, set()).add(unit.status)
    print(f"\n== {profile}: ttnn {version} ({len(units)} distinct compilations)")
    for (kernel, role), cores in sorted(rows.items()):
        cells = [f"{core} {'error' if 'error' in s else 'skipped' if 'skipped' in s else 'ok'}"
                 for core, s in sorted(cores.items())]
        print(f"  {kernel:46s} {role:8s} {'  '.join(cells)}")
        table.append(f"| {kernel} | {role} | {profile} ({version}) | {', '.join(cells)} |")
    errors = [u for u in units if u.status == "error"]
    for unit in errors:
        print(f"\nERROR {profile} {unit.role} {unit.core.name} ({', '.join(sorted(unit.users)[:3])}"
              f"{', ...' if len(unit.users) > 3 else ''}):\n{unit.detail}")
    reasons = sorted({u.detail for u in units if u.status == "skipped"})
    for reason in reasons:
        print(f"  skipped: {reason}")
    return len(errors)


def fetch(version: str, binding: bool) -> Path:
    """Download and unzip what a check of ttnn `version` reads (its headers, and with `binding` its Python
    binding); the headers' folder. Run for every version at the start, beside the lowerings, so that no check
    waits for a download after the first (the downloads are network time: about 90 s for the three wheels and
    ziglang)."""
    headers = wheels.ttnn_headers(version)
    if binding:
        wheels.ttnn_binding(version)
    return headers


def check_profile(name: str, version: str, exact: bool, sfpi: Path | None, jobs: int, scratch: Path,
                  table: list[str], lowering: subprocess.Popen, arch: str, fetched: Future[Path]) -> int:
    """One check (`name`: label()): the corpus's kernels, main.cpp's host calls, run_ttnn.py's names."""
    from tilelang.tenstorrent.program_dirs import program_folders

    headers = fetched.result()
    corpus = scratch / name / "corpus"
    finish_lowering(name, lowering)
    if not jit.has_headers(headers, arch):
        print(f"\n== {name}: ttnn {version} ships no {arch} device headers; not checked")
        return 0
    if not corpus.is_dir():  # TILELANG_CHECK_METAL_ONLY named only programs this profile's corpus leaves out
        print(f"  no program of the narrowed corpus is in the {name} corpus")
        return 0
    units = check.units_of(corpus, sfpi)
    check.compile_units(units, headers, jit.frontend(wheels.clang(), scratch), scratch / name / "build", sfpi, jobs)
    errors = report(name, version, units, table)
    print(f"  clang compatibility of the cached headers: {wheels.clang_compat_note(version)}")
    library = headers / "build" / "lib" / "libtt_metal.so"
    absent = sorted({n for k in corpus.iterdir() for p in program_folders(k) if (p / "main.cpp").exists()
                     for n in host.missing((p / "main.cpp").read_text(), library)})
    if absent:
        kind = "ERROR" if exact else "note (the wheel is the closest the index has, not the profile's own)"
        print(f"  host entry points of main.cpp that libtt_metal.so {version} does not export - {kind}: "
              f"{', '.join(absent)}")
        errors += len(absent) if exact else 0
    else:
        print(f"  host entry points of main.cpp: all exported by libtt_metal.so {version} "
              f"(templates of the host headers not checkable: {', '.join(host.HEADER_TEMPLATES)})")
    return errors + check_scripts(corpus, version)


def check_scripts(corpus: Path, version: str) -> int:
    """The ttnn names of every run_ttnn.py of the corpus against the wheel's binding; the number missing."""
    from tilelang.tenstorrent.program_dirs import program_folders

    scripts = sorted(p / "run_ttnn.py" for k in corpus.iterdir() for p in program_folders(k)
                     if (p / "run_ttnn.py").exists())
    if not scripts:
        print("  run_ttnn.py: none written for this profile (its wheel has no ttnn.generic_op)")
        return 0
    binding = wheels.ttnn_binding(version)
    absent = sorted({f"{s.parent.name}/run_ttnn.py {m}" for s in scripts
                     for m in ttnn_names.missing(s.read_text(), binding)})
    for line in absent:
        print(f"  ERROR: ttnn {version} does not export the name at {line}")
    if not absent:
        print(f"  run_ttnn.py ({len(scripts)} programs): every ttnn name is exported by the ttnn {version} binding")
    return len(absent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", help="comma-separated API profiles (default: all)")
    parser.add_argument("--devices", help="comma-separated devices (default: see above)")
    parser.add_argument("--device-variants", default="default",
                        help="pass-option variants of the corpus for devices other than the default one (`all`)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--table", type=Path, help="also write the kernel x core x profile table (Markdown)")
    args = parser.parse_args()
    known = profiles()
    chosen = args.profiles.split(",") if args.profiles else sorted(known)
    unknown = [p for p in chosen if p not in known]
    if unknown:
        print(f"check-metal: unknown API profile(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return 2
    sfpi_env = os.environ.get("TT_METAL_SFPI_INCLUDE")
    sfpi = Path(sfpi_env) if sfpi_env else None
    if sfpi is not None and not (sfpi / "sfpi.h").exists():
        print(f"check-metal: $TT_METAL_SFPI_INCLUDE={sfpi} has no sfpi.h")
        return 2
    print("SFPI headers: " + (f"{sfpi} (TRISC0/TRISC1 checked)" if sfpi else
                              "not found ($TT_METAL_SFPI_INCLUDE unset): TRISC0 (unpack) and TRISC1 (math) are "
                              "NOT checked; BRISC, NCRISC and TRISC2 (pack) are, where their headers allow"))
    start, errors, table = time.monotonic(), 0, ["| kernel | role | profile (ttnn) | cores |", "|---|---|---|---|"]
    try:
        with tempfile.TemporaryDirectory(prefix="check_metal_") as tmp:
            unnamed = [name for name in chosen if not known[name].ttnn_wheel]
            if unnamed:
                print(f"check-metal: profile {unnamed[0]} names no ttnn_wheel (specs/backends/tenstorrent.yaml)")
                return 2
            pairs = checks(chosen, args.devices)
            arches = {d: device_arch(d) for _, d in pairs}
            lowerings = {label(p, d): start_lowering(p, d, Path(tmp) / label(p, d) / "corpus", args.device_variants)
                         for p, d in pairs}
            downloads = ThreadPoolExecutor(max_workers=4)
            clang = downloads.submit(wheels.clang)
            versions: dict[str, bool] = {}  # wheel version -> whether a check reads its binding too
            for p, _ in pairs:
                versions[known[p].ttnn_wheel] = versions.get(known[p].ttnn_wheel, False) or known[p].ttnn_generic_op
            fetched = {v: downloads.submit(fetch, v, binding) for v, binding in versions.items()}
            try:
                clang.result()
                for name, device_name in pairs:
                    profile = known[name]
                    errors += check_profile(label(name, device_name), profile.ttnn_wheel, profile.ttnn_wheel_exact,
                                            sfpi, args.jobs, Path(tmp), table, lowerings[label(name, device_name)],
                                            arches[device_name], fetched[profile.ttnn_wheel])
                same = [label(p, d) for p, d in pairs]  # main.cpp is compared among one device's profiles
                differ = host.same_host_program({n: Path(tmp) / n / "corpus" for n in chosen if n in same},
                                                {n: known[n].host_api for n in chosen if n in same})
                for line in differ:
                    print(f"ERROR: main.cpp differs between profiles with the same host API: {line}")
                errors += len(differ)
            finally:
                downloads.shutdown(cancel_futures=True)
                for lowering in lowerings.values():
                    if lowering.poll() is None:
                        lowering.kill()
                        lowering.wait()
    except wheels.Offline as exc:
        skip = os.environ.get("TILELANG_CHECK_METAL_OFFLINE_OK") == "1"
        outcome = ("skipped ($TILELANG_CHECK_METAL_OFFLINE_OK=1)" if skip else
                   "FAILED (offline? set TILELANG_CHECK_METAL_OFFLINE_OK=1 to skip)")
        print(f"check-metal: {exc}; {outcome}")
        return 0 if skip else 2
    if args.table:
        args.table.write_text("\n".join(table) + "\n")
    print(f"\ncheck-metal: {errors} error(s) in {time.monotonic() - start:.0f} s")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
