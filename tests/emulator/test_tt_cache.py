"""The emulator's build cache is bounded: least recently used entries beyond the limits go at once (not those a run
or a build holds), a reused host program counts as used, and the cache can be listed and cleared from the shell.
Entries are built once under concurrent threads and processes and verified before use: a corrupt one is rebuilt,
with a message naming the cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tilelang.tenstorrent import cache, host_pch


def fill(root: Path, hosts: int, kernels: int, age: float) -> None:
    """`hosts` host folders and `kernels` kernel objects, entry i last used `age + i` seconds ago."""
    now = time.time()
    for i in range(hosts):
        entry = root / "host" / f"h{i:02d}"
        entry.mkdir(parents=True)
        (entry / "main").write_bytes(b"x" * 10)
        (entry / cache.IN_USE).touch()  # as a build leaves it
        os.utime(entry, (now - age - i, now - age - i))
    (root / "kernels").mkdir(parents=True, exist_ok=True)
    for i in range(kernels):
        entry = root / "kernels" / f"compute-{i:02d}.so"
        entry.write_bytes(b"y")
        for sibling in (".digest", ".lock"):  # as the JIT leaves them (src/emulator/src/jit.cpp)
            entry.with_name(entry.name + sibling).touch()
        os.utime(entry, (now - age - i, now - age - i))


def test_prune_keeps_the_most_recently_used(tmp_path: Path) -> None:
    fill(tmp_path, hosts=5, kernels=4, age=10)
    removed = cache.prune(tmp_path, limits={"host": 2, "kernels": 3})
    assert removed == 3 + 1
    found = cache.entries(tmp_path)
    assert [p.name for p in found["host"]] == ["h00", "h01"]
    assert [p.name for p in found["kernels"]] == ["compute-00.so", "compute-01.so", "compute-02.so"]
    assert sorted(p.name for p in (tmp_path / "kernels").iterdir() if "03" in p.name) == []  # and its siblings


def test_entries_in_use_stay_and_the_limit_applies_at_once(tmp_path: Path) -> None:
    fill(tmp_path, hosts=4, kernels=0, age=1)  # used a second ago: no grace period protects them
    with cache.in_use(tmp_path / "host" / "h03"):  # the oldest, held by a run
        assert cache.prune(tmp_path, limits={"host": 1, "kernels": 1}) == 2
        assert [p.name for p in cache.entries(tmp_path)["host"]] == ["h00", "h03"]  # h03 beyond the limit, held
    cache.touch(tmp_path / "host" / "h03")  # used again: now the most recent
    assert cache.entries(tmp_path)["host"][0].name == "h03"
    assert cache.prune(tmp_path, limits={"host": 1, "kernels": 1}) == 1


def test_the_cache_is_listed_and_cleared_from_the_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(tmp_path, hosts=3, kernels=2, age=0)
    (tmp_path / "kernel_pch" / "key").mkdir(parents=True)  # a data-movement kernels' precompiled header (jit.cpp)
    env = {**os.environ, "TT_EMU_CACHE": str(tmp_path), "TT_EMU_CACHE_LIMIT": "7"}
    listed = subprocess.run([sys.executable, "-m", "tilelang.tenstorrent.cache"], env=env, capture_output=True,
                            text=True, check=True).stdout
    assert f"{tmp_path / 'host'}: 3 entries (limit 7)" in listed
    assert f"{tmp_path / 'kernels'}: 2 entries (limit 7)" in listed
    cleared = subprocess.run([sys.executable, "-m", "tilelang.tenstorrent.cache", "--clear"], env=env,
                             capture_output=True, text=True, check=True).stdout
    assert "removed 6 entries" in cleared
    assert cache.entries(tmp_path) == {"host": [], "kernels": [], "pch": [], "kernel_pch": []}


def test_an_entry_removed_meanwhile_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process's prune may remove an entry between the listing and its stat (tests run in parallel)."""
    fill(tmp_path, hosts=3, kernels=0, age=10)
    real_iterdir = Path.iterdir

    def listing_with_a_ghost(self: Path) -> Any:
        yield from real_iterdir(self)
        if self.name == "host":
            yield self / "removed-meanwhile.so"  # listed, gone before its stat

    monkeypatch.setattr(Path, "iterdir", listing_with_a_ghost)
    assert [p.name for p in cache.entries(tmp_path)["host"]] == ["h00", "h01", "h02"]
    assert cache.prune(tmp_path, limits={"host": 1, "kernels": 1}) == 2


def _add_kernel() -> Any:
    from tt_kernels import elementwise_binary

    import tilelang

    return tilelang.compile(elementwise_binary(32, 32, 32, 32, "add", "float32"), out_idx=[-1], target="tenstorrent")


needs_cxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


