"""tools/check_metal (make check-metal) can fail: kernels the project emits compile against the real tt-metal
headers of the spec profile's ttnn wheel the way the JIT compiles them, and the same kernels with one mutation do not.

The wheel (about 100 MB) and the ziglang wheel are fetched once into $TILELANG_TTNN_CACHE; without network the
tests fail, unless TILELANG_CHECK_METAL_OFFLINE_OK=1 says to skip them (as `make check-metal` does)."""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from tt_kernels import matmul, matmul_bias_relu
from tt_profiles import DEFAULT, PROFILE

import tilelang
from projects import REPO
from tilelang.tenstorrent import PROFILES

sys.path.insert(0, str(REPO))
from tools.check_metal import check, host, jit, wheels  # noqa: E402

VERSION = PROFILES[DEFAULT].ttnn_wheel  # the spec's profile's wheel
# The mutations below are of the spec's profile's kernels; `make check-metal` checks every profile's.
pytestmark = pytest.mark.skipif(PROFILE != DEFAULT, reason=f"these tests mutate kernels of the spec's API profile "
                                                           f"({DEFAULT}); this run emits {PROFILE}")


@pytest.fixture(scope="module")
def toolchain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    try:
        headers = wheels.ttnn_headers(VERSION)
        frontend = jit.frontend(wheels.clang(), tmp_path_factory.mktemp("probe"))
    except wheels.Offline as exc:
        if os.environ.get("TILELANG_CHECK_METAL_OFFLINE_OK") == "1":
            pytest.skip(f"offline: {exc}")
        raise
    return headers, frontend


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kernel = tilelang.compile(matmul_bias_relu(128, 128, 64, 64, 64, 32), target="tenstorrent")
    assert kernel.artifact.rt_mod.plan["device"]["profile"] == DEFAULT
    return kernel.save(tmp_path_factory.mktemp("gemm_bias_relu") / "gemm_bias_relu.default")


def compile_role(toolchain: Any, program: Path, tmp_path: Path, role: str, edit: Any = None,
                 ct_args: list[int] | None = None) -> list[check.Unit]:
    """Compile one role of the saved program (its text edited) for every core the tool checks; the units."""
    headers, frontend = toolchain
    corpus = tmp_path / "corpus"
    copy = corpus / program.name
    copy.mkdir(parents=True)
    for f in program.iterdir():
        text = f.read_text()
        copy.joinpath(f.name).write_text(edit(text) if edit and f.name == f"{role}.cpp" else text)
    units = [u for u in check.units_of(corpus, None) if u.role == role]
    if ct_args is not None:
        for unit in units:
            unit.ct_args = ct_args
    check.compile_units(units, headers, frontend, tmp_path / "build", None, 2)
    return units


@pytest.mark.parametrize("role", ["reader", "writer", "compute"])
def test_the_emitted_kernels_compile_for_their_cores(toolchain: Any, program: Path, tmp_path: Path, role: str) -> None:
    units = compile_role(toolchain, program, tmp_path, role)
    statuses = {u.core.name: u.status for u in units}
    assert all(s in ("ok", "skipped") for s in statuses.values()), [u.detail for u in units]
    expected = {"reader": {"NCRISC": "ok"}, "writer": {"BRISC": "ok"},
                # without SFPI headers only the pack core is compiled, and relu.h needs sfpi.h even there
                "compute": {"TRISC0": "skipped", "TRISC1": "skipped", "TRISC2": "skipped"}}[role]
    assert statuses == expected


