// Eltwise families of ttnn 0.81.1 on the emulator, with the CBs and arguments of their program factories
// (ttnn/cpp/ttnn/operations/eltwise/binary/device/element_wise_multi_core_program_factory.cpp and
// eltwise/unary/device/unary_program_factory.cpp): the tiles are split over the grid with split_work_to_cores,
// each core's reader and writer take (address, tiles, first tile) and its compute kernel the tile count.
#pragma once

#include <array>

#include "ttnn_host.hpp"

namespace ttnn_case {

// Binary: reader_binary_interleaved_start_id (CT: block_or_width_sharded = 0, then both tensors' accessor args;
// RT: src0, src1, tiles, start, block height, block width, cores y), eltwise_binary_kernel (ELTWISE_OP and
// ELTWISE_OP_TYPE from the op; RT: blocks, block size 1), writer_unary_interleaved_start_id (CT: output CB c_2, its
// accessor args; RT: dst, tiles, start). CBs c_0, c_1, c_2 of two tiles each.
// The defines ttnn's binary_op_utils get_defines gives each op (ELTWISE_OP, ELTWISE_OP_TYPE, and the SFPU pre- and
// post-processing of unary_op_utils get_defines: SFPU_OP_INIT/FUNC_<id> with the op's SFPU_OP_*_INCLUDE family).
inline std::map<std::string, std::string> binary_defines(const std::string& op) {
    using Defines = std::map<std::string, std::string>;
    const Defines add = {{"ELTWISE_OP", "add_tiles"}, {"ELTWISE_OP_TYPE", "EltwiseBinaryType::ELWADD"}};
    const Defines mul = {{"ELTWISE_OP", "mul_tiles"}, {"ELTWISE_OP_TYPE", "EltwiseBinaryType::ELWMUL"}};
    if (op == "add") return add;
    if (op == "mul") return mul;
    if (op == "sub") return {{"ELTWISE_OP", "sub_tiles"}, {"ELTWISE_OP_TYPE", "EltwiseBinaryType::ELWSUB"}};
    Defines d = op == "div" ? mul : add;
    if (op == "div") {  // a * recip(b): RECIP on the second input (PRE_IN1_0)
        d.insert({{"SFPU_OP_INIT_PRE_IN1_0", "recip_tile_init<false>();"},
                  {"SFPU_OP_FUNC_PRE_IN1_0", "recip_tile<false>(i);"}, {"SFPU_OP_RECIP_INCLUDE", "1"}});
    } else if (op == "logaddexp") {  // log(exp(a) + exp(b)): EXP on both inputs, LOG after the add
        d.insert({{"SFPU_OP_INIT_PRE_IN0_0", "exp_tile_init<0u>();"}, {"SFPU_OP_FUNC_PRE_IN0_0", "exp_tile<0u>(i);"},
                  {"SFPU_OP_INIT_PRE_IN1_0", "exp_tile_init<0u>();"}, {"SFPU_OP_FUNC_PRE_IN1_0", "exp_tile<0u>(i);"},
                  {"SFPU_OP_EXP_INCLUDE", "1"}, {"SFPU_OP_INIT_0", "log_tile_init();"},
                  {"SFPU_OP_FUNC_0", "log_tile(i);"}, {"SFPU_OP_COMPUTE_KERNEL_API_INCLUDE", "1"}});
    } else {
        std::fprintf(stderr, "unknown binary op %s\n", op.c_str());
        std::exit(64);
    }
    return d;
}

inline void eltwise_binary(IDevice* device, const Args& a) {
    const std::map<std::string, std::string> defines = binary_defines(a.variant);
    const uint32_t bytes = a.rows * a.cols * 2, tiles = bytes / kTileBytes;
    auto A = dram(device, bytes), B = dram(device, bytes), C = dram(device, bytes);
    upload(device, A, a, "a", a.rows, a.cols);
    upload(device, B, a, "b", a.rows, a.cols);
    Program program = CreateProgram();
    const CoreCoord grid = device->compute_with_storage_grid_size();
    auto [ncores, all, group1, group2, per1, per2] = split_work_to_cores(grid, tiles);
    for (uint8_t index : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_2}) cb(program, all, index, 2);
    // The interim CBs of pre-processed inputs (c_3, c_4), one block of one tile, when their defines are present.
    if (defines.count("SFPU_OP_INIT_PRE_IN0_0")) cb(program, all, CBIndex::c_3, 1);
    if (defines.count("SFPU_OP_INIT_PRE_IN1_0")) cb(program, all, CBIndex::c_4, 1);
    KernelHandle reader = CreateKernel(
        program, kernel("eltwise/binary/device/kernels/dataflow/reader_binary_interleaved_start_id.cpp"), all,
        reader_config(accessor_args(B, accessor_args(A, {0}))));
    KernelHandle writer = CreateKernel(
        program, kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp"), all,
        writer_config(accessor_args(C, {CBIndex::c_2})));
    KernelHandle compute = CreateKernel(
        program, kernel("eltwise/binary/device/kernels/compute/eltwise_binary_kernel.cpp"), all,
        ComputeConfig{.defines = defines});
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

// Unary: the SFPU chain as unary_op_utils get_block_defines spells it for one op at DST 0 (SFPU_OP_CHAIN_0 names
// SFPU_OP_CHAIN_0_INIT_0 and SFPU_OP_CHAIN_0_FUNC_0; the op's SFPU_OP_*_INCLUDE family selects its header).
inline std::map<std::string, std::string> unary_defines(const std::string& op) {
    static const std::map<std::string, std::array<std::string, 3>> ops = {
        {"exp", {"exp_tile_init<0u>();", "exp_tile<0u>(0);", "SFPU_OP_EXP_INCLUDE"}},
        {"log", {"log_tile_init();", "log_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE"}},
        {"recip", {"recip_tile_init<false>();", "recip_tile<false>(0);", "SFPU_OP_RECIP_INCLUDE"}},
        {"tanh", {"tanh_tile_init();", "tanh_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE"}},
        {"sigmoid", {"sigmoid_tile_init();", "sigmoid_tile(0);", "SFPU_OP_COMPUTE_KERNEL_API_INCLUDE"}},
        {"relu", {"relu_tile_init();", "relu_tile(0);", "SFPU_OP_RELU_FAMILY_INCLUDE"}}};
    const auto& [init, func, family] = ops.at(op);
    return {{"SFPU_OP_CHAIN_0", "SFPU_OP_CHAIN_0_INIT_0 SFPU_OP_CHAIN_0_FUNC_0 "},
            {"SFPU_OP_CHAIN_0_INIT_0", init}, {"SFPU_OP_CHAIN_0_FUNC_0", func}, {family, "1"}};
}

// eltwise_sfpu.cpp (RT: tiles) between reader_unary_interleaved_start_id (CT: the input's accessor args; RT: src,
// pages, first page) and writer_unary_interleaved_start_id; CBs c_0 and c_2 of two tiles.
inline void eltwise_unary(IDevice* device, const Args& a) {
    const uint32_t bytes = a.rows * a.cols * 2, tiles = bytes / kTileBytes;
    auto A = dram(device, bytes), C = dram(device, bytes);
    upload(device, A, a, "a", a.rows, a.cols);
    Program program = CreateProgram();
    auto [ncores, all, group1, group2, per1, per2] = split_work_to_cores(device->compute_with_storage_grid_size(), tiles);
    for (uint8_t index : {CBIndex::c_0, CBIndex::c_2}) cb(program, all, index, 2);
    KernelHandle reader = CreateKernel(
        program, kernel("eltwise/unary/device/kernels/dataflow/reader_unary_interleaved_start_id.cpp"), all,
        reader_config(accessor_args(A)));
    KernelHandle writer = CreateKernel(
        program, kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp"), all,
        writer_config(accessor_args(C, {CBIndex::c_2})));
    KernelHandle compute = CreateKernel(program, kernel("eltwise/unary/device/kernels/compute/eltwise_sfpu.cpp"), all,
                                        ComputeConfig{.defines = unary_defines(a.variant)});
    uint32_t start = 0;
    for (const CoreCoord& core : corerange_to_cores(all, ncores, false)) {
        const uint32_t n = group1.contains(core) ? per1 : per2;
        SetRuntimeArgs(program, reader, core, {A->address(), n, start});
        SetRuntimeArgs(program, compute, core, {n});
        SetRuntimeArgs(program, writer, core, {C->address(), n, start});
        start += n;
    }
    EnqueueProgram(device->command_queue(), program, false);
    download(device, C, a, a.rows, a.cols);
}

}  // namespace ttnn_case
