"""Block-float tiles (Bfp8_b, Bfp4_b, Bfp2_b), bit for bit against a reference computed here in numpy from
tt-metal's documented layout (tech_reports/data_formats; tt_metal/impl/data_format/blockfloat_common.cpp): a tile's
page holds 64 shared exponents, one per face row of 16 values (face 0 rows 0..15, then faces 1, 2, 3), each the
largest 8-bit exponent of its row; then the 1024 values in the same order, each a sign and a 7-, 3- or 1-bit
mantissa (the leading one explicit) packed little-endian (the mantissas: tt_block_float_kernels.bfp_quantize).

One host program checks the four ways a block-float tile is made or read: the host's pack_as_bfp*_tiles and
unpack_bfp*_tiles_into_float_vec (tt-metalium/bfloat8.hpp, bfloat4.hpp, bfloat2.hpp), the device's packer
(pack_tile of bf16 values into a block-float CB) and its unpacker (copy_tile from a block-float CB, packed to
Float32)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from tt_block_float_kernels import bfp_quantize

from tilelang.tenstorrent import emulator

pytestmark = pytest.mark.xdist_group("bfp")  # one host program, built once

FORMATS = {"bfp8_b": (6, 7, 1088), "bfp4_b": (7, 3, 576), "bfp2_b": (15, 1, 320)}  # code, mantissa bits, bytes

MAIN = r"""
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/bfloat2.hpp>
#include <tt-metalium/bfloat4.hpp>
#include <tt-metalium/bfloat8.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <fstream>
using namespace tt::tt_metal;

template <typename T>
static void save(const std::string& path, const std::vector<T>& v) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