@pytest.mark.parametrize("role,pattern,replacement,message", [
    ("reader", r"TensorAccessor\(accessor_args, A_addr, 2048\)", "TensorAccessor(accessor_args, A_addr, 2048, 7, 9)",
     "no matching constructor|no viable constructor"),
    ("writer", r"noc_async_write_page\(([^;]*), ([^,;]*)\);", r"noc_async_write_page(\1);", "no matching function"),
    ("writer", r"cb_wait_front\((\d+), [^)]*\)", r"cb_wait_front(\1)", "no matching function|too few arguments"),
    ("reader", r"constexpr auto accessor_args = TensorAccessorArgs<0>\(\);\n", "",
     "undeclared identifier 'accessor_args'"),
])
def test_a_mutated_kernel_fails(toolchain: Any, program: Path, tmp_path: Path, role: str, pattern: str,
                                replacement: str, message: str) -> None:
    """A missing or extra argument, a removed call: the first errors name the kernel line."""
    def edit(text: str) -> str:
        new, count = re.subn(pattern, replacement, text, count=1)
        assert count == 1, pattern
        return new

    units = compile_role(toolchain, program, tmp_path, role, edit)
    failed = [u for u in units if u.status == "error"]
    assert failed and re.search(message, failed[0].detail), [u.detail for u in units]
    assert "kernel.cpp:" in failed[0].detail


def test_an_out_of_range_compile_time_argument_fails(toolchain: Any, program: Path, tmp_path: Path) -> None:
    """The reader chains three TensorAccessorArgs (2 words each); with 4 compile-time arguments the third reads
    past them, which tt-metal's headers reject at compile time."""
    units = compile_role(toolchain, program, tmp_path, "reader", ct_args=[2, 2048, 2, 2048])
    assert units[0].status == "error", units[0].detail
    units = compile_role(toolchain, program, tmp_path / "full", "reader")
    assert units[0].status == "ok" and units[0].ct_args == [2, 2048] * 3


def test_host_entry_points_are_checked_against_the_exported_symbols(toolchain: Any, program: Path) -> None:
    headers, _ = toolchain
    library = headers / "build" / "lib" / "libtt_metal.so"
    main = (program / "main.cpp").read_text()
    assert {"CreateKernel", "SetRuntimeArgs", "distributed::MeshBuffer::create"} <= host.entry_points(main)
    assert host.missing(main, library) == []
    assert host.missing(main.replace("CreateKernel(", "CreateKernelX("), library) == ["CreateKernelX"]


def test_the_pack_core_checks_a_gemm_compute_kernel(toolchain: Any, tmp_path: Path) -> None:
    """A GEMM's compute kernel includes no SFPU header, so TRISC2 compiles it; a dropped argument fails there."""
    kernel = tilelang.compile(matmul(128, 256, 128, 128, 128, 32, dtype="bfloat16"), target="tenstorrent")
    program = kernel.save(tmp_path / "gemm" / "gemm.default")
    units = compile_role(toolchain, program, tmp_path / "good", "compute")
    assert {u.core.name: u.status for u in units}["TRISC2"] == "ok"
    units = compile_role(toolchain, program, tmp_path / "bad", "compute",
                         lambda s: s.replace("pack_reconfig_data_format(16);", "pack_reconfig_data_format();", 1))
    trisc2 = next(u for u in units if u.core.name == "TRISC2")
    assert trisc2.status == "error" and "pack_reconfig_data_format" in trisc2.detail, trisc2.detail


