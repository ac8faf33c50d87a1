"""TSLICE (api/debug/dprint_tile.h), as tt-metal's programming examples print tiles: a slice of a CB's tile,
read at the pointer the kernel names, printed as tt-metal's debug print server prints a TileSlice (the values of a
row separated by spaces, a line per row, truncated after the slice's 64 bytes with tt-metal's message). The
kernels compile under tt-metal's JIT warning flags (an unused variable is no error), the reader names its CB by a
named compile-time argument (get_named_compile_time_arg_val, as tt-metal's vecadd_multi_core does) and the host
includes <fmt/base.h>, as tt-metal's newer examples do."""

from __future__ import annotations

import ml_dtypes
import pytest

from tilelang.tenstorrent import emulator

pytestmark = pytest.mark.xdist_group("dprint_tile")

MAIN = r"""
#include <fmt/base.h>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string dir = argv[1];
    IDevice* device = CreateDevice(0);
    auto src = CreateBuffer(InterleavedBufferConfig{device, 2048, 2048, BufferType::DRAM});
    Program program = CreateProgram();
    CreateCircularBuffer(program, CoreCoord{0, 0}, CircularBufferConfig(2048, {{0, tt::DataFormat::Float16_b}})
                                                       .set_page_size(0, 2048));
    std::vector<uint32_t> args;
    TensorAccessorArgs(*src).append_to(args);
    auto reader = CreateKernel(program, dir + "/reader.cpp", CoreCoord{0, 0},
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default, .compile_args = args,
                                                  .named_compile_args = {{"cb_in", 0}, {"unused", 7}}});
    auto writer = CreateKernel(program, dir + "/writer.cpp", CoreCoord{0, 0},
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default});
    SetRuntimeArgs(program, reader, CoreCoord{0, 0}, {src->address()});
    SetRuntimeArgs(program, writer, CoreCoord{0, 0}, {});
    std::vector<bfloat16> tile(1024);  // element (r, c) = 4 r + c / 4, rounded to bfloat16
    for (int r = 0; r < 32; ++r) for (int c = 0; c < 32; ++c) tile[r * 32 + c] = bfloat16(r * 4 + c * 0.25f);
    EnqueueWriteBuffer(device->command_queue(), src, tilize_nfaces(tile, 32, 32), true);
    EnqueueProgram(device->command_queue(), program, true);
    CloseDevice(device);
    fmt::print("done\n");
    return 0;
}
"""

READER = """
#include "api/debug/dprint_tile.h"
void kernel_main() {
    uint32_t unused_as_in_tt_metal_examples = 0;  // tt-metal's JIT: -Wno-unused-variable
    constexpr uint32_t cb = get_named_compile_time_arg_val("cb_in");
    static_assert(get_named_compile_time_arg_val("unused") == 7);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(args, get_arg_val<uint32_t>(0), get_tile_size(cb));
    cb_reserve_back(cb, 1);
    noc_async_read_tile(0, src, get_write_ptr(cb));
    noc_async_read_barrier();
    DPRINT("{}\\n", TSLICE(cb, 0, SliceRange::h0_w0_32(), TSLICE_OUTPUT_CB));  // NCRISC: the write pointer
    cb_push_back(cb, 1);
}
"""

WRITER = """
#include "api/debug/dprint_tile.h"
void kernel_main() {
    cb_wait_front(0, 1);
    DPRINT("{}\\n", TSLICE(0, 0, SliceRange::h0_32_w1(), TSLICE_INPUT_CB, TSLICE_RD_PTR, false));
    DPRINT("{}", TSLICE(0, 0, SliceRange::hw0_32_4(), TSLICE_INPUT_CB));  // BRISC: the read pointer
    DPRINT("{}", TSLICE(0, 0, SliceRange::hw041(), TSLICE_INPUT_CB, TSLICE_RD_PTR, true, false));
    cb_pop_front(0, 1);
}
"""


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    kernels = tmp_path_factory.mktemp("dprint_tile")
    for name, text in (("reader", READER), ("writer", WRITER), ("main", MAIN)):
        (kernels / f"{name}.cpp").write_text(text)
    report = emulator.run(emulator.build_host(kernels / "main.cpp"), [str(kernels)],
                          env={"TT_METAL_DPRINT_CORES": "0,0"})
    return report["stdout"].splitlines()


def _v(r: int, c: int) -> str:
    """Element (r, c) as the host wrote it (4 r + c / 4 rounded to bfloat16) and an ostream prints a float."""
    return f"{float(ml_dtypes.bfloat16(r * 4 + c * 0.25)):g}"


def test_a_row_slice_is_one_line_of_values(printed: list[str]) -> None:
    assert "0:(x=0,y=0):NC: " + " ".join(_v(0, c) for c in range(32)) in printed


def test_rows_without_endl_rows_run_together_as_tt_metals_server_prints_them(printed: list[str]) -> None:
    """The server separates the values of a row only: [0:32, 1] without endl_rows is 32 values with nothing
    between them."""
    assert "0:(x=0,y=0):BR: " + "".join(_v(r, 1) for r in range(32)) in printed


def test_a_slice_beyond_64_bytes_is_truncated_with_tt_metals_message(printed: list[str]) -> None:
    """[0:32:4, 0:32:4] is 64 values; 32 bfloat16 fit in the TSLICE's 64 bytes: 4 rows of 8, then the message."""
    rows = [" ".join(_v(h, w) for w in range(0, 32, 4)) for h in range(0, 16, 4)]
    start = printed.index(f"0:(x=0,y=0):BR: {rows[0]}")
    assert printed[start:start + 5] == [f"0:(x=0,y=0):BR: {row}" for row in rows] + [
        "0:(x=0,y=0):BR: <TileSlice data truncated due to exceeding max count (32)>"]


def test_print_untilized_false_reads_the_tile_in_memory_order(printed: list[str]) -> None:
    """[0:4, 0:4] of the page as it lies in L1: memory positions 0..3, 32..35, 64..67, 96..99 are rows 0, 2, 4 and
    6 of face 0 (16 values a face row), columns 0..3."""
    expected = [" ".join(_v(r, c) for c in range(4)) for r in (0, 2, 4, 6)]
    start = printed.index(f"0:(x=0,y=0):BR: {expected[0]}")
    assert printed[start:start + 4] == [f"0:(x=0,y=0):BR: {row}" for row in expected]
