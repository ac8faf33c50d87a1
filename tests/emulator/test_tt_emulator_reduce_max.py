"""reduce_tile<MAX, REDUCE_ROW> on a DST tile no math call wrote since tile_regs_acquire starts from the rows' own
values, as tt-metal's code relies on: ttnn's production reduce (kernel_lib reduce_helpers_compute.inl:
tile_regs_acquire, then reduce_tile<MAX>, no fill) and tt-metal's reduce_max programming example take the maxima of
all-negative rows. Later reduce_tiles into the same DST tile take the maximum with it (two tiles here). The column
reduction (REDUCE_COL, ttnn's reduce over H) folds each column into row 0, and the packer keeps only row 0."""

from __future__ import annotations

import pytest

from tilelang.tenstorrent import emulator

pytestmark = pytest.mark.xdist_group("reduce_max")

MAIN = r"""
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string dir = argv[1];
    constexpr uint32_t tile = 2048;
    IDevice* device = CreateDevice(0);
    auto src = CreateBuffer(InterleavedBufferConfig{device, 2 * tile, tile, BufferType::DRAM});
    auto scaler = CreateBuffer(InterleavedBufferConfig{device, tile, tile, BufferType::DRAM});
    auto dst = CreateBuffer(InterleavedBufferConfig{device, tile, tile, BufferType::DRAM});
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    for (auto cb : {tt::CBIndex::c_0, tt::CBIndex::c_1, tt::CBIndex::c_16}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(tile, {{cb, tt::DataFormat::Float16_b}})
                                                .set_page_size(cb, tile));
    }
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src).append_to(reader_args);
    TensorAccessorArgs(*scaler).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    auto reader = CreateKernel(program, dir + "/reader.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default, .compile_args = reader_args});
    auto writer = CreateKernel(program, dir + "/writer.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default, .compile_args = writer_args});
    CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{});
    SetRuntimeArgs(program, reader, core, {src->address(), scaler->address()});
    SetRuntimeArgs(program, writer, core, {dst->address()});
    // Two 32x32 tiles side by side, all negative: row r holds -(r + 1) - c / 8 (c < 32) then -(r + 2) - c / 8.
    std::vector<bfloat16> a(2 * 1024), b(1024);
    for (int r = 0; r < 32; ++r) for (int c = 0; c < 32; ++c) {
        a[r * 32 + c] = bfloat16(-(r + 1) - c / 8.0f);
        b[r * 32 + c] = bfloat16(-(r + 2) - c / 8.0f);
    }
    std::vector<bfloat16> input = tilize_nfaces(std::vector<bfloat16>(a.begin(), a.begin() + 1024), 32, 32);
    std::vector<bfloat16> second = tilize_nfaces(b, 32, 32);
    input.insert(input.end(), second.begin(), second.end());
    std::vector<bfloat16> scaler_tile(1024, bfloat16(0.0f));
    for (int c = 0; c < 32; ++c) scaler_tile[c] = scaler_tile[16 * 32 + c] = bfloat16(1.0f);
    EnqueueWriteBuffer(device->command_queue(), src, input, false);
    EnqueueWriteBuffer(device->command_queue(), scaler, tilize_nfaces(scaler_tile, 32, 32), false);
    EnqueueProgram(device->command_queue(), program, true);
    std::vector<bfloat16> out;
    EnqueueReadBuffer(device->command_queue(), dst, out, true);
    out = untilize_nfaces(out, 32, 32);
    for (int r = 0; r < 32; ++r) fmt::print("{}\n", static_cast<float>(out[r * 32]));  // column 0
    for (int c = 0; c < 32; ++c) fmt::print("{}\n", static_cast<float>(out[c]));       // row 0
    CloseDevice(device);
    return 0;
}
"""

READER = """
void kernel_main() {
    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr auto scaler_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(src_args, get_arg_val<uint32_t>(0), get_tile_size(0));
    const auto scaler = TensorAccessor(scaler_args, get_arg_val<uint32_t>(1), get_tile_size(1));
    cb_reserve_back(1, 1);
    noc_async_read_tile(0, scaler, get_write_ptr(1));
    noc_async_read_barrier();
    cb_push_back(1, 1);
    for (uint32_t t = 0; t < 2; ++t) {
        cb_reserve_back(0, 1);
        noc_async_read_tile(t, src, get_write_ptr(0));
        noc_async_read_barrier();
        cb_push_back(0, 1);
    }
}
"""

WRITER = """
void kernel_main() {
    constexpr auto args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(args, get_arg_val<uint32_t>(0), get_tile_size(16));
    cb_wait_front(16, 1);
    noc_async_write_tile(0, dst, get_read_ptr(16));
    noc_async_write_barrier();
    cb_pop_front(16, 1);
}
"""

# As tt-metal's reduce_max example: no fill of DST before the first reduce_tile<MAX>.
COMPUTE = """
#include "api/compute/reduce.h"
void kernel_main() {
    compute_kernel_hw_startup(0, 1, 16);
    reduce_init<PoolType::MAX, ReduceDim::DIM>(0, 1, 16);
    cb_wait_front(1, 1);
    tile_regs_acquire();
    for (uint32_t t = 0; t < 2; ++t) {
        cb_wait_front(0, 1);
        reduce_tile<PoolType::MAX, ReduceDim::DIM>(0, 1, 0, 0, 0);
        cb_pop_front(0, 1);
    }
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(16, 1);
    pack_tile(0, 16);
    cb_push_back(16, 1);
    tile_regs_release();
    reduce_uninit();  // ttnn 0.81.1: icb defaults to 0 (tt-metal's softmax example calls it so)
    cb_pop_front(1, 1);
}
"""


@pytest.mark.parametrize("dim", ["REDUCE_ROW", "REDUCE_COL"])
def test_the_max_of_negative_rows_needs_no_fill(tmp_path_factory: pytest.TempPathFactory, dim: str) -> None:
    kernels = tmp_path_factory.mktemp("reduce_max")
    compute = COMPUTE.replace("ReduceDim::DIM", f"ReduceDim::{dim}")
    for name, text in (("reader", READER), ("writer", WRITER), ("compute", compute), ("main", MAIN)):
        (kernels / f"{name}.cpp").write_text(text)
    report = emulator.run(emulator.build_host(kernels / "main.cpp"), [str(kernels)])
    values = [float(line) for line in report["stdout"].split()]
    column0, row0 = values[:32], values[32:]
    if dim == "REDUCE_ROW":  # the first tile's column 0 beats the second's; the rest of row 0 is masked
        assert column0 == [-(r + 1.0) for r in range(32)] and row0 == [-1.0] + [0.0] * 31
    else:  # each column's maximum is its row 0 in the first tile; the rest of column 0 is masked
        assert row0 == [-1.0 - c / 8 for c in range(32)] and column0 == [-1.0] + [0.0] * 31