def test_units_sharing_a_precompiled_header_keep_their_own_verdicts(toolchain: Any, tmp_path: Path) -> None:
    """Two copies of a GEMM, one with a dropped argument in its reader and its compute kernel, and a third reader
    with too few compile-time arguments. The three NCRISC units share the core's base PCH (the headers that depend
    on neither the compile-time arguments nor the descriptors, tools/check_metal/base_pch.py); the two TRISC2 units,
    one group of equal arguments and descriptors, share that group's PCH instead (the base would leave them 18 % of
    their lines to parse each, more than one shared PCH costs two units: check.precompile_bases). With either, the
    good copy compiles while the mutated ones fail at their kernel line or at the compile-time argument."""
    headers, frontend = toolchain
    kernel = tilelang.compile(matmul(128, 256, 128, 128, 128, 32, dtype="bfloat16"), target="tenstorrent")
    good = kernel.save(tmp_path / "corpus" / "gemm.good")
    bad = tmp_path / "corpus" / "gemm.bad"
    bad.mkdir()
    edits = {"reader.cpp": ("cb_reserve_back(0, ", "cb_reserve_back("),
             "compute.cpp": ("pack_reconfig_data_format(16);", "pack_reconfig_data_format();")}
    for f in good.iterdir():
        old, new = edits.get(f.name, ("", ""))
        assert old in f.read_text(), (f.name, old)
        bad.joinpath(f.name).write_text(f.read_text().replace(old, new, 1))
    units = [u for u in check.units_of(tmp_path / "corpus", None) if u.role in ("reader", "compute") and not u.status]
    assert sorted(u.core.name for u in units) == ["NCRISC", "NCRISC", "TRISC2", "TRISC2"]
    reader = next(u for u in units if u.core.name == "NCRISC" and u.users == ["gemm.good"])
    units.append(dataclasses.replace(reader, ct_args=reader.ct_args[:-2], users=["gemm.short"]))
    check.compile_units(units, headers, frontend, tmp_path / "build", None, 2)
    assert len(list((tmp_path / "build").glob("base*/base.pch"))) == 1
    assert len(list((tmp_path / "build").glob("pch*/prefix.pch"))) == 1
    verdicts = {(u.users[0].split(".")[1], u.core.name): u for u in units}
    assert verdicts["good", "NCRISC"].status == verdicts["good", "TRISC2"].status == "ok", [u.detail for u in units]
    for core, name in (("NCRISC", "cb_reserve_back"), ("TRISC2", "pack_reconfig_data_format")):
        unit = verdicts["bad", core]
        assert unit.status == "error" and name in unit.detail and "kernel.cpp:" in unit.detail, unit.detail
    short = verdicts["short", "NCRISC"]
    assert short.status == "error" and "Index out of range" in short.detail, short.detail


def test_profiles_with_one_host_api_must_emit_one_main_cpp(tmp_path: Path) -> None:
    """check-metal fails when two profiles with the same host API emit different host programs for a corpus
    program (tests/tenstorrent/test_tt_corpus_compiles.py checks main.cpp under the spec's profile only, relying on
    it)."""
    texts = {"ttnn_a": "// ttnn_a\nint main() { return 0; }\n", "ttnn_b": "// ttnn_b\nint main() { return 0; }\n",
             "ttnn_c": "// ttnn_c\nint main() { return 1; }\n"}
    corpora = {}
    for name, text in texts.items():
        (tmp_path / name / "gemm.default").mkdir(parents=True)
        (tmp_path / name / "gemm.default" / "main.cpp").write_text(text)
        corpora[name] = tmp_path / name
    assert host.same_host_program(corpora, {"ttnn_a": "mesh", "ttnn_b": "mesh", "ttnn_c": "device"}) == []
    assert host.same_host_program(corpora, {"ttnn_a": "mesh", "ttnn_b": "mesh", "ttnn_c": "mesh"}) == [
        "ttnn_a vs ttnn_c: gemm.default", "ttnn_b vs ttnn_c: gemm.default"]
    # A program that leaves a tensor in L1 is written only where the profile has sharded L1 buffers: not compared.
    plan = '{"tensors": [{"name": "C", "l1_shard": [2, 2]}]}'
    (tmp_path / "ttnn_c" / "gemm.default" / "tt.plan.json").write_text(plan)
    assert host.same_host_program(corpora, {"ttnn_a": "mesh", "ttnn_b": "mesh", "ttnn_c": "mesh"}) == []


