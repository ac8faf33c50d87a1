"""The tt_emu host emulator of the TT-Metalium API, driven through `tilelang.tenstorrent.emulator`.

Hand-written kernels and host programs (tests/emulator_cases/) run on the emulator: correct tile matmuls,
element-wise add and exp are compared with numpy; each kind of protocol violation is seeded into a kernel
(FAULT_* defines) and must be reported with its message, core, kernel, CB and a state dump; counters of a
known kernel must equal hand-computed values. Host programs are built once per module. Multicast:
test_tt_emulator_multicast.py.

Numerics: inputs are bf16. The emulator computes in fp32 and, without fp32_dest_acc_en, rounds DST to bf16
after every math operation (so a matmul rounds after each K tile); packing rounds to the CB format (RNE).
The tests model exactly that in numpy and allow 1 bf16 ulp for the different fp32 summation order.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator
from tilelang.tenstorrent.emulator import TTEmulatorError
from tilelang.tenstorrent.records import COUNTERS

CASES = TESTS / "emulator_cases"
METAL = "metal_d5f9bc4a"
TT2025 = "tilelang_tt_2025"
BF16 = ml_dtypes.bfloat16

pytestmark = pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None, reason="no C++ compiler")


@pytest.fixture(scope="module")
def host_mesh() -> Path:
    return emulator.build_host(CASES / "host_mesh.cpp", METAL)


@pytest.fixture(scope="module")
def host_device() -> Path:
    return emulator.build_host(CASES / "host_device.cpp", TT2025)


def shapes(op: str, mt: int, kt: int, nt: int) -> tuple[tuple[int, int], tuple[int, int]]:
    if op == "matmul":
        return (mt * 32, kt * 32), (kt * 32, nt * 32)
    return (mt * 32, nt * 32), (mt * 32, nt * 32)


def run_case(exe: Path, data: Path, op: str, mt: int, kt: int, nt: int, ncores: int = 1, *, fp32: bool = False,
             fault: tuple[str, str, int] | None = None, profile: str = METAL, kernels: str = "metal",
             env: dict[str, str] | None = None) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """Run one case; returns (report, A, B, C) with C read back from the program's output file."""
    rng = np.random.default_rng(mt * 100 + kt * 10 + nt)
    a_shape, b_shape = shapes(op, mt, kt, nt)
    a = rng.uniform(-2, 2, a_shape).astype(BF16)
    b = rng.uniform(-2, 2, b_shape).astype(BF16)
    data.mkdir(parents=True, exist_ok=True)
    a.tofile(data / "a.bin")
    b.tofile(data / "b.bin")
    args = [op, str(mt), str(kt), str(nt), str(ncores), "1" if fp32 else "0", str(CASES / kernels), str(data)]
    if fault is not None:
        args += [fault[0], fault[1], str(fault[2])]
    report = emulator.run(exe, args, profile, env=env)
    c = np.fromfile(data / "c.bin", dtype=BF16).reshape(a.shape[0], b.shape[1])
    return report, a, b, c


def ulps(x: np.ndarray, y: np.ndarray) -> int:
    """Largest distance in bf16 units in the last place (same-sign values; 0 and -0 equal)."""
    xi = x.astype(BF16).view(np.int16).astype(np.int32)
    yi = y.astype(BF16).view(np.int16).astype(np.int32)
    return int(np.abs(np.where(xi < 0, -(xi & 0x7FFF), xi) - np.where(yi < 0, -(yi & 0x7FFF), yi)).max())