@needs_cxx
@pytest.mark.parametrize("trial", range(2))
def test_eight_threads_running_one_kernel_on_a_cold_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          trial: int) -> None:
    """Every call succeeds, one host program is published (executable, with its digest), and a later process
    reuses it."""
    from test_jit_concurrency import together

    monkeypatch.setenv("TT_EMU_CACHE", str(tmp_path))
    kernel = _add_kernel()
    a = np.full((32, 32), trial, "float32")
    b = np.arange(32 * 32, dtype="float32").reshape(32, 32)
    results = together(8, lambda: kernel(a, b))
    for c in results:
        np.testing.assert_array_equal(c, a + b)
    [host] = cache.entries(tmp_path)["host"]
    assert os.access(host / "main", os.X_OK) and (host / "main.sha256").exists()
    assert not [p.name for p in host.iterdir() if ".tmp" in p.name]
    [pch] = cache.entries(tmp_path)["pch"]  # main.cpp's leading includes, asked for by its one build (host_pch)
    assert (pch / host_pch.USES).read_bytes() == b"." and not (pch / f"{host_pch.HEADER}.gch").exists()
    again = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, 'tests'); import layers; "
                            "import numpy as np; from test_tt_cache import _add_kernel; "
                            "print(_add_kernel()(np.ones((32, 32), 'float32'), np.ones((32, 32), 'float32'))[0, 0])"],
                           env={**os.environ, "TT_EMU_CACHE": str(tmp_path)}, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout.split()[-1] == "2.0", again.stderr


@needs_cxx
def test_truncated_entries_are_rebuilt_with_a_message_naming_the_cache(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TT_EMU_CACHE", str(tmp_path))
    kernel = _add_kernel()
    a = b = np.ones((32, 32), "float32")
    kernel(a, b)
    [host] = cache.entries(tmp_path)["host"]
    objects = cache.entries(tmp_path)["kernels"]
    assert len(objects) == 3
    for damaged in (host / "main", objects[0]):
        damaged.write_bytes(damaged.read_bytes()[:100])  # truncated, as by a full disk or a killed copy
    with pytest.warns(UserWarning, match=f"tt_emu cache: host program {host / 'main'} does not match its recorded "
                                         f"digest .* it is rebuilt \\(the cache is {tmp_path}"):
        np.testing.assert_array_equal(kernel(a, b), a + b)
    assert os.access(host / "main", os.X_OK) and (host / "main").stat().st_size > 100
    assert objects[0].stat().st_size > 100
    (host / "main").chmod(0o644)  # published without its execute bit (the old race): found and rebuilt too
    with pytest.warns(UserWarning, match="is not executable"):
        np.testing.assert_array_equal(kernel(a, b), a + b)


@needs_cxx
def test_one_host_program_serves_every_api_profile() -> None:
    """The API profile is chosen when a host program runs (TT_EMU_PROFILE: the kernel headers), not when it is
    built: a main.cpp run under several profiles (the emulator tests, `make test-profiles`) is built and cached once
    (the addrgen cases' host program, which test_tt_emulator_addrgen.py builds too)."""
    from projects import TESTS
    from tilelang.tenstorrent import emulator, intrinsics

    main = TESTS / "emulator_cases" / "addrgen" / "host.cpp"
    assert len({emulator.build_host(main, profile) for profile in intrinsics.PROFILES}) == 1


def test_only_a_host_programs_leading_system_includes_are_precompiled() -> None:
    """A forced include of exactly the lines main.cpp starts with changes nothing: they stop at its first other line
    (a macro defined before an include may change what it means) and at a quoted (folder-relative) include."""
    source = "// host\n#include <cstdint>\n\n#include <tt-metalium/host_api.hpp>\n#define X 1\n#include <vector>\n"
    assert host_pch.leading_includes(source) == ("#include <cstdint>", "#include <tt-metalium/host_api.hpp>")
    assert host_pch.leading_includes('#include "local.h"\n#include <vector>\n') == ()
    assert host_pch.header_for(Path(__file__), ["g++"], "key", Path("pch")) is None  # a Python file: none


@needs_cxx
def test_a_block_of_includes_is_precompiled_at_its_third_build(tmp_path: Path) -> None:
    """The first two builds that start with a block get no PCH; the third builds it and gets a forced include that
    g++ reads from it (-Winvalid-pch -Werror: a PCH g++ cannot use fails), as do the builds after it."""
    source = tmp_path / "main.cpp"
    source.write_text("#include <vector>\nint main() { return static_cast<int>(std::vector<int>(3).size()) - 3; }\n")
    command = ["g++", "-std=c++20", "-O1"]
    header = host_pch.header_for(source, command, "key", tmp_path / "pch")
    assert header is not None and header.lines == ("#include <vector>",)
    forced = []
    for _ in range(4):
        with host_pch.flags(header) as flags:
            forced.append(flags)
    include = ["-include", str(header.entry / host_pch.HEADER)]
    assert forced == [[], [], include, include]
    assert (header.entry / host_pch.USES).read_bytes() == b"..."  # counted until the PCH exists
    done = subprocess.run([*command, "-Winvalid-pch", "-Werror", "-H", *include, str(source), "-o",
                           str(tmp_path / "main")], capture_output=True, text=True)
    assert done.returncode == 0 and f"! {header.entry / host_pch.HEADER}.gch" in done.stderr, done.stderr