def test_a_wheel_that_cannot_be_downloaded_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No such version on the index (as when offline): the error names the package and version."""
    monkeypatch.setenv("TILELANG_TTNN_CACHE", str(tmp_path))
    with pytest.raises(wheels.Offline, match=r"cannot download the ttnn 0\.0\.1 wheel with pip"):
        wheels.ttnn_headers("0.0.1")


def test_the_device_defines_follow_the_device_record() -> None:
    """tt-metal's JIT defines per device: the architecture's define and the bank counts, with a shift for a power
    of two (p150's 8 DRAM banks) and a division otherwise (n150's 12); L1 banks are the compute grid's cores."""
    n150, p150 = (jit.target_of({"device": {"name": name}}) for name in ("n150", "p150"))
    assert (n150.arch, n150.dram_banks, n150.l1_banks) == ("wormhole_b0", 12, 64)
    assert (p150.arch, p150.dram_banks, p150.l1_banks) == ("blackhole", 8, 130)
    wormhole, blackhole = jit.device_defines(n150), jit.device_defines(p150)
    assert wormhole["ARCH_WORMHOLE"] == "1" and "ARCH_BLACKHOLE" not in wormhole
    assert (wormhole["IS_NOT_POW2_NUM_DRAM_BANKS"], wormhole["LOG_BASE_2_OF_NUM_L1_BANKS"]) == ("1", "6")
    assert blackhole["ARCH_BLACKHOLE"] == "1" and "ARCH_WORMHOLE" not in blackhole
    assert (blackhole["LOG_BASE_2_OF_NUM_DRAM_BANKS"], blackhole["IS_NOT_POW2_NUM_L1_BANKS"]) == ("3", "1")
    assert "IS_NOT_POW2_NUM_DRAM_BANKS" not in blackhole and blackhole["NUM_L1_BANKS"] == "130"
    p100 = jit.device_defines(jit.target_of({"device": {"name": "p100"}}))  # 7 banks: a division, 110 L1 banks
    assert (p100["IS_NOT_POW2_NUM_DRAM_BANKS"], p100["NUM_DRAM_BANKS"], p100["NUM_L1_BANKS"]) == ("1", "7", "110")
    assert "tt_metal/tt-llk/tt_llk_blackhole/llk_lib" in jit.includes("blackhole")
    assert not any("wormhole" in d for d in jit.includes("blackhole"))


def test_a_p150_kernel_compiles_against_the_blackhole_headers(toolchain: Any, tmp_path: Path) -> None:
    """A GEMM lowered for p150 compiles for its data-movement cores with tt_llk_blackhole and ARCH_BLACKHOLE; the
    same reader with a dropped argument fails there. Blackhole's ckernel.h includes SFPI's lltt.h, so without the
    SFPI headers every compute core is skipped (Wormhole's TRISC2 compiles a GEMM)."""
    headers, frontend = toolchain
    assert jit.has_headers(headers, "blackhole")
    kernel = tilelang.compile(matmul(128, 256, 128, 128, 128, 32, dtype="bfloat16"), target="tenstorrent:p150")
    program = kernel.save(tmp_path / "gemm" / "gemm.p150")
    units = {(u.role, u.core.name): u for u in compile_role(toolchain, program, tmp_path / "r", "reader")
             + compile_role(toolchain, program, tmp_path / "w", "writer")
             + compile_role(toolchain, program, tmp_path / "c", "compute")}
    assert {u.target.arch for u in units.values()} == {"blackhole"}
    assert units["reader", "NCRISC"].status == units["writer", "BRISC"].status == "ok", [
        u.detail for u in units.values()]
    assert units["compute", "TRISC2"].status == "skipped" and "lltt.h" in units["compute", "TRISC2"].detail
    release = jit.sfpi_release(headers)  # what is missing, named: the wheel pins an SFPI release it does not ship
    assert release and re.fullmatch(r"\d+\.\d+\.\d+", release)
    assert f"the wheel pins SFPI {release}" in units["compute", "TRISC2"].detail
    bad = compile_role(toolchain, program, tmp_path / "bad", "reader",
                       lambda s: s.replace("cb_reserve_back(0, ", "cb_reserve_back(", 1))
    assert bad[0].status == "error" and "cb_reserve_back" in bad[0].detail, bad[0].detail


def test_the_default_checks_are_one_device_per_architecture() -> None:
    """make check-metal: n150 under every profile, p150 (Blackhole) under the spec's profile only; p100 (Blackhole
    too) only when named."""
    from tools.check_metal.__main__ import checks

    every = sorted(PROFILES)
    assert checks(every, None) == [(p, "n150") for p in every] + [(DEFAULT, "p150")]
    assert checks([p for p in every if p != DEFAULT], None) == [(p, "n150") for p in every if p != DEFAULT]
    assert checks([DEFAULT], "p150,p100") == [(DEFAULT, "p150"), (DEFAULT, "p100")]
