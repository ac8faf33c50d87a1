"""The emulator's build cache is bounded: least recently used entries beyond the limits go (not those used in the
last grace period), a reused host program counts as used, and the cache can be listed and cleared from the shell."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tilelang.tenstorrent import cache


def fill(root: Path, hosts: int, kernels: int, age: float) -> None:
    """`hosts` host folders and `kernels` kernel objects, entry i last used `age + i` seconds ago."""
    now = time.time()
    for i in range(hosts):
        entry = root / "host" / f"h{i:02d}"
        entry.mkdir(parents=True)
        (entry / "main").write_bytes(b"x" * 10)
        os.utime(entry, (now - age - i, now - age - i))
    (root / "kernels").mkdir(parents=True, exist_ok=True)
    for i in range(kernels):
        entry = root / "kernels" / f"compute-{i:02d}.so"
        entry.write_bytes(b"y")
        os.utime(entry, (now - age - i, now - age - i))


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    fill(tmp_path, hosts=5, kernels=4, age=cache.GRACE_SECONDS + 10)
    removed = cache.prune(tmp_path, limits={"host": 2, "kernels": 3})
    assert removed == 3 + 1
    found = cache.entries(tmp_path)
    assert [p.name for p in found["host"]] == ["h00", "h01"]
    assert [p.name for p in found["kernels"]] == ["compute-00.so", "compute-01.so", "compute-02.so"]


def test_entries_used_within_the_grace_period_stay(tmp_path: Path) -> None:
    fill(tmp_path, hosts=4, kernels=0, age=1)
    assert cache.prune(tmp_path, limits={"host": 1, "kernels": 1}) == 0
    cache.touch(tmp_path / "host" / "h03")  # the oldest, used again: now the most recent
    assert cache.entries(tmp_path)["host"][0].name == "h03"


def test_the_cache_is_listed_and_cleared_from_the_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(tmp_path, hosts=3, kernels=2, age=0)
    env = {**os.environ, "TT_EMU_CACHE": str(tmp_path), "TT_EMU_CACHE_LIMIT": "7"}
    listed = subprocess.run([sys.executable, "-m", "tilelang.tenstorrent.cache"], env=env, capture_output=True,
                            text=True, check=True).stdout
    assert f"{tmp_path / 'host'}: 3 entries (limit 7)" in listed
    assert f"{tmp_path / 'kernels'}: 2 entries (limit 7)" in listed
    cleared = subprocess.run([sys.executable, "-m", "tilelang.tenstorrent.cache", "--clear"], env=env,
                             capture_output=True, text=True, check=True).stdout
    assert "removed 5 entries" in cleared
    assert cache.entries(tmp_path) == {"host": [], "kernels": []}


def test_an_entry_removed_meanwhile_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process's prune may remove an entry between the listing and its stat (tests run in parallel)."""
    fill(tmp_path, hosts=3, kernels=0, age=cache.GRACE_SECONDS + 10)
    real_iterdir = Path.iterdir

    def listing_with_a_ghost(self: Path) -> Any:
        yield from real_iterdir(self)
        if self.name == "host":
            yield self / "removed-meanwhile.so"  # listed, gone before its stat

    monkeypatch.setattr(Path, "iterdir", listing_with_a_ghost)
    assert [p.name for p in cache.entries(tmp_path)["host"]] == ["h00", "h01", "h02"]
    assert cache.prune(tmp_path, limits={"host": 1, "kernels": 1}) == 2