int main(int argc, char** argv) {
    const std::string dir = argv[1], data = argv[2];
    const uint32_t code = std::stoul(argv[3]), bytes = std::stoul(argv[4]), n = 2;  // a 32x64 matrix: 2 tiles
    std::vector<uint16_t> bits(1024 * n);
    std::ifstream(data + "/in.bin", std::ios::binary).read(reinterpret_cast<char*>(bits.data()), 2048 * n);
    std::vector<float> values(bits.size());
    std::vector<bfloat16> bf16(bits.size());
    for (size_t i = 0; i < bits.size(); ++i) values[i] = bf16[i] = bfloat16::from_bits(bits[i]);
    const std::vector<float> tiled = tilize_nfaces(values, 32, 64);
    const tt::stl::Span<const float> span(tiled);
    std::vector<uint32_t> packed;
    std::vector<float> unpacked;
    if (code == 6) {
        packed = pack_as_bfp8_tiles<float>(span, false, false);
        unpacked = unpack_bfp8_tiles_into_float_vec(packed, false, false);
    }
    if (code == 7) {
        packed = pack_as_bfp4_tiles<float>(span, false, false);
        unpacked = unpack_bfp4_tiles_into_float_vec(packed, false, false);
    }
    if (code == 15) {
        packed = pack_as_bfp2_tiles<float>(span, false, false);
        unpacked = unpack_bfp2_tiles_into_float_vec(packed, false, false);
    }
    save(data + "/host_packed.bin", packed);
    save(data + "/host_unpacked.bin", untilize_nfaces(unpacked, 32, 64));

    IDevice* device = CreateDevice(0);
    auto in_bf16 = CreateBuffer(InterleavedBufferConfig{device, n * 2048, 2048, BufferType::DRAM});
    auto in_bfp = CreateBuffer(InterleavedBufferConfig{device, n * bytes, bytes, BufferType::DRAM});
    auto out_f32 = CreateBuffer(InterleavedBufferConfig{device, n * 4096, 4096, BufferType::DRAM});
    auto out_bfp = CreateBuffer(InterleavedBufferConfig{device, n * bytes, bytes, BufferType::DRAM});
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    const tt::DataFormat bfp = static_cast<tt::DataFormat>(code);
    for (auto [cb, format, page] : {std::tuple{tt::CBIndex::c_0, tt::DataFormat::Float16_b, 2048u},
                                    std::tuple{tt::CBIndex::c_1, bfp, bytes},
                                    std::tuple{tt::CBIndex::c_16, tt::DataFormat::Float32, 4096u},
                                    std::tuple{tt::CBIndex::c_17, bfp, bytes}}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(page, {{cb, format}}).set_page_size(cb, page));
    }
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*in_bf16).append_to(reader_args);
    TensorAccessorArgs(*in_bfp).append_to(reader_args);
    TensorAccessorArgs(*out_f32).append_to(writer_args);
    TensorAccessorArgs(*out_bfp).append_to(writer_args);
    auto reader = CreateKernel(program, dir + "/reader.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                  .noc = NOC::RISCV_1_default, .compile_args = reader_args});
    auto writer = CreateKernel(program, dir + "/writer.cpp", core,
                               DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                  .noc = NOC::RISCV_0_default, .compile_args = writer_args});
    auto compute = CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{});
    SetRuntimeArgs(program, reader, core, {in_bf16->address(), in_bfp->address(), n});
    SetRuntimeArgs(program, writer, core, {out_f32->address(), out_bfp->address(), n});
    SetRuntimeArgs(program, compute, core, {n});
    EnqueueWriteBuffer(device->command_queue(), in_bf16, tilize_nfaces(bf16, 32, 64), false);
    EnqueueWriteBuffer(device->command_queue(), in_bfp, packed, false);
    EnqueueProgram(device->command_queue(), program, true);
    std::vector<float> device_unpacked(1024 * n);
    std::vector<uint32_t> device_packed(packed.size());
    EnqueueReadBuffer(device->command_queue(), out_f32, device_unpacked, true);
    EnqueueReadBuffer(device->command_queue(), out_bfp, device_packed, true);
    save(data + "/device_unpacked.bin", untilize_nfaces(device_unpacked, 32, 64));
    save(data + "/device_packed.bin", device_packed);
    CloseDevice(device);
    return 0;
}
"""

READER = """
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(2);
    constexpr auto bf16_args = TensorAccessorArgs<0>();
    constexpr auto bfp_args = TensorAccessorArgs<bf16_args.next_compile_time_args_offset()>();
    const auto bf16 = TensorAccessor(bf16_args, get_arg_val<uint32_t>(0), get_tile_size(tt::CBIndex::c_0));
    const auto bfp = TensorAccessor(bfp_args, get_arg_val<uint32_t>(1), get_tile_size(tt::CBIndex::c_1));
    for (uint32_t i = 0; i < n; ++i) {
        cb_reserve_back(tt::CBIndex::c_0, 1);
        cb_reserve_back(tt::CBIndex::c_1, 1);
        noc_async_read_tile(i, bf16, get_write_ptr(tt::CBIndex::c_0));
        noc_async_read_tile(i, bfp, get_write_ptr(tt::CBIndex::c_1));
        noc_async_read_barrier();
        cb_push_back(tt::CBIndex::c_0, 1);
        cb_push_back(tt::CBIndex::c_1, 1);
    }
}
"""

WRITER = """
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(2);
    constexpr auto f32_args = TensorAccessorArgs<0>();
    constexpr auto bfp_args = TensorAccessorArgs<f32_args.next_compile_time_args_offset()>();
    const auto f32 = TensorAccessor(f32_args, get_arg_val<uint32_t>(0), get_tile_size(tt::CBIndex::c_16));
    const auto bfp = TensorAccessor(bfp_args, get_arg_val<uint32_t>(1), get_tile_size(tt::CBIndex::c_17));
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(tt::CBIndex::c_16, 1);
        cb_wait_front(tt::CBIndex::c_17, 1);
        noc_async_write_tile(i, f32, get_read_ptr(tt::CBIndex::c_16));
        noc_async_write_tile(i, bfp, get_read_ptr(tt::CBIndex::c_17));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_16, 1);
        cb_pop_front(tt::CBIndex::c_17, 1);
    }
}
"""

# The unpacker: a block-float tile into DST, packed as Float32; the packer: a bf16 tile into DST, packed as block float.
COMPUTE = """
#include "api/compute/tile_move_copy.h"
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0);
    compute_kernel_hw_startup(tt::CBIndex::c_1, tt::CBIndex::c_16);
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(tt::CBIndex::c_1, 1);
        cb_wait_front(tt::CBIndex::c_0, 1);
        cb_reserve_back(tt::CBIndex::c_16, 1);
        cb_reserve_back(tt::CBIndex::c_17, 1);
        reconfig_data_format_srca(tt::CBIndex::c_1);
        pack_reconfig_data_format(tt::CBIndex::c_16);
        copy_init(tt::CBIndex::c_1);
        tile_regs_acquire();
        copy_tile(tt::CBIndex::c_1, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, tt::CBIndex::c_16);
        tile_regs_release();
        reconfig_data_format_srca(tt::CBIndex::c_0);
        pack_reconfig_data_format(tt::CBIndex::c_17);
        copy_init(tt::CBIndex::c_0);
        tile_regs_acquire();
        copy_tile(tt::CBIndex::c_0, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, tt::CBIndex::c_17);
        tile_regs_release();
        cb_pop_front(tt::CBIndex::c_0, 1);
        cb_pop_front(tt::CBIndex::c_1, 1);
        cb_push_back(tt::CBIndex::c_16, 1);
        cb_push_back(tt::CBIndex::c_17, 1);
    }
}
"""


def _input() -> np.ndarray:
    """A 32x64 bf16 matrix whose face rows mix exponents (values that shift to zero, mantissas that round up to
    the saturation bound, ties), zeros, negatives and a row of zeros."""
    rng = np.random.default_rng(31)
    x = rng.standard_normal((32, 64)) * np.exp2(rng.integers(-9, 9, (32, 64)))
    x[0, :16] = 0.0                                   # a face row of zeros: exponent 0
    x[1, :16] = [1.9921875, 1.0, -1.0, 0.0078125] * 4  # 0x3fff rounds up past the largest mantissa: saturated
    x[2, :16] = [1.0, 1.0 + 2 ** -7, 1.0 + 3 * 2 ** -7, -0.75] * 4  # ties to even at every width
    x[3, 16:32] = -x[3, 16:32]
    return x.astype(ml_dtypes.bfloat16)


def _face_rows(m: np.ndarray) -> np.ndarray:
    """The 32x64 matrix's 2 tiles as (tile, 64 face rows, 16) in page order: face (tile row half, col half)."""
    tiles = m.reshape(1, 32, 2, 32).transpose(0, 2, 1, 3).reshape(2, 32, 32)  # (tile, 32, 32), tiles along cols
    faces = tiles.reshape(2, 2, 16, 2, 16).transpose(0, 1, 3, 2, 4)           # (tile, fr, fc, row, col)
    return faces.reshape(2, 64, 16)


