"""read_tile_value (ttnn 0.77/0.81 api/compute/cb_api.h): how a compute kernel reads a word that a dataflow kernel
put in a CB page, e.g. a block-sparse GEMM's mask byte read from DRAM, and branches on it (the unpack thread reads
L1 at the CB's read pointer and passes the word to the math and pack threads). Here the reader reads a 32-byte page
of flags once and two tiles per step; the compute kernel copies tile 1 of the step where the step's flag byte is
set, tile 0 elsewhere. A word of a page not yet waited for, and one past the page, are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilelang.tenstorrent import emulator

pytestmark = pytest.mark.xdist_group("tile_value")  # one host program, built once

MAIN = r"""
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string dir = argv[1];
    const std::string flags = argv[2];  // one character '0'/'1' per step
    const uint32_t mode = std::stoul(argv[3]);
    const uint32_t n = flags.size();
    constexpr uint32_t tile = 2048, flag_page = 32;
    IDevice* device = CreateDevice(0);
    auto src = CreateBuffer(InterleavedBufferConfig{device, 2 * n * tile, tile, BufferType::DRAM});
    auto dst = CreateBuffer(InterleavedBufferConfig{device, n * tile, tile, BufferType::DRAM});
    auto mask = CreateBuffer(InterleavedBufferConfig{device, flag_page, flag_page, BufferType::DRAM});
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    CreateCircularBuffer(program, core, CircularBufferConfig(2 * tile, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
                                            .set_page_size(tt::CBIndex::c_0, tile));
    CreateCircularBuffer(program, core, CircularBufferConfig(tile, {{tt::CBIndex::c_16, tt::DataFormat::Float16_b}})
                                            .set_page_size(tt::CBIndex::c_16, tile));
    CreateCircularBuffer(program, core, CircularBufferConfig(flag_page, {{tt::CBIndex::c_1, tt::DataFormat::UInt8}})
                                            .set_page_size(tt::CBIndex::c_1, flag_page));
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src).append_to(reader_args);
    TensorAccessorArgs(*mask).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, dir + "/reader.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default, .compile_args = reader_args});
    auto writer = CreateKernel(program, dir + "/writer.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default, .compile_args = writer_args});
    auto compute = CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{});
    SetRuntimeArgs(program, reader, core, {src->address(), mask->address(), n});
    SetRuntimeArgs(program, writer, core, {dst->address(), n});
    SetRuntimeArgs(program, compute, core, {n, mode});
    std::vector<bfloat16> input(2 * 1024 * n);
    for (size_t i = 0; i < input.size(); ++i) input[i] = bfloat16(static_cast<float>(i / 1024));  // tile t holds t
    std::vector<uint8_t> bytes(flag_page, 0);
    for (uint32_t i = 0; i < n; ++i) bytes[i] = flags[i] == '1' ? 1 : 0;
    EnqueueWriteBuffer(device->command_queue(), src, input, false);
    EnqueueWriteBuffer(device->command_queue(), mask, bytes, false);
    EnqueueProgram(device->command_queue(), program, true);
    std::vector<bfloat16> output;
    EnqueueReadBuffer(device->command_queue(), dst, output, true);
    for (uint32_t i = 0; i < n; ++i) fmt::print("{} ", static_cast<int>(static_cast<float>(output[i * 1024])));
    fmt::print("\n");
    CloseDevice(device);
    return 0;
}
"""

READER = """
void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), mask_addr = get_arg_val<uint32_t>(1), n = get_arg_val<uint32_t>(2);
    constexpr auto args = TensorAccessorArgs<0>();
    constexpr auto mask_args = TensorAccessorArgs<args.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(args, addr, get_tile_size(tt::CBIndex::c_0));
    // The mask's DRAM page is 32 B: get_tile_size(c_1) is a whole UInt8 tile (1024 B), as on hardware.
    const auto mask = TensorAccessor(mask_args, mask_addr, 32);
    cb_reserve_back(tt::CBIndex::c_1, 1);
    noc_async_read_page(0, mask, get_write_ptr(tt::CBIndex::c_1));
    noc_async_read_barrier();
    cb_push_back(tt::CBIndex::c_1, 1);
    for (uint32_t i = 0; i < n; ++i) {
        cb_reserve_back(tt::CBIndex::c_0, 2);
        for (uint32_t t = 0; t < 2; ++t) {
            noc_async_read_tile(2 * i + t, src, get_write_ptr(tt::CBIndex::c_0) + t * get_tile_size(tt::CBIndex::c_0));
        }
        noc_async_read_barrier();
        cb_push_back(tt::CBIndex::c_0, 2);
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

# mode 1: a word read before the page is waited for; mode 2: word 8 of a 32-byte page.
COMPUTE = """
#include "api/compute/tile_move_copy.h"
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0), mode = get_arg_val<uint32_t>(1);
    compute_kernel_hw_startup(tt::CBIndex::c_0, tt::CBIndex::c_16);
    copy_init(tt::CBIndex::c_0);
    if (mode == 1) read_tile_value(tt::CBIndex::c_1, 0, 0);
    cb_wait_front(tt::CBIndex::c_1, 1);
    if (mode == 2) read_tile_value(tt::CBIndex::c_1, 0, 8);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t flag = (read_tile_value(tt::CBIndex::c_1, 0, i / 4) >> (8 * (i % 4))) & 0xff;
        cb_wait_front(tt::CBIndex::c_0, 2);
        tile_regs_acquire();
        copy_tile(tt::CBIndex::c_0, flag ? 1 : 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(tt::CBIndex::c_16, 1);
        pack_tile(0, tt::CBIndex::c_16);
        cb_push_back(tt::CBIndex::c_16, 1);
        tile_regs_release();
        cb_pop_front(tt::CBIndex::c_0, 2);
    }
    cb_pop_front(tt::CBIndex::c_1, 1);
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    kernels = tmp_path_factory.mktemp("tile_value")
    for name, text in (("reader", READER), ("writer", WRITER), ("compute", COMPUTE)):
        (kernels / f"{name}.cpp").write_text(text)
    (kernels / "main.cpp").write_text(MAIN)
    return emulator.build_host(kernels / "main.cpp"), kernels


def test_compute_kernel_branches_on_a_flag_byte_read_from_dram(program: tuple[Path, Path]) -> None:
    """Step i copies tile 2i + flag_i: the flags' bytes sit in words 0 to 2 of the page, each at its byte."""
    exe, kernels = program
    flags = "1011000101"
    report = emulator.run(exe, [str(kernels), flags, "0"])
    got = [int(v) for v in report["stdout"].splitlines()[-1].split()]
    assert got == [2 * i + int(f) for i, f in enumerate(flags)]


def test_a_word_of_a_page_not_waited_for_is_refused(program: tuple[Path, Path]) -> None:
    exe, kernels = program
    message = r"compute: read_tile_value\(1, 0, 0\): page 0 of CB 1 is not among its waited pages \(0 waited\)"
    with pytest.raises(emulator.TTEmulatorError, match=message):
        emulator.run(exe, [str(kernels), "1", "1"])


def test_a_word_beyond_the_page_is_refused(program: tuple[Path, Path]) -> None:
    exe, kernels = program
    with pytest.raises(emulator.TTEmulatorError, match=r"read_tile_value\(1, 0, 8\): word 8 is beyond the 32 B "
                                                       r"pages of CB 1"):
        emulator.run(exe, [str(kernels), "1", "2"])
