"""The Int32 SFPU calls (specs/intrinsics/int32_sfpu.yaml, src/emulator/src/kapi_int32.cpp) in a hand-written
ttnn 0.81.1 program, against numpy: sfpu_reduce<MAX, Int32, REDUCE_ROW> over two tiles side by side (signed: rows of
INT32_MIN and of negatives), and where_tile<Int32> choosing between a tile and fill_tile_int<Int32>(-1) by a
condition whose bits are tested (INT32_MIN, 0x80000000, is not zero). DST holds the two's-complement bits the host
wrote (the unpacker and packer move Int32 unchanged)."""

from __future__ import annotations

import numpy as np
import pytest

from tilelang.tenstorrent import emulator

pytestmark = pytest.mark.xdist_group("int32_sfpu")

# a[t][r][c] as main.cpp computes it: a hash of (t, r, c) as uint32 then int32 bits; row 3 INT32_MIN + c in both
# tiles, row 4 INT32_MIN everywhere. cond[r][c]: 0 where (r + c) % 3 == 0, else r * 32 + c; cond[0][1] = INT32_MIN.
DATA = """
    auto a_at = [](int t, int r, int c) -> int32_t {
        if (r == 3) return INT32_MIN + c;
        if (r == 4) return INT32_MIN;
        return static_cast<int32_t>(uint32_t(r) * 1103515245u + uint32_t(c) * 12345u + uint32_t(t) * 2654435761u);
    };
    auto cond_at = [](int r, int c) -> int32_t {
        if (r == 0 && c == 1) return INT32_MIN;
        return (r + c) % 3 == 0 ? 0 : r * 32 + c;
    };
"""

MAIN = r"""
#include <climits>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const std::string dir = argv[1];
    constexpr uint32_t tile = 4096;
    IDevice* device = CreateDevice(0);
    auto src = CreateBuffer(InterleavedBufferConfig{device, 3 * tile, tile, BufferType::DRAM});
    auto dst = CreateBuffer(InterleavedBufferConfig{device, 2 * tile, tile, BufferType::DRAM});
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    for (auto cb : {tt::CBIndex::c_0, tt::CBIndex::c_16}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(3 * tile, {{cb, tt::DataFormat::Int32}})
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
    CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{.fp32_dest_acc_en = true});
    SetRuntimeArgs(program, reader, core, {src->address()});
    SetRuntimeArgs(program, writer, core, {dst->address()});
""" + DATA + r"""
    std::vector<int32_t> input;
    for (int t = 0; t < 3; ++t) {
        std::vector<int32_t> m(1024);
        for (int r = 0; r < 32; ++r) for (int c = 0; c < 32; ++c) m[r * 32 + c] = t < 2 ? a_at(t, r, c) : cond_at(r, c);
        std::vector<int32_t> tiled = tilize_nfaces(m, 32, 32);
        input.insert(input.end(), tiled.begin(), tiled.end());
    }
    EnqueueWriteBuffer(device->command_queue(), src, input, false);
    EnqueueProgram(device->command_queue(), program, true);
    std::vector<int32_t> out;
    EnqueueReadBuffer(device->command_queue(), dst, out, true);
    for (int t = 0; t < 2; ++t) {
        std::vector<int32_t> one(out.begin() + t * 1024, out.begin() + (t + 1) * 1024);
        std::vector<int32_t> m = untilize_nfaces(one, 32, 32);
        for (int32_t v : m) fmt::print("{}\n", v);
    }
    CloseDevice(device);
    return 0;
}
"""

READER = """
void kernel_main() {
    constexpr auto args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(args, get_arg_val<uint32_t>(0), get_tile_size(0));
    for (uint32_t t = 0; t < 3; ++t) {
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
    for (uint32_t t = 0; t < 2; ++t) {
        cb_wait_front(16, 1);
        noc_async_write_tile(t, dst, get_read_ptr(16));
        noc_async_write_barrier();
        cb_pop_front(16, 1);
    }
}
"""

# Tiles 0 and 1 of CB 0 (a) reduced in DST 0-1, column 0 of DST 0 packed; then cond (tile 2) in DST 0, a[0] in DST 1,
# -1 filled into DST 2, where into DST 0.
COMPUTE = """
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_unary/fill.h"
#include "api/compute/eltwise_unary/where.h"
#include "api/compute/tile_move_copy.h"
void kernel_main() {
    compute_kernel_hw_startup(0, 16);
    cb_wait_front(0, 3);
    tile_regs_acquire();
    copy_init(0);
    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    sfpu_reduce_init<PoolType::MAX, DataFormat::Int32>();
    sfpu_reduce<PoolType::MAX, DataFormat::Int32, ReduceDim::REDUCE_ROW>(0, 2, 1);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(16, 1);
    pack_tile(0, 16);
    cb_push_back(16, 1);
    tile_regs_release();
    tile_regs_acquire();
    copy_tile(0, 2, 0);
    copy_tile(0, 0, 1);
    fill_tile_init();
    fill_tile_int<DataFormat::Int32>(2, 0xFFFFFFFFu);
    where_tile_init();
    where_tile<DataFormat::Int32>(0, 1, 2, 0);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(16, 1);
    pack_tile(0, 16);
    cb_push_back(16, 1);
    tile_regs_release();
    cb_pop_front(0, 3);
}
"""


def _expected() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r, c = np.meshgrid(np.arange(32, dtype=np.uint64), np.arange(32, dtype=np.uint64), indexing="ij")
    a = np.stack([((r * 1103515245 + c * 12345 + t * 2654435761) % 2**32).astype(np.uint32).view(np.int32)
                  for t in range(2)])
    a[:, 3] = np.iinfo(np.int32).min + np.arange(32, dtype=np.int32)
    a[:, 4] = np.iinfo(np.int32).min
    cond = np.where((r + c) % 3 == 0, 0, r * 32 + c).astype(np.int32)
    cond[0, 1] = np.iinfo(np.int32).min
    return a, cond, np.concatenate([a[0], a[1]], axis=1).max(axis=1)


def test_int32_row_maximum_and_selection(tmp_path_factory: pytest.TempPathFactory) -> None:
    kernels = tmp_path_factory.mktemp("int32_sfpu")
    for name, text in (("reader", READER), ("writer", WRITER), ("compute", COMPUTE), ("main", MAIN)):
        (kernels / f"{name}.cpp").write_text(text)
    report = emulator.run(emulator.build_host(kernels / "main.cpp"), [str(kernels)])
    out = np.array([int(v) for v in report["stdout"].split()], dtype=np.int64).astype(np.int32).reshape(2, 32, 32)
    a, cond, row_max = _expected()
    np.testing.assert_array_equal(out[0][:, 0], row_max)
    np.testing.assert_array_equal(out[1], np.where(cond != 0, a[0], np.int32(-1)))
