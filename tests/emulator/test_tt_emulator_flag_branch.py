"""A branch on a value read from DRAM, taken alike by all three kernels (issue 28: block-sparse attention's
`if BlockSparseMask[...]` around a whole step): the reader reads step i's mask page into its flag CB and reads the
word through an L1 pointer (the l1_word intrinsic, spelled as the API profile writes it) before pushing the page;
the compute kernel reads the same word with read_tile_value; the writer reads the page into a CB of its own and reads
the word as the reader does. Each takes the step (read, copy, write a tile) only where the value is set. A kernel
that takes the other branch leaves the CBs unbalanced, which the emulator reports as the deadlock hardware hangs in."""

from __future__ import annotations

from pathlib import Path

import pytest

from tilelang.tenstorrent import INTRINSICS, api_profile, emulator
from tilelang.tenstorrent.kernel_cpp import spelled_call

pytestmark = [pytest.mark.xdist_group("flag_branch"),  # one host program, built once
              pytest.mark.skipif(api_profile() not in INTRINSICS["read_tile_value"].cpp,
                                 reason="the API profile has no read_tile_value")]

MAIN = r"""
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string dir = argv[1];
    const std::string flags = argv[2];  // one character '0'/'1' per step
    const uint32_t mode = std::stoul(argv[3]);  // 1: the compute kernel inverts the test; 2: the writer does
    const uint32_t n = flags.size();
    constexpr uint32_t tile = 2048, flag_page = 32;
    IDevice* device = CreateDevice(0);
    auto src = CreateBuffer(InterleavedBufferConfig{device, n * tile, tile, BufferType::DRAM});
    auto dst = CreateBuffer(InterleavedBufferConfig{device, n * tile, tile, BufferType::DRAM});
    auto mask = CreateBuffer(InterleavedBufferConfig{device, n * flag_page, flag_page, BufferType::DRAM});
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    auto cb = [&](tt::CBIndex index, uint32_t bytes, tt::DataFormat format) {
        CreateCircularBuffer(program, core, CircularBufferConfig(bytes, {{index, format}}).set_page_size(index, bytes));
    };
    cb(tt::CBIndex::c_0, tile, tt::DataFormat::Float16_b);
    cb(tt::CBIndex::c_16, tile, tt::DataFormat::Float16_b);
    cb(tt::CBIndex::c_1, flag_page, tt::DataFormat::UInt32);  // reader -> compute
    cb(tt::CBIndex::c_2, flag_page, tt::DataFormat::UInt32);  // the writer's own
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src).append_to(reader_args);
    TensorAccessorArgs(*mask).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    TensorAccessorArgs(*mask).append_to(writer_args);
    auto reader = CreateKernel(program, dir + "/reader.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default, .compile_args = reader_args});
    auto writer = CreateKernel(program, dir + "/writer.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default, .compile_args = writer_args});
    auto compute = CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{});
    SetRuntimeArgs(program, reader, core, {src->address(), mask->address(), n});
    SetRuntimeArgs(program, writer, core, {dst->address(), mask->address(), n, mode == 2 ? 1u : 0u});
    SetRuntimeArgs(program, compute, core, {n, mode == 1 ? 1u : 0u});
    std::vector<bfloat16> input(1024 * n), output(1024 * n, bfloat16(-1.0f));
    for (size_t i = 0; i < input.size(); ++i) input[i] = bfloat16(static_cast<float>(i / 1024 + 1));
    std::vector<uint32_t> words(n * flag_page / 4, 0);
    for (uint32_t i = 0; i < n; ++i) words[i * 8 + i % 8] = flags[i] == '1' ? 7 : 0;  // step i: word i % 8
    EnqueueWriteBuffer(device->command_queue(), src, input, false);
    EnqueueWriteBuffer(device->command_queue(), dst, output, false);
    EnqueueWriteBuffer(device->command_queue(), mask, words, false);
    EnqueueProgram(device->command_queue(), program, true);
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
    const auto mask = TensorAccessor(mask_args, mask_addr, 32);
    for (uint32_t i = 0; i < n; ++i) {
        cb_reserve_back(tt::CBIndex::c_1, 1);
        noc_async_read_page(i, mask, get_write_ptr(tt::CBIndex::c_1));
        noc_async_read_barrier();
        const uint32_t flag = @WORD@;
        cb_push_back(tt::CBIndex::c_1, 1);
        if (flag != 0) {
            cb_reserve_back(tt::CBIndex::c_0, 1);
            noc_async_read_tile(i, src, get_write_ptr(tt::CBIndex::c_0));
            noc_async_read_barrier();
            cb_push_back(tt::CBIndex::c_0, 1);
        }
    }
}
"""

