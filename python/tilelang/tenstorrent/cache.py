"""The emulator's build cache (`cache_dir()`, $TT_EMU_CACHE): host programs (`host/<key>/`), kernel
objects (`kernels/*.so`), the host programs' precompiled headers (`pch/<key>/`, tilelang.tenstorrent.host_pch) and the
data-movement kernels' (`kernel_pch/<key>/`, src/emulator/src/jit.cpp),
all keyed by content. It is bounded: after each new host build the least recently used
entries beyond the limits are removed at once (a host program is marked used whenever a run reuses it). A host
program being built or run is held by a shared lock (`in_use`, a `flock` on `<entry>/.in_use.lock`), which prune
respects; a kernel object may go at any time (a running program has it mapped already, and the emulator rebuilds
one that vanished or does not load). Builds of one key are serialised by `building` (an exclusive `flock`).

    python -m tilelang.tenstorrent.cache            # what the cache holds
    python -m tilelang.tenstorrent.cache --prune    # apply the limits now
    python -m tilelang.tenstorrent.cache --clear    # remove every host program and kernel object
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

# Entries kept per folder; $TT_EMU_CACHE_LIMIT sets each (a positive integer). A host program is about 100 KB:
# 512 (about 50 MB) leave room for the programs of a whole `make test` run, so that `make test-profiles` finds the
# ones it runs again (a program is the same under every profile with its host API) instead of rebuilding them.
LIMITS = {"host": 512, "kernels": 1024, "pch": 8, "kernel_pch": 8}
IN_USE = ".in_use.lock"
BUILDING = ".build.lock"


def cache_dir() -> Path:
    """$TT_EMU_CACHE, else $XDG_CACHE_HOME (or ~/.cache) + /tilelang/tt_emu: where host programs and kernels are
    kept."""
    if os.environ.get("TT_EMU_CACHE"):
        return Path(os.environ["TT_EMU_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tilelang" / "tt_emu"


def _root(root: Path | None) -> Path:
    return Path(root) if root is not None else cache_dir()


def _limits() -> dict[str, int]:
    text = os.environ.get("TT_EMU_CACHE_LIMIT", "")
    if text.isdigit() and int(text) > 0:
        return {folder: int(text) for folder in LIMITS}
    return dict(LIMITS)


def _mtime(entry: Path) -> float | None:
    try:
        return entry.stat().st_mtime
    except OSError:
        return None  # removed meanwhile by another process's prune


def _used(root: Path | None) -> dict[str, list[tuple[float, Path]]]:
    base = _root(root)
    found: dict[str, list[tuple[float, Path]]] = {}
    for folder in LIMITS:
        where = base / folder
        items = [p for p in where.iterdir() if p.is_dir() or p.suffix == ".so"] if where.is_dir() else []
        stamped = [(t, p) for p in items if (t := _mtime(p)) is not None]
        found[folder] = sorted(stamped, key=lambda tp: tp[0], reverse=True)
    return found


def entries(root: Path | None = None) -> dict[str, list[Path]]:
    """Folder -> its entries, most recently used first (host: one folder per program; kernels: one object each)."""
    return {folder: [p for _, p in items] for folder, items in _used(root).items()}


def touch(entry: Path) -> None:
    """Mark an entry used now (least-recently-used order is by modification time)."""
    try:
        os.utime(entry)
    except OSError:
        pass  # removed by a concurrent prune: the caller rebuilds it


@contextlib.contextmanager
def in_use(entry: Path) -> Iterator[None]:
    """Hold the host entry (a folder, created if missing) against pruning until the block ends."""
    while True:
        entry.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(entry / IN_USE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except FileNotFoundError:
            continue  # pruned between the mkdir and the open
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            try:
                linked = os.stat(entry / IN_USE).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                linked = False
            if linked:  # not a lock file a prune removed while this process waited for it
                yield
                return
        finally:
            os.close(fd)


@contextlib.contextmanager
def building(entry: Path) -> Iterator[None]:
    """One builder of the entry at a time, across threads and processes (the caller holds `in_use`)."""
    fd = os.open(entry / BUILDING, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _remove_unused(entry: Path) -> bool:
    """Remove a host entry unless a run or a build holds it; True when removed."""
    try:
        fd = os.open(entry / IN_USE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except FileNotFoundError:
        return False  # removed meanwhile by another prune
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    try:
        shutil.rmtree(entry, ignore_errors=True)
    finally:
        os.close(fd)
    return True


def _remove(entry: Path) -> bool:
    if entry.is_dir():
        return _remove_unused(entry)
    entry.unlink(missing_ok=True)
    entry.with_name(entry.name + ".digest").unlink(missing_ok=True)  # the kernel object's recorded digest
    entry.with_name(entry.name + ".lock").unlink(missing_ok=True)  # its builders' lock (src/emulator/src/jit.cpp)
    return True


def prune(root: Path | None = None, limits: dict[str, int] | None = None) -> int:
    """Remove the least recently used entries beyond the limits, at once (host programs being built or run stay)."""
    limits = {**_limits(), **(limits or {})}
    removed = 0
    for folder, items in _used(root).items():
        for _, entry in items[limits[folder]:]:
            removed += _remove(entry)
    return removed


def clear(root: Path | None = None) -> int:
    """Remove every host program, kernel object and precompiled header; returns how many."""
    items = [e for group in entries(root).values() for e in group]
    return sum(_remove(entry) for entry in items)


def _size(entry: Path) -> int:
    if entry.is_file():
        return entry.stat().st_size
    return sum(p.stat().st_size for p in entry.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilelang.tenstorrent.cache", description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--prune", action="store_true", help="apply the limits now")
    action.add_argument("--clear", action="store_true",
                        help="remove every host program, kernel object and precompiled header")
    args = parser.parse_args(argv)
    base = _root(None)
    if args.clear:
        print(f"removed {clear()} entries from {base}")
    elif args.prune:
        print(f"removed {prune()} entries from {base}")
    else:
        limits = _limits()
        for folder, items in entries().items():
            mib = sum(_size(e) for e in items) / 2**20
            print(f"{base / folder}: {len(items)} entries (limit {limits[folder]}), {mib:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
