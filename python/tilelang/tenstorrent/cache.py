"""The emulator's build cache (`emulator.cache_dir()`, $TT_EMU_CACHE): host programs (`host/<key>/`) and kernel
objects (`kernels/*.so`), both keyed by content. It is bounded: after each new host build the least recently used
entries beyond the limits are removed (a host program is marked used whenever a run reuses it). Entries used in
the last GRACE_SECONDS stay, so a program another process is about to start is never removed under it.

    python -m tilelang.tenstorrent.cache            # what the cache holds
    python -m tilelang.tenstorrent.cache --prune    # apply the limits now
    python -m tilelang.tenstorrent.cache --clear    # remove every host program and kernel object
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

# Entries kept per folder; $TT_EMU_CACHE_LIMIT sets both (a positive integer).
LIMITS = {"host": 128, "kernels": 1024}
GRACE_SECONDS = 600.0


def _root(root: Path | None) -> Path:
    from .emulator import cache_dir

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


def _remove(entry: Path) -> None:
    if entry.is_dir():
        shutil.rmtree(entry, ignore_errors=True)
    else:
        entry.unlink(missing_ok=True)


def prune(root: Path | None = None, limits: dict[str, int] | None = None, now: float | None = None) -> int:
    """Remove the least recently used entries beyond the limits (not those used in the last GRACE_SECONDS)."""
    limits = limits or _limits()
    now = time.time() if now is None else now
    removed = 0
    for folder, items in _used(root).items():
        for used, entry in items[limits[folder]:]:
            if now - used > GRACE_SECONDS:
                _remove(entry)
                removed += 1
    return removed


def clear(root: Path | None = None) -> int:
    """Remove every host program and kernel object; returns how many."""
    items = [e for group in entries(root).values() for e in group]
    for entry in items:
        _remove(entry)
    return len(items)


def _size(entry: Path) -> int:
    if entry.is_file():
        return entry.stat().st_size
    return sum(p.stat().st_size for p in entry.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilelang.tenstorrent.cache", description=__doc__.split("\n")[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--prune", action="store_true", help="apply the limits now")
    action.add_argument("--clear", action="store_true", help="remove every host program and kernel object")
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