WRITER = """
void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), mask_addr = get_arg_val<uint32_t>(1), n = get_arg_val<uint32_t>(2);
    const uint32_t invert = get_arg_val<uint32_t>(3);
    constexpr auto args = TensorAccessorArgs<0>();
    constexpr auto mask_args = TensorAccessorArgs<args.next_compile_time_args_offset()>();
    const auto dst = TensorAccessor(args, addr, get_tile_size(tt::CBIndex::c_16));
    const auto mask = TensorAccessor(mask_args, mask_addr, 32);
    for (uint32_t i = 0; i < n; ++i) {
        cb_reserve_back(tt::CBIndex::c_2, 1);  // read here and never pushed: the writer's own page
        noc_async_read_page(i, mask, get_write_ptr(tt::CBIndex::c_2));
        noc_async_read_barrier();
        const uint32_t flag = @WORD@;
        if ((flag != 0) != (invert != 0)) {
            cb_wait_front(tt::CBIndex::c_16, 1);
            noc_async_write_tile(i, dst, get_read_ptr(tt::CBIndex::c_16));
            noc_async_write_barrier();
            cb_pop_front(tt::CBIndex::c_16, 1);
        }
    }
}
"""

COMPUTE = """
#include "api/compute/tile_move_copy.h"
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0), invert = get_arg_val<uint32_t>(1);
    compute_kernel_hw_startup(tt::CBIndex::c_0, tt::CBIndex::c_16);
    copy_init(tt::CBIndex::c_0);
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(tt::CBIndex::c_1, 1);
        const uint32_t flag = read_tile_value(tt::CBIndex::c_1, 0, i % 8);
        cb_pop_front(tt::CBIndex::c_1, 1);
        if ((flag != 0) != (invert != 0)) {
            cb_wait_front(tt::CBIndex::c_0, 1);
            tile_regs_acquire();
            copy_tile(tt::CBIndex::c_0, 0, 0);
            tile_regs_commit();
            tile_regs_wait();
            cb_reserve_back(tt::CBIndex::c_16, 1);
            pack_tile(0, tt::CBIndex::c_16);
            cb_push_back(tt::CBIndex::c_16, 1);
            tile_regs_release();
            cb_pop_front(tt::CBIndex::c_0, 1);
        }
    }
}
"""


def word(cb: str) -> str:
    """Step i's word of the page at the back of `cb`, as generated code spells the l1_word intrinsic."""
    return spelled_call(INTRINSICS["l1_word"].cpp[api_profile()], [f"get_write_ptr({cb})", "i % 8"])


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    kernels = tmp_path_factory.mktemp("flag_branch")
    (kernels / "reader.cpp").write_text(READER.replace("@WORD@", word("tt::CBIndex::c_1")))
    (kernels / "writer.cpp").write_text(WRITER.replace("@WORD@", word("tt::CBIndex::c_2")))
    (kernels / "compute.cpp").write_text(COMPUTE)
    (kernels / "main.cpp").write_text(MAIN)
    return emulator.build_host(kernels / "main.cpp"), kernels


def test_l1_word_is_spelled_as_a_subscript_of_the_cast_pointer() -> None:
    assert word("7") == "reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(7))[i % 8]"


def test_all_three_kernels_take_the_branch_the_dram_value_picks(program: tuple[Path, Path]) -> None:
    """Step i's tile (holding i + 1) reaches the output where its value is set; elsewhere the output keeps -1."""
    exe, kernels = program
    flags = "1011000110"
    report = emulator.run(exe, [str(kernels), flags, "0"])
    got = [int(v) for v in report["stdout"].splitlines()[-1].split()]
    assert got == [i + 1 if f == "1" else -1 for i, f in enumerate(flags)]


@pytest.mark.parametrize("mode, blocked", [("1", r"reader: cb_reserve_back\(0, 1\): deadlock"),
                                           ("2", r"compute: cb_reserve_back\(16, 1\): deadlock")])
def test_a_kernel_taking_the_other_branch_is_reported(program: tuple[Path, Path], mode: str, blocked: str) -> None:
    """Mode 1: the compute kernel takes one step where the reader pushes three tiles (the reader blocks on the full
    CB); mode 2: the writer takes one step where the compute kernel packs three. (A mismatch that happens to move as
    many pages each way runs to the end with wrong data, as on hardware.)"""
    exe, kernels = program
    with pytest.raises(emulator.TTEmulatorError, match=blocked):
        emulator.run(exe, [str(kernels), "0111", mode])
