"""ttnn 0.81.1's kernel API beyond the generated kernels' subset, each call on a kernel of the project's own
(tests/emulator_cases/ttnn_api/): the Metal 2.0 Noc class and its per-end arguments (noc_traits of a TensorAccessor
page and of a DataflowBuffer), DataflowBuffer, get_local_cb_interface, TensorAccessor with its default page size,
noc_async_writes_flushed, binary_tiles_init<full_init, EltwiseBinaryType>, the conditional (old, new)
reconfigurations, sfpu_split_includes.h, SFPU calls with template flags (recip.h's ReciprocalDestAcc and
ReciprocalApproxMode), the headers kernel_lib's eltwise chain and softmax.cpp include (llk_defs.h's
EltwiseBinaryReuseDestType, BroadcastType and ReluConfig, rsqrt.h's RsqrtMode, softmax.h, the refused SFPU
families), and kernel helpers found under $TT_METAL_HOME as tt-metal's JIT finds them. What is not emulated does
not compile, naming itself."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator

CASES = TESTS / "emulator_cases" / "ttnn_api"
TILES = 3


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(CASES / "host.cpp")


def run(host: Path, tmp_path: Path, *fault: str, env: dict[str, str] | None = None) -> tuple[dict, np.ndarray]:
    rng = np.random.default_rng(5)
    a, b = (rng.uniform(-4, 4, TILES * 1024).astype(np.float32) for _ in range(2))
    for name, x in (("a", a), ("b", b)):  # bf16 by truncation; tile order is all the kernels see
        (x.view(np.uint32) >> 16).astype(np.uint16).tofile(tmp_path / f"{name}.bin")
    report = emulator.run(host, [str(TILES), str(CASES), str(tmp_path), *fault],
                          env={"TT_METAL_DPRINT_CORES": "0,0", **(env or {})})
    bits = lambda x: ((x.view(np.uint32) >> 16) << 16).view(np.float32)  # noqa: E731
    c = (np.fromfile(tmp_path / "c.bin", dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)
    return report, (c - (bits(a) - bits(b))) / np.maximum(np.abs(bits(a) - bits(b)), 1.0)


def test_noc_dataflow_buffer_and_binary_tiles_init_compute_a_difference(host: Path, tmp_path: Path) -> None:
    """C = 1 / (1 / (A - B)): the difference, the reciprocal twice (`recip_tile<false>`, then softmax.cpp's
    `recip_tile<ReciprocalDestAcc::FP32, ReciprocalApproxMode::Precise>`), each packed to bf16."""
    report, error = run(host, tmp_path)
    assert np.abs(error).max() <= 0.02  # relative to the difference (at least 1): a few bf16 roundings
    # get_local_cb_interface: the page size and count of c_0, its size, and its limit the ring's end (start + size).
    assert "page 2048 pages 2 size 4096 span 4096" in report["stdout"]
    assert "entry 2048 entries 2" in report["stdout"]  # DataflowBuffer::get_entry_size / get_total_num_entries


@pytest.mark.parametrize(("role", "fault", "message"), [
    ("reader", "TXN_ID", "Noc::async_read: NocOptions (transaction ids, virtual channels) are not emulated"),
    ("compute", "ELWDIV", "binary_tiles_init: only ELWADD, ELWSUB and ELWMUL are emulated"),
    ("compute", "GELU", "an SFPU_OP_*_INCLUDE family the emulator does not have"),
    ("compute", "SIN", "sin_tile_init (api/compute/eltwise_unary/trigonometry.h) is not emulated: the emulator has no "
                       "such SFPU operation"),
    ("compute", "MASK", "mask_tile (api/compute/mask.h) is not emulated"),
    ("compute", "BCAST_ROW", "sub_tiles_bcast: only BroadcastType::COL and SCALAR are emulated"),
    ("reader", "HOME_HELPER", "emu_home_helper.hpp: No such file"),  # no TT_METAL_HOME: not found
])
def test_what_is_not_emulated_does_not_compile(host: Path, tmp_path: Path, role: str, fault: str,
                                               message: str) -> None:
    with pytest.raises(emulator.TTEmulatorError, match=re.escape(message)):
        run(host, tmp_path, role, fault)


def test_kernel_helpers_are_found_under_tt_metal_home(host: Path, tmp_path: Path) -> None:
    """As tt-metal's JIT: a kernel includes helpers by their paths from the tree's root, ttnn/ and ttnn/cpp/."""
    home = tmp_path / "home"
    (home / "ttnn" / "cpp").mkdir(parents=True)
    (home / "ttnn" / "cpp" / "emu_home_helper.hpp").write_text("constexpr uint32_t emu_home_helper_value = 41;\n")
    data = tmp_path / "data"
    data.mkdir()
    report, error = run(host, data, "reader", "HOME_HELPER", env={"TT_METAL_HOME": str(home)})
    assert "helper 41" in report["stdout"] and np.abs(error).max() <= 0.02


def test_popping_a_page_whose_write_was_neither_flushed_nor_landed_is_reported(host: Path, tmp_path: Path) -> None:
    """noc.async_writes_flushed before the pop lets the writer free the page (the data has left L1); without it the
    next tile overwrites the page while its write is in flight."""
    with pytest.raises(emulator.TTEmulatorError,
                       match=r"writer: cb_pop_front\(2, 1\): missing write barrier: .* \(call noc_async_write_barrier, "
                             r"or noc_async_writes_flushed, before cb_pop_front\)"):
        run(host, tmp_path, "writer", "NO_FLUSH")


def test_a_conditional_reconfiguration_between_equal_formats_changes_nothing(host: Path, tmp_path: Path) -> None:
    """reconfig_data_format_srca(old, new) reconfigures only when the formats differ (ttnn 0.81.1): after SrcA was
    switched to Float32, switching "back" from a bf16 CB to a bf16 CB leaves it Float32, and the next FPU op says so."""
    with pytest.raises(emulator.TTEmulatorError, match=re.escape(
            "sub_tiles uses CB 0 (Float16_b) through the unpacker's SrcA, which is configured for Float32 (CB 3, by "
            "reconfig_data_format_srca(1, 3))")):
        run(host, tmp_path, "compute", "STALE_RECONFIG")


def test_a_conditional_reconfiguration_of_both_sources_decides_per_source(host: Path, tmp_path: Path) -> None:
    """reconfig_data_format(old_a, new_a, old_b, new_b) reconfigures each source only when its formats differ: after
    reconfig_data_format_srcb switched SrcB to Float32, a bf16 -> bf16 "switch back" leaves it Float32."""
    with pytest.raises(emulator.TTEmulatorError, match=re.escape(
            "sub_tiles uses CB 1 (Float16_b) through the unpacker's SrcB, which is configured for Float32 (CB 3, by "
            "reconfig_data_format_srcb(3))")):
        run(host, tmp_path, "compute", "STALE_RECONFIG_B")
