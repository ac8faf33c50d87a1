// Eltwise families of ttnn 0.81.1 on the emulator, with the CBs and arguments of their program factories
// (ttnn/cpp/ttnn/operations/eltwise/binary/device/element_wise_multi_core_program_factory.cpp and
// eltwise/unary/device/unary_program_factory.cpp): the tiles are split over the grid with split_work_to_cores,
// each core's reader and writer take (address, tiles, first tile) and its compute kernel the tile count.
#pragma once

#include "ttnn_host.hpp"

namespace ttnn_case {

// Binary: reader_binary_interleaved_start_id (CT: block_or_width_sharded = 0, then both tensors' accessor args;
// RT: src0, src1, tiles, start, block height, block width, cores y), eltwise_binary_kernel (ELTWISE_OP and
// ELTWISE_OP_TYPE from the op; RT: blocks, block size 1), writer_unary_interleaved_start_id (CT: output CB c_2, its
// accessor args; RT: dst, tiles, start). CBs c_0, c_1, c_2 of two tiles each.
inline void eltwise_binary(IDevice* device, const Args& a) {
    static const std::map<std::string, std::pair<std::string, std::string>> ops = {
        {"add", {"add_tiles", "EltwiseBinaryType::ELWADD"}},
        {"sub", {"sub_tiles", "EltwiseBinaryType::ELWSUB"}},
        {"mul", {"mul_tiles", "EltwiseBinaryType::ELWMUL"}}};
    const auto& op = ops.at(a.variant);
    const uint32_t bytes = a.rows * a.cols * 2, tiles = bytes / kTileBytes;
    auto A = dram(device, bytes), B = dram(device, bytes), C = dram(device, bytes);
    upload(device, A, a, "a", a.rows, a.cols);
    upload(device, B, a, "b", a.rows, a.cols);
    Program program = CreateProgram();
    const CoreCoord grid = device->compute_with_storage_grid_size();
    auto [ncores, all, group1, group2, per1, per2] = split_work_to_cores(grid, tiles);
    for (uint8_t index : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_2}) cb(program, all, index, 2);
    KernelHandle reader = CreateKernel(
        program, kernel("eltwise/binary/device/kernels/dataflow/reader_binary_interleaved_start_id.cpp"), all,
        reader_config(accessor_args(B, accessor_args(A, {0}))));
    KernelHandle writer = CreateKernel(
        program, kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp"), all,
        writer_config(accessor_args(C, {CBIndex::c_2})));
    KernelHandle compute = CreateKernel(
        program, kernel("eltwise/binary/device/kernels/compute/eltwise_binary_kernel.cpp"), all,
        ComputeConfig{.defines = {{"ELTWISE_OP", op.first}, {"ELTWISE_OP_TYPE", op.second}}});
    uint32_t start = 0;
    for (const CoreCoord& core : corerange_to_cores(all, ncores, false)) {
        const uint32_t n = group1.contains(core) ? per1 : per2;
        SetRuntimeArgs(program, reader, core, {A->address(), B->address(), n, start, 0, 0, 0});
        SetRuntimeArgs(program, compute, core, {n, 1});
        SetRuntimeArgs(program, writer, core, {C->address(), n, start});
        start += n;
    }
    EnqueueProgram(device->command_queue(), program, false);
    download(device, C, a, a.rows, a.cols);
}

}  // namespace ttnn_case
