"""A compute kernel may pack into CB pages the CB has never handed out without cb_reserve_back: on hardware the
compute side's cb_reserve_back only waits for free pages (llk_wait_for_free_tiles reads the consumer's tiles_acked
and moves no pointer; pack_tile writes at fifo_wr_ptr, which cb_push_back advances), and tt-metal's
add_2_integers_in_compute packs and pushes its one tile that way. A page that was pushed before is only free once
the consumer popped it, which cb_reserve_back waits for: packing into it without one is still refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilelang.tenstorrent import emulator

pytestmark = pytest.mark.xdist_group("cb_fresh")  # one host program, built once

MAIN = r"""
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string dir = argv[1];
    const uint32_t n = std::stoul(argv[2]);  // tiles copied through a one-page output CB
    constexpr uint32_t tile = 2048;
    IDevice* device = CreateDevice(0);
    InterleavedBufferConfig dram{device, n * tile, tile, BufferType::DRAM};
    auto src = CreateBuffer(dram);
    auto dst = CreateBuffer(dram);
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    for (auto cb : {tt::CBIndex::c_0, tt::CBIndex::c_16}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(tile, {{cb, tt::DataFormat::Float16_b}})
                                                .set_page_size(cb, tile));
    }
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, dir + "/reader.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default, .compile_args = reader_args});
    auto writer = CreateKernel(program, dir + "/writer.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default, .compile_args = writer_args});
    auto compute = CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{});
    SetRuntimeArgs(program, reader, core, {src->address(), n});
    SetRuntimeArgs(program, writer, core, {dst->address(), n});
    SetRuntimeArgs(program, compute, core, {n});
    std::vector<bfloat16> input(1024 * n);
    for (size_t i = 0; i < input.size(); ++i) input[i] = bfloat16(static_cast<float>(i % 251) - 125.0f);
    EnqueueWriteBuffer(device->command_queue(), src, input, false);
    EnqueueProgram(device->command_queue(), program, true);
    std::vector<bfloat16> output;
    EnqueueReadBuffer(device->command_queue(), dst, output, true);
    for (size_t i = 0; i < input.size(); ++i) TT_FATAL(output[i] == input[i], "value {} differs", i);
    CloseDevice(device);
    fmt::print("copied {} tiles\n", n);
    return 0;
}
"""

READER = """
void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), n = get_arg_val<uint32_t>(1);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(args, addr, get_tile_size(tt::CBIndex::c_0));
    for (uint32_t i = 0; i < n; ++i) {
        cb_reserve_back(tt::CBIndex::c_0, 1);
        noc_async_read_tile(i, src, get_write_ptr(tt::CBIndex::c_0));
        noc_async_read_barrier();
        cb_push_back(tt::CBIndex::c_0, 1);
    }
}
"""

WRITER = """
void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), n = get_arg_val<uint32_t>(1);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(args, addr, get_tile_size(tt::CBIndex::c_16));
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(tt::CBIndex::c_16, 1);
        noc_async_write_tile(i, dst, get_read_ptr(tt::CBIndex::c_16));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_16, 1);
    }
}
"""

# As add_2_integers_in_compute: pack_tile and cb_push_back on the output CB with no cb_reserve_back.
COMPUTE = """
#include "api/compute/tile_move_copy.h"
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0);
    compute_kernel_hw_startup(tt::CBIndex::c_0, tt::CBIndex::c_16);
    copy_init(tt::CBIndex::c_0);
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(tt::CBIndex::c_0, 1);
        tile_regs_acquire();
        copy_tile(tt::CBIndex::c_0, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, tt::CBIndex::c_16);
        tile_regs_release();
        cb_pop_front(tt::CBIndex::c_0, 1);
        cb_push_back(tt::CBIndex::c_16, 1);
    }
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    kernels = tmp_path_factory.mktemp("cb_fresh")
    for name, text in (("reader", READER), ("writer", WRITER), ("compute", COMPUTE)):
        (kernels / f"{name}.cpp").write_text(text)
    (kernels / "main.cpp").write_text(MAIN)
    return emulator.build_host(kernels / "main.cpp"), kernels


def test_packing_a_page_never_pushed_needs_no_reservation(program: tuple[Path, Path]) -> None:
    exe, kernels = program
    report = emulator.run(exe, [str(kernels), "1"])
    assert report["stdout"].endswith("copied 1 tiles\n")


def test_packing_a_page_pushed_before_without_a_reservation_is_refused(program: tuple[Path, Path]) -> None:
    """The second tile reuses the one page: the writer may still hold it, only cb_reserve_back waits for its pop."""
    exe, kernels = program
    with pytest.raises(emulator.TTEmulatorError, match=r"compute: pack_tile\(0, 16\): pack_tile writes page 0 of "
                                                       r"the reservation, but only 0 pages of CB 16 are reserved "
                                                       r"\(cb_reserve_back first\)"):
        emulator.run(exe, [str(kernels), "2"])
