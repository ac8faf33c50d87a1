"""Compile the Tenstorrent test corpus and write a digest of every Metalium artifact.

Proves that a refactoring leaves the emitted code byte-identical: run it before and after, and compare.

    python tools/artifacts_digest.py --write tests/golden/tt_artifacts.sha256   # record
    python tools/artifacts_digest.py --check tests/golden/tt_artifacts.sha256   # exit 1 on any difference
    python tools/artifacts_digest.py --out build/artifacts                      # also keep the files

The corpus is `tests/tt_kernels.CORPUS` under each pass-option variant the tests use (multicast on and off,
the global partition); the C++ emulator is not run.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
VARIANTS = {
    "default": {},
    "no_multicast": {"tl.PlanTTMulticast.enabled": False},
    "global": {"tl.PartitionTTWork.mode": "global"},
}


def save(name: str, variant: str, out: Path, func: Any = None) -> Path:
    """Compile corpus program `name` under pass-option variant `variant` and save its artifacts into
    `out/<name>.<variant>`; returns that folder. `func`: the program's PrimFunc parsed already (`CORPUS[name]()`):
    parsing the TileLang script costs about as much as lowering it, and a PrimFunc is immutable (lowering makes
    new ones), so one parse serves every variant (as tools/check_metal/corpus.py does)."""
    sys.path.insert(0, str(REPO / "tests"))
    from tt_kernels import CORPUS

    import tilelang

    configs = {**VARIANTS[variant], **getattr(CORPUS[name], "pass_configs", {})}  # a factory's own (dram_format)
    kernel = tilelang.compile(func if func is not None else CORPUS[name](), target="tenstorrent",
                              pass_configs=configs)
    return Path(kernel.save(out / f"{name}.{variant}"))


def digests(out: Path, saved: dict[str, Path] | None = None, funcs: dict[str, Any] | None = None) -> dict[str, str]:
    """Every artifact's digest ('<name>.<variant>/<file>' -> sha256), compiled into `out`, except the programs
    `saved` holds already ('<name>.<variant>' -> their folder, as `save` writes it). `funcs`: programs parsed
    already (name -> PrimFunc)."""
    sys.path.insert(0, str(REPO / "tests"))
    from tt_kernels import CORPUS

    result: dict[str, str] = {}
    for name in sorted(CORPUS):
        func = (funcs or {}).get(name)  # else parsed at the first variant `saved` lacks, once for the rest
        for variant in VARIANTS:
            folder = (saved or {}).get(f"{name}.{variant}")
            if folder is None:
                func = func if func is not None else CORPUS[name]()
                folder = save(name, variant, out, func)
            for file in sorted(f for f in folder.rglob("*") if f.is_file()):  # several launches: program<i>/
                result[f"{name}.{variant}/{file.relative_to(folder)}"] = hashlib.sha256(file.read_bytes()).hexdigest()
    return result


def read(path: Path) -> dict[str, str]:
    """The digests recorded in `path` (lines `<sha256>  <kernel>.<variant>/<file>`)."""
    return {name: digest for digest, name in (line.split("  ", 1) for line in path.read_text().splitlines())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="record the digests in this file")
    parser.add_argument("--check", type=Path, help="compare with the digests recorded in this file")
    parser.add_argument("--out", type=Path, help="keep the artifacts in this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        found = digests(args.out or Path(tmp))
    text = "".join(f"{digest}  {name}\n" for name, digest in found.items())
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(text)
    if args.check:
        recorded = read(args.check)
        differ = sorted(n for n in set(recorded) | set(found) if recorded.get(n) != found.get(n))
        for name in differ:
            print(f"differs: {name}")
        print(f"{len(found) - len(differ)} of {len(set(recorded) | set(found))} artifacts identical")
        return 1 if differ else 0
    if not args.write:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