def matmul_model(a: np.ndarray, b: np.ndarray, fp32_acc: bool) -> np.ndarray:
    """DST accumulation per K tile, rounded to bf16 after every matmul_tiles unless fp32_dest_acc_en."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(0, a.shape[1], 32):
        acc = acc + a32[:, k:k + 32] @ b32[k:k + 32, :]
        if not fp32_acc:
            acc = acc.astype(BF16).astype(np.float32)
    return acc.astype(BF16)


# ---------------------------------------------------------------------------------------------- correct runs


@pytest.mark.parametrize("fp32", [False, True], ids=["bf16_dst", "fp32_dst"])
def test_matmul_one_core(host_mesh: Path, tmp_path: Path, fp32: bool) -> None:
    report, a, b, c = run_case(host_mesh, tmp_path, "matmul", 2, 4, 3, fp32=fp32)
    assert report["status"] == "ok" and report["error"] is None
    assert ulps(c, matmul_model(a, b, fp32)) <= 1
    exact = a.astype(np.float64) @ b.astype(np.float64)
    # Stated tolerance: relative to the magnitude of the products summed (|A| @ |B|), bf16 DST rounds once per
    # K tile (Kt = 4 roundings of 2^-9 relative each), fp32 DST only at the final pack.
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    bound = (4 if not fp32 else 1) * 2.0**-8 * scale + 1e-6
    assert np.all(np.abs(c.astype(np.float64) - exact) <= bound)


def test_matmul_several_cores(host_mesh: Path, tmp_path: Path) -> None:
    report, a, b, c = run_case(host_mesh, tmp_path, "matmul", 3, 2, 5, ncores=4)
    assert ulps(c, matmul_model(a, b, False)) <= 1
    assert [core["core"] for core in report["cores"]] == [[0, 0], [1, 0], [2, 0], [3, 0]]
    # 15 output tiles split 4/4/4/3.
    assert [core[COUNTERS.PACK_TILES] for core in report["cores"]] == [4, 4, 4, 3]


@pytest.mark.parametrize("fault", [None, ("writer", "DEADLOCK", 1), ("reader", "READ_OUTSIDE_RESERVATION", 2)])
def test_results_counters_and_reports_do_not_depend_on_the_pool_size(host_mesh: Path, tmp_path: Path,
                                                                      fault: tuple[str, str, int] | None) -> None:
    """Kernels are tasks run by $TT_EMU_THREADS threads: one thread, or more than cores here, gives the same."""
    outcomes = []
    for threads in ("1", "3"):
        try:
            report, _, _, c = run_case(host_mesh, tmp_path / threads, "matmul", 3, 2, 5, ncores=4, fault=fault,
                                       env={"TT_EMU_THREADS": threads})
            outcomes.append((report["cores"], report["total"], c.tobytes()))
        except TTEmulatorError as err:
            outcomes.append((str(err).splitlines()[0], err.returncode))
    assert outcomes[0] == outcomes[1]
    assert (fault is None) == (len(outcomes[0]) == 3)


def test_matmul_512_on_64_cores(host_mesh: Path, tmp_path: Path) -> None:
    # Its speed is measured by benchmarks/bench_tt_emulate.py, not asserted here (tests never assert on wall time).
    report, a, b, c = run_case(host_mesh, tmp_path, "matmul", 16, 16, 16, ncores=64)
    assert len(report["cores"]) == 64 and report["total"][COUNTERS.MATMUL_TILES] == 16**3
    assert ulps(c, matmul_model(a, b, False)) <= 1


@pytest.mark.parametrize("kernels", ["metal", "metal_device2"])  # metal_device2: Noc and CircularBuffer objects
def test_eltwise_add(host_mesh: Path, tmp_path: Path, kernels: str) -> None:
    report, a, b, c = run_case(host_mesh, tmp_path, "add", 2, 1, 3, ncores=2, kernels=kernels)
    expected = (a.astype(np.float32) + b.astype(np.float32)).astype(BF16)
    assert np.array_equal(c.view(np.uint16), expected.view(np.uint16))
    assert report["total"][COUNTERS.ELTWISE_TILES] == 6


def test_eltwise_exp(host_mesh: Path, tmp_path: Path) -> None:
    report, a, _, c = run_case(host_mesh, tmp_path, "exp", 1, 1, 2)
    assert ulps(c, np.exp(a.astype(np.float32))) <= 1
    assert report["total"][COUNTERS.SFPU_TILES] == 2 and report["total"][COUNTERS.COPY_TILES] == 2


def test_profile_2025_device_api(host_device: Path, tmp_path: Path) -> None:
    """NAMESPACE/MAIN entry, mm_init, InterleavedAddrGenFast + noc_async_*_tile, CreateDevice/EnqueueProgram."""
    report, a, b, c = run_case(host_device, tmp_path, "matmul", 2, 2, 2, ncores=2, profile=TT2025, kernels="tt2025")
    assert report["profile"] == TT2025
    assert ulps(c, matmul_model(a, b, False)) <= 1


@pytest.mark.parametrize(("fault", "diagnosis"), [
    (None, ""), ("MATH_AFTER_PACK", "matmul_tiles(0, 1, 0, 0, 0): math after a pack_tile in acquire_dst's section"),
    ("RELEASE_TWICE", "release_dst(): release_dst without acquire_dst")])
def test_profile_2025_tensor_accessor_and_one_call_dst_section(host_device: Path, tmp_path: Path, fault: str | None,
                                                               diagnosis: str) -> None:
    """What tt-metal's 2025 matmul examples use: TensorAccessorArgs/TensorAccessor in the 2025 dataflow_api.h (ttnn
    0.65.0 includes accessor/tensor_accessor.h), and acquire_dst/release_dst, the deprecated one-call DST section
    (the packer waits for release_dst: a math call after a pack in the section is reported, and so is a release of a
    section not held)."""
    if fault is None:
        _, a, b, c = run_case(host_device, tmp_path, "matmul", 2, 2, 2, ncores=2, profile=TT2025,
                              kernels="tt2025_legacy")
        assert ulps(c, matmul_model(a, b, False)) <= 1
        return
    with pytest.raises(TTEmulatorError, match=re.escape(diagnosis)):
        run_case(host_device, tmp_path, "matmul", 1, 2, 1, profile=TT2025, kernels="tt2025_legacy",
                 fault=("compute", fault, 0))


# ---------------------------------------------------------------------------------------------- counters


def test_counters_match_hand_computed_values(host_mesh: Path, tmp_path: Path) -> None:
    """Mt=2, Kt=3, Nt=2 on 2 cores: each core computes 2 output tiles, each from 3 (A, B) tile pairs."""
    report, *_ = run_case(host_mesh, tmp_path, "matmul", 2, 3, 2, ncores=2)
    c = COUNTERS
    per_core = {
        c.NOC_READS: 2 * 3 * 2, c.DRAM_BYTES_READ: 2 * 3 * 2 * 2048, c.READ_BARRIERS: 2 * 3,
        c.MATMUL_TILES: 2 * 3, c.PACK_TILES: 2, c.NOC_WRITES: 2, c.DRAM_BYTES_WRITTEN: 2 * 2048,
        c.WRITE_BARRIERS: 2, c.CB_PUSHES: 2 * 3 * 2 + 2, c.CB_POPS: 2 * 3 * 2 + 2, c.CB_PAGES_PUSHED: 14,
        c.ELTWISE_TILES: 0, c.SFPU_TILES: 0, c.COPY_TILES: 0, c.NOC_MULTICAST_WRITES: 0, c.NOC_MULTICAST_BYTES: 0,
        c.NOC_MULTICAST_LINKED_BYTES: 0,
        c.SEMAPHORE_INCS: 0, c.SEMAPHORE_MULTICASTS: 0, c.SEMAPHORE_WAITS: 0,
    }
    for core in report["cores"]:
        assert {k: core[k] for k in per_core} == per_core
    assert report["total"] == {k: 2 * v for k, v in per_core.items()}
    assert report["programs"] == 1
    assert set(report["kernels"]) == {"reader_matmul", "compute_matmul", "writer_tiles"}
    assert report["kernels"]["reader_matmul"]["path"] == str(CASES / "metal" / "reader_matmul.cpp")


# ---------------------------------------------------------------------------------------------- faults

# (kernel role, FAULT_<name>, core index, cores in the run, expected diagnosis after "<kernel>: ")
FAULTS = [
    ("reader", "PUSH_WITHOUT_RESERVE", 0, 1,
     "reader_matmul: cb_push_back(0, 1): pushing 1 page but only 0 reserved on CB 0"),
    ("reader", "RESERVE_BEYOND_CAPACITY", 0, 1,
     "reader_matmul: cb_reserve_back(0, 3): reserving 3 pages exceeds the capacity of CB 0 (2 pages)"),
    ("compute", "POP_MORE_THAN_WAITED", 0, 1,
     "compute_matmul: cb_pop_front(0, 2): popping 2 pages but only 1 waited on CB 0"),
    # get_write_ptr before any reservation is hardware's fifo_wr_ptr (the CB becomes L1 scratch, as ttnn's pad reader
    # uses its pad CB); using the CB as a FIFO afterwards is reported
    ("reader", "WRITE_PTR_OUTSIDE_RESERVATION", 0, 1,
     "reader_matmul: cb_reserve_back(0, 1): CB 0 is L1 scratch (a kernel took its pointer before any cb_reserve_back "
     "or cb_wait_front) and now a FIFO"),
    ("reader", "MISSING_READ_BARRIER", 1, 2,
     "reader_matmul: cb_push_back(0, 1): missing read barrier: reader_matmul's NoC read page 3 of DRAM buffer"),
    ("writer", "MISSING_WRITE_BARRIER", 0, 1,
     "writer_tiles: cb_pop_front(16, 1): missing write barrier: writer_tiles's NoC write L1 0x2000 (2048 B) -> "
     "page 0 of DRAM buffer"),
    ("reader", "OUT_OF_BOUNDS_PAGE", 1, 2,
     "reader_matmul: noc_async_read_page(9, 0x100000, 0x0): page 9 is out of bounds of DRAM buffer 0x100000 "
     "(6 pages of 2048 B)"),
    ("writer", "DEADLOCK", 1, 2,
     "writer_tiles: cb_wait_front(16, 1): deadlock: waits for 1 page(s) at the front of CB 16 (0 pushed and not "
     "popped) and no other kernel on the core can make progress (reader_matmul done, compute_matmul done)"),
    ("writer", "TWO_PRODUCERS", 1, 2,
     "writer_tiles: cb_reserve_back(0, 1): two producers on CB 0: it is already produced by reader_matmul"),
    ("compute", "MATH_WITHOUT_ACQUIRE", 0, 1,
     "compute_matmul: matmul_tiles(0, 1, 0, 0, 0): math without tile_regs_acquire"),
    ("compute", "PACK_BEFORE_WAIT", 0, 1, "compute_matmul: pack_tile(0, 16): pack_tile before tile_regs_wait"),
    ("compute", "DST_INDEX_BEYOND_CAPACITY", 0, 1,
     "compute_matmul: matmul_tiles(0, 1, 0, 0, 8): DST tile 8 is beyond the 8 tiles of a DST section"),
    ("reader", "READ_OUTSIDE_RESERVATION", 0, 1,
     "reader_matmul: noc_async_read_page(0, 0x100000, 0x800): L1 destination 0x800..0x1000 is outside the reserved "
     "pages of every CB (reserved: CB 0 0x0..0x800, CB 1 0x1000..0x1800)"),
    ("reader", "PENDING_READ_AT_END", 0, 1,
     "reader_matmul: kernel_main(): returned with 1 NoC read(s) pending (missing noc_async_read_barrier): read "
     "page 0 of DRAM buffer 0x100000"),
    ("compute", "ACQUIRE_TWICE", 0, 1, "compute_matmul: tile_regs_acquire(): tile_regs_acquire twice"),
    ("compute", "PACK_UNWRITTEN_DST", 0, 1,
     "compute_matmul: pack_tile(1, 16): pack_tile packs DST tile 1, which no math call wrote since tile_regs_acquire"),
    ("compute", "MISSING_HW_STARTUP", 0, 1,
     "compute_matmul: matmul_init(0, 1): no hardware start-up: call compute_kernel_hw_startup"),
    ("compute", "OPERAND_NOT_WAITED", 0, 1,
     "compute_matmul: matmul_tiles(0, 1, 1, 0, 0): tile 1 of CB 0 is not among its waited pages (1 waited)"),
    ("compute", "MISSING_MATMUL_INIT", 0, 1,
     "compute_matmul: matmul_tiles(0, 1, 0, 0, 0): missing math init: matmul_tiles needs matmul_init (or "
     "mm_init) since the last init of another operation (last FPU init: none)"),
]


# SFPU calls (forwarded by the rendered kernel API headers with their op-map code): (FAULT_<name>, diagnosis)
SFPU_FAULTS = [
    ("MISSING_SFPU_INIT", "compute_exp: exp_tile(0): missing math init: exp_tile needs exp_tile_init since the last "
                          "SFPU init of another operation (last SFPU init: none)"),
    ("SFPU_READS_UNWRITTEN_DST", "compute_exp: binary_max_tile(0, 1, 0): binary_max_tile reads DST tile 1, which no "
                                 "math call wrote since tile_regs_acquire (copy_tile the operand first)"),
]


@pytest.mark.parametrize(("fault", "diagnosis"), SFPU_FAULTS, ids=[f[0] for f in SFPU_FAULTS])
def test_sfpu_fault_is_reported(host_mesh: Path, tmp_path: Path, fault: str, diagnosis: str) -> None:
    with pytest.raises(TTEmulatorError) as info:
        run_case(host_mesh, tmp_path, "exp", 1, 1, 1, fault=("compute", fault, 0))
    first = str(info.value).splitlines()[0]
    assert first.startswith("tt_emu: error: core (0,0) ") and diagnosis in first, first


def test_a_kernel_spinning_without_api_calls_is_stopped_at_the_users_limit(
        host_mesh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TT_EMU_TIMEOUT", "3")  # the message names the limit it stopped at (not the 600 s default)
    with pytest.raises(TTEmulatorError, match=r"core \(0,0\) reader_matmul \[riscv_\d\] spins without calling the "
                                              r"API: still running after 3 s, its last API call was \w+\(.*\); set "
                                              r"TT_EMU_TIMEOUT"):
        run_case(host_mesh, tmp_path, "matmul", 1, 1, 1, 1, fault=("reader", "SPIN_WITHOUT_API_CALLS", 0))
    monkeypatch.setenv("TT_EMU_TIMEOUT", "soon")
    with pytest.raises(TTEmulatorError, match=r"TT_EMU_TIMEOUT='soon' is not a positive number of seconds"):
        emulator.run(host_mesh, [], METAL)


@pytest.mark.parametrize(("role", "fault", "core", "ncores", "diagnosis"), FAULTS, ids=[f[1] for f in FAULTS])
def test_fault_is_reported(host_mesh: Path, tmp_path: Path, role: str, fault: str, core: int, ncores: int,
                           diagnosis: str) -> None:
    with pytest.raises(TTEmulatorError) as info:
        run_case(host_mesh, tmp_path, "matmul", 2, 3, 2, ncores, fault=(role, fault, core))
    err = info.value
    text = str(err)
    first = text.splitlines()[0]
    assert err.returncode == emulator.EXIT_EMULATOR_ERROR
    assert first.startswith(f"tt_emu: error: core ({core},0) "), first
    assert diagnosis in first, first
    # The state dump of that core: every kernel's status, every CB, pending NoC transfers, DST and inits.
    assert f"core ({core},0) state:" in text
    for kernel in ("reader_matmul [riscv_1", "compute_matmul [compute", "writer_tiles [riscv_0"):
        assert kernel in text
    for cb in ("CB 0: Float16_b, 2 x 2048 B at L1 0x0", "CB 1: Float16_b", "CB 16: Float16_b"):
        assert cb in text
    assert "pending NoC transfers:" in text and "DST: " in text and "math: hardware start-up" in text
    assert err.report is not None and err.report["status"] == "error"
    assert err.report["error"] == first and f"core ({core},0) state:" in err.report["dump"]


def test_fault_dumps_show_the_state_that_explains_it(host_mesh: Path, tmp_path: Path) -> None:
    with pytest.raises(TTEmulatorError) as info:
        run_case(host_mesh, tmp_path / "read", "matmul", 2, 3, 2, fault=("reader", "MISSING_READ_BARRIER", 0))
    assert "reader_matmul: read page 0 of DRAM buffer 0x100000 (6 pages of 2048 B) -> L1 0x0 (2048 B)" in str(
        info.value)
    with pytest.raises(TTEmulatorError) as info:
        run_case(host_mesh, tmp_path / "dead", "matmul", 2, 3, 2, fault=("writer", "DEADLOCK", 0))
    text = str(info.value)
    assert "writer_tiles [riscv_0" in text and "failed in cb_wait_front(16, 1), waits for 1 page(s)" in text
    assert "CB 16: Float16_b, 2 x 2048 B at L1 0x2000; received 4, acked 4" in text
    assert "producer compute_matmul, consumer writer_tiles" in text


def test_fp32_dest_acc_halves_the_dst_section(host_mesh: Path, tmp_path: Path) -> None:
    with pytest.raises(TTEmulatorError, match=r"DST tile 8 is beyond the 4 tiles of a DST section "
                                              r"\(fp32_dest_acc_en, half-sync\)"):
        run_case(host_mesh, tmp_path, "matmul", 1, 1, 1, fp32=True, fault=("compute", "DST_INDEX_BEYOND_CAPACITY", 0))


def test_kernel_compile_error(host_mesh: Path, tmp_path: Path) -> None:
    with pytest.raises(TTEmulatorError) as info:
        run_case(host_mesh, tmp_path, "matmul", 1, 1, 1, fault=("compute", "COMPILE_ERROR", 0))
    text = str(info.value)
    assert info.value.returncode == emulator.EXIT_COMPILE_ERROR
    assert text.startswith(f"tt_emu: error: kernel compilation failed: {CASES / 'metal' / 'compute_matmul.cpp'}")
    assert "compute_matmul.cpp" in text and "this line is not C++" in text and "-DFAULT_COMPILE_ERROR" in text
    assert info.value.report is not None and info.value.report["status"] == "error"


def test_l1_overflow_names_the_cb_and_the_limit(host_mesh: Path, tmp_path: Path) -> None:
    with pytest.raises(TTEmulatorError) as info:
        run_case(host_mesh, tmp_path, "l1_overflow", 1, 1, 1)
    assert str(info.value) == ("tt_emu: error: host: CreateCircularBuffer: CB c_24 (1488896 B) does not fit in the "
                               "L1 of core (0,0): 12288 B are already used by CBs and the limit is 1499136 B "
                               "(1464 KiB)")


# ---------------------------------------------------------------------------------------------- driver


def test_kernel_cache_is_keyed_by_source_and_arguments(host_mesh: Path, tmp_path: Path) -> None:
    env = {"TT_EMU_CACHE": str(tmp_path / "cache")}
    first, *_ = run_case(host_mesh, tmp_path / "1", "add", 1, 1, 1, env=env)
    second, *_ = run_case(host_mesh, tmp_path / "2", "add", 1, 1, 1, env=env)
    assert not any(k["cached"] for k in first["kernels"].values())
    assert all(k["cached"] for k in second["kernels"].values())
    objects = sorted(p.name for p in (tmp_path / "cache" / "kernels").iterdir())
    # no temporaries left behind: three objects, each with its recorded digest and its builders' lock (jit.cpp)
    assert len(objects) == 9 and objects[1::3] == [o + ".digest" for o in objects[0::3]], objects
    assert objects[2::3] == [o + ".lock" for o in objects[0::3]], objects
    # A cache hit marks the object used (the bounded cache evicts by last use): back-date them, reuse, compare.
    for obj in (tmp_path / "cache" / "kernels").glob("*.so"):
        os.utime(obj, (1_000_000_000, 1_000_000_000))
    run_case(host_mesh, tmp_path / "3", "add", 1, 1, 1, env=env)
    assert all(obj.stat().st_mtime > 1_000_000_000 for obj in (tmp_path / "cache" / "kernels").glob("*.so"))


def test_tilize_layout_is_four_faces_per_tile(tmp_path: Path) -> None:
    out = emulator.run(emulator.build_host(CASES / "tilize_check.cpp"), [])["stdout"]
    got = np.array(out.split(), dtype=np.int64)
    m = np.arange(64 * 64).reshape(64, 64)
    tiles = [m[r:r + 32, c:c + 32] for r in (0, 32) for c in (0, 32)]
    faces = [t[fr:fr + 16, fc:fc + 16].ravel() for t in tiles for fr in (0, 16) for fc in (0, 16)]
    assert np.array_equal(got, np.concatenate(faces))


def test_driver_paths_and_errors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert (emulator.INCLUDE_DIRS[0] / "tt_emu" / "kernel_api.hpp").is_file()
    monkeypatch.setenv("TT_EMU_CACHE", str(tmp_path / "c"))
    assert emulator.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("TT_EMU_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert emulator.cache_dir() == tmp_path / "x" / "tilelang" / "tt_emu"
    monkeypatch.setenv("CXX", "no-such-compiler-xyz")  # host programs are compiled when they run
    with pytest.raises(TTEmulatorError, match=r"no C\+\+ compiler: .no-such-compiler-xyz. is not on PATH"):
        emulator.build_host(CASES / "tilize_check.cpp")


def test_the_runtime_library_is_built_at_install_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """libtt_emu.so comes from the install-time build (a checkout's build directory); nothing compiles it on first
    use, and without it host programs are not built: the error says what to run."""
    from tilelang import _layout, cpp

    assert emulator.library() == _layout.library_dir() / "libtt_emu.so"
    monkeypatch.setattr(_layout, "BUILD_DIR", tmp_path / "build")
    with pytest.raises(cpp.CppLibraryMissing, match=r"libtt_emu.so is not built .* run `make install` .* or "
                                                    r"`python -m tilelang.cpp`"):
        emulator.build_host(CASES / "tilize_check.cpp")