def _from_face_rows(rows: np.ndarray) -> np.ndarray:
    tiles = rows.reshape(2, 2, 2, 16, 16).transpose(0, 1, 3, 2, 4).reshape(2, 32, 32)
    return tiles.transpose(1, 0, 2).reshape(32, 64)


def reference(m: np.ndarray, width: int) -> tuple[bytes, np.ndarray]:
    """The documented encoding of the matrix's tiles (the page bytes) and the values they decode to."""
    shared, kept, sign, values = bfp_quantize(_face_rows(m.astype(np.float32)), width)
    datum = (sign << width) | kept                                            # (tile, 64, 16)
    bits = width + 1
    pages = b""
    for t in range(2):
        stream = np.zeros(1024 * bits // 8, dtype=np.int64)
        offsets = np.arange(1024) * bits
        np.add.at(stream, offsets // 8, datum[t].reshape(-1) << (offsets % 8))
        pages += shared[t, :, 0].astype(np.uint8).tobytes() + stream.astype(np.uint8).tobytes()
    return pages, _from_face_rows(values)


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    kernels = tmp_path_factory.mktemp("bfp")
    for name, text in (("reader", READER), ("writer", WRITER), ("compute", COMPUTE), ("main", MAIN)):
        (kernels / f"{name}.cpp").write_text(text)
    return emulator.build_host(kernels / "main.cpp"), kernels


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_block_float_tiles_are_packed_and_unpacked_bit_exactly(fmt: str, host: tuple[Path, Path],
                                                              tmp_path: Path) -> None:
    code, width, page = FORMATS[fmt]
    m = _input()
    m.view(np.uint16).tofile(tmp_path / "in.bin")
    exe, kernels = host
    emulator.run(exe, [str(kernels), str(tmp_path), str(code), str(page)])
    pages, values = reference(m, width)
    assert len(pages) == 2 * page
    assert (tmp_path / "host_packed.bin").read_bytes() == pages
    assert (tmp_path / "device_packed.bin").read_bytes() == pages
    for name in ("host_unpacked", "device_unpacked"):
        got = np.fromfile(tmp_path / f"{name}.bin", dtype=np.float32).reshape(32, 64)
        np.testing.assert_array_equal(got, values, err_msg=name)
    # The format's resolution: within a face row, an error of at most the last mantissa bit under the shared
    # exponent (half of it from rounding, a whole one where the largest value saturates).
    rows = _face_rows(m.astype(np.float32))
    step = np.exp2(np.floor(np.log2(np.abs(rows).max(axis=2, keepdims=True) + 1e-38)) - (width - 1))
    assert np.all(np.abs(_face_rows(values) - rows) <= step)
