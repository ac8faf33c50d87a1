// Matmul with ttnn 0.81.1's kernels of the multi-core reuse (non-multicast) program: reader_bmm_tile_layout_in0.cpp
// reads in0 blocks (per_core_M x in0_block_w tiles) into `in0`, reader_writer_bmm_tile_layout_in1.cpp reads in1 blocks
// (in0_block_w x per_core_N) into `in1` and writes the output subblocks from `out`, and
// bmm_large_block_zm_fused_bias_activation_metal2.cpp (the Metal 2.0 fork of bmm_large_block_zm_fused_bias_activation
// .cpp, which 0.81.1's reuse factory binds with these two readers) multiplies them with matmul_block, spilling the
// partial sums of every K block but the last into `intermed0` and reloading them (copy_block) before the next.
//
// The spec follows MatmulMultiCoreReuseOptimizedProgramFactory (ttnn/cpp/ttnn/operations/matmul/device/factory/
// matmul_multicore_reuse_optimized_program_factory.cpp, its Metal 2.0 form): DFBs in0 and in1 double-buffered, out
// and intermed0 of per_core_M x per_core_N entries; the output blocks split over the grid with split_work_to_cores,
// one compute KernelSpec per core group (CTA `batch` = its block count); reader CTAs in0_tensor_stride_w/h,
// in0_tensor_next_block_stride, in0_block_w/h, in0_block_num_tiles, last_ktile_w/h, num_blocks, bcast_B, MtKt, and
// the reader/writer's in1 and out strides and subblock counts, KtNt, MtNt. The names 0.81.1's kernels read beyond that
// factory's version (m_blocks_per_batch, in0_m_block_stride, out_m_block_stride, the RTA start_m_block) follow the
// kernels' walk: a core's blocks are consecutive M blocks (the kernels move to the next batch after a batch's
// last M block), numbered M-fastest, then by batch; here per_core_N = N, one N block. An optional second extra
// argument is the batch count (A batches x M x K, B batches x K x N, bcast_B 0).
// fp32_dest_acc_en is set (compute config enable_32_bit_dest, define FP32_DEST_ACC_EN): intermed0 is then Float32 and
// a DFB of its own; with out and intermed0 in one format the factory aliases them (shared L1), which the emulator's
// ProgramSpec does not model. The variant "reuse_bias" fuses a bias (FUSE_BIAS, BIAS_FULL_BLOCK as the reuse factory
// loads it; data_dir/bias.bin: 32 x N, the values in row 0): `bias` of per_core_M x per_core_N entries, filled once by
// the in1 reader (RTA in3_tensor_start_tile_id), and the compute CTAs bias_ntiles and row_broadcast_bias 1.
#pragma once

#include "metal2.hpp"

namespace ttnn_case {

// MatmulMultiCoreReuseProgramConfig: in0_block_w 2, out_subblock 1 x 2, per_core_M 1, per_core_N N (a 3 x 1 grid).
struct MatmulReuse {
    uint32_t batches, M, K, N;  // M, K, N in tiles, per batch (A is batches x M x K, B batches x K x N)
    bool bias = false;          // FUSE_BIAS: C = A B + bias, a row of N values broadcast over the rows
    bool fp32 = true;           // fp32_dest_acc_en (FP32_DEST_ACC_EN); without it intermed0 is bf16, aliased with out
    uint32_t in0_block_w = 2, out_subblock_h = 1, out_subblock_w = 2, per_core_M = 1, per_core_N = N;
    uint32_t num_blocks = K / in0_block_w;
    uint32_t in0_block_num_tiles = per_core_M * in0_block_w, in1_block_num_tiles = per_core_N * in0_block_w;
    uint32_t out_block_tiles = per_core_M * per_core_N;
    uint32_t in0_num_subblocks = per_core_M / out_subblock_h, in1_num_subblocks = per_core_N / out_subblock_w;
    uint32_t m_blocks_per_batch = M / per_core_M, blocks = batches * m_blocks_per_batch * (N / per_core_N);
};

inline KernelSpec matmul_compute(const MatmulReuse& m, const std::string& id, uint32_t core_blocks) {
    KernelSpec spec{
        .unique_id = id,
        .source = kernel("matmul/device/kernels/compute/bmm_large_block_zm_fused_bias_activation_metal2.cpp"),
        .compiler_options = {.opt_level = KernelBuildOptLevel::O3},
        .dfb_bindings = {{"in0", "in0", DFBEndpointType::CONSUMER}, {"in1", "in1", DFBEndpointType::CONSUMER},
                         {"out", "out", DFBEndpointType::PRODUCER},
                         {"intermed0", "intermed0", DFBEndpointType::PRODUCER},
                         {"intermed0", "intermed0", DFBEndpointType::CONSUMER}},
        .compile_time_args = {{"in0_block_w", m.in0_block_w}, {"in0_num_subblocks", m.in0_num_subblocks},
                              {"in0_block_num_tiles", m.in0_block_num_tiles},
                              {"in0_subblock_num_tiles", m.out_subblock_h * m.in0_block_w},
                              {"in1_num_subblocks", m.in1_num_subblocks}, {"in1_block_num_tiles", m.in1_block_num_tiles},
                              {"in1_block_w", m.out_subblock_w * m.in1_num_subblocks},
                              {"num_blocks_inner_dim", m.num_blocks}, {"num_blocks_w_dim", 1}, {"num_blocks_h_dim", 1},
                              {"out_subblock_h", m.out_subblock_h}, {"out_subblock_w", m.out_subblock_w},
                              {"out_subblock_num_tiles", m.out_subblock_h * m.out_subblock_w}, {"batch", core_blocks},
                              {"out_block_num_tiles", m.out_block_tiles}, {"untilize_out", 0},
                              {"get_batch_from_reader", 0}},
        .hw_config = ComputeHardwareConfig{.enable_32_bit_dest = m.fp32}};
    if (m.fp32) spec.compiler_options.defines.push_back({"FP32_DEST_ACC_EN", "1"});
    if (m.bias) {  // a row of N bias tiles (the values in row 0 of each), added broadcast by row
        spec.compiler_options.defines.push_back({"FUSE_BIAS", "1"});
        spec.compiler_options.defines.push_back({"BIAS_FULL_BLOCK", "1"});
        spec.dfb_bindings.push_back({"bias", "bias", DFBEndpointType::CONSUMER});
        spec.compile_time_args.push_back({"bias_ntiles", m.out_block_tiles});
        spec.compile_time_args.push_back({"row_broadcast_bias", 1});
    }
    return spec;
}

inline KernelSpec matmul_reader(const MatmulReuse& m) {
    return KernelSpec{
        .unique_id = "reader", .source = kernel("matmul/device/kernels/dataflow/reader_bmm_tile_layout_in0.cpp"),
        .dfb_bindings = {{"in0", "in0", DFBEndpointType::PRODUCER}},
        .tensor_bindings = {{"in0", "in0"}},
        .compile_time_args = {{"in0_tensor_stride_w", 1}, {"in0_tensor_stride_h", m.K},
                              {"in0_tensor_next_block_stride", m.in0_block_w}, {"in0_block_w", m.in0_block_w},
                              {"in0_block_h", m.per_core_M}, {"in0_block_num_tiles", m.in0_block_num_tiles},
                              {"last_ktile_w", 0}, {"last_ktile_h", 0}, {"num_blocks", m.num_blocks}, {"bcast_B", 0},
                              {"MtKt", m.M * m.K}, {"m_blocks_per_batch", m.m_blocks_per_batch},
                              {"in0_m_block_stride", m.per_core_M * m.K}},
        .runtime_arg_schema = {.runtime_arg_names = {"in0_tensor_start_tile_id", "batch", "start_m_block"}},
        .hw_config = reader_hw()};
}

inline KernelSpec matmul_reader_writer(const MatmulReuse& m) {
    KernelSpec spec{
        .unique_id = "reader_writer",
        .source = kernel("matmul/device/kernels/dataflow/reader_writer_bmm_tile_layout_in1.cpp"),
        .dfb_bindings = {{"in1", "in1", DFBEndpointType::PRODUCER}, {"out", "out", DFBEndpointType::CONSUMER}},
        .tensor_bindings = {{"in1", "in1"}, {"out", "out"}},
        .compile_time_args = {{"in1_tensor_stride_w", 1}, {"in1_tensor_stride_h", m.N},
                              {"in1_tensor_next_block_stride", m.in0_block_w * m.N}, {"in1_block_w", m.per_core_N},
                              {"in1_block_h", m.in0_block_w}, {"in1_block_num_tiles", m.in1_block_num_tiles},
                              {"num_blocks", m.num_blocks}, {"bcast_B", 0}, {"KtNt", m.K * m.N},
                              {"out_tensor_stride_w", 1}, {"out_tensor_stride_h", m.N},
                              {"out_tensor_next_subblock_stride_w", m.out_subblock_w},
                              {"out_tensor_next_subblock_stride_h", m.out_subblock_h * m.N},
                              {"out_subblock_w", m.out_subblock_w}, {"out_subblock_h", m.out_subblock_h},
                              {"out_subblock_tile_count", m.out_subblock_w * m.out_subblock_h},
                              {"out_num_subblocks_w", m.in1_num_subblocks},
                              {"out_num_subblocks_h", m.per_core_M / m.out_subblock_h}, {"MtNt", m.M * m.N},
                              {"m_blocks_per_batch", m.m_blocks_per_batch}, {"out_m_block_stride", m.per_core_M * m.N}},
        .runtime_arg_schema = {.runtime_arg_names = {"in1_tensor_start_tile_id", "batch", "start_m_block",
                                                     "out_tensor_start_tile_id"}},
        .hw_config = writer_hw()};
    if (m.bias) {  // reads the [per_core_M, per_core_N] bias block once (RTA in3_tensor_start_tile_id)
        spec.compiler_options.defines.push_back({"FUSE_BIAS", "1"});
        spec.dfb_bindings.push_back({"bias", "bias", DFBEndpointType::PRODUCER});
        spec.tensor_bindings.push_back({"bias", "bias"});
        spec.runtime_arg_schema.runtime_arg_names.push_back("in3_tensor_start_tile_id");
    }
    return spec;
}

inline void matmul_reuse(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t batches = a.extra.size() > 1 ? uint32_t(std::stoul(a.extra[1])) : 1;
    const MatmulReuse m{.batches = batches, .M = a.rows / 32 / batches, .K = a.cols / 32,
                        .N = uint32_t(std::stoul(a.extra.at(0)) / 32), .bias = a.variant == "reuse_bias"};
    auto A = dram(device, batches * m.M * m.K * kTileBytes), B = dram(device, batches * m.K * m.N * kTileBytes);
    auto C = dram(device, batches * m.M * m.N * kTileBytes);
    upload(device, A, a, "a", a.rows, a.cols);  // the batches' matrices one below the other: tiles batch-major
    upload(device, B, a, "b", batches * a.cols, m.N * 32);
    auto [ncores, all, group1, group2, per1, per2] = split_work_to_cores(CoreCoord{3, 1}, m.blocks);
    ProgramSpec spec{
        .name = "matmul_multicore_reuse_optimized",
        .kernels = {matmul_reader(m), matmul_reader_writer(m), matmul_compute(m, "compute_g1", per1)},
        .dataflow_buffers = {bf16_dfb("in0", 2 * m.in0_block_num_tiles), bf16_dfb("in1", 2 * m.in1_block_num_tiles),
                             bf16_dfb("out", m.out_block_tiles),
                             {.unique_id = "intermed0", .entry_size = 2 * kTileBytes, .num_entries = m.out_block_tiles,
                              .data_format_metadata = tt::DataFormat::Float32}},
        .tensor_parameters = {{"in0", TensorSpec(A)}, {"in1", TensorSpec(B)}, {"out", TensorSpec(C)}},
        .work_units = {{"wu_g1", {"reader", "reader_writer", "compute_g1"}, group1}}};
    std::shared_ptr<Buffer> bias;
    if (m.bias) {  // one tile row of N (data_dir/bias.bin: 32 x N, the values in row 0)
        bias = dram(device, m.N * kTileBytes);
        upload(device, bias, a, "bias", 32, m.N * 32);
        spec.dataflow_buffers.push_back(bf16_dfb("bias", m.out_block_tiles));
        spec.tensor_parameters.push_back({"bias", TensorSpec(bias)});
    }
    if (!group2.ranges().empty()) {
        spec.kernels.push_back(matmul_compute(m, "compute_g2", per2));
        spec.work_units.push_back({"wu_g2", {"reader", "reader_writer", "compute_g2"}, group2});
    }
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "reader_writer"}},
                       .tensor_args = {{"in0", A}, {"in1", B}, {"out", C}}};
    if (m.bias) run.tensor_args["bias"] = bias;
    const std::vector<CoreCoord> cores = corerange_to_cores(all, ncores);
    for (uint32_t i = 0, done = 0; i < cores.size(); ++i) {
        const uint32_t core_blocks = i < group1.num_cores() ? per1 : per2;
        // Blocks M-fastest, then batch, then N block (one N block here).
        const uint32_t m_block = done % m.m_blocks_per_batch, batch = done / m.m_blocks_per_batch % batches;
        const uint32_t n_block = done / m.m_blocks_per_batch / batches;
        AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, cores[i],
                              {{"in0_tensor_start_tile_id", batch * m.M * m.K + m_block * m.per_core_M * m.K},
                               {"batch", core_blocks}, {"start_m_block", m_block}});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, cores[i],
                              {{"in1_tensor_start_tile_id", batch * m.K * m.N + n_block * m.per_core_N},
                               {"batch", core_blocks}, {"start_m_block", m_block},
                               {"out_tensor_start_tile_id",
                                batch * m.M * m.N + m_block * m.per_core_M * m.N + n_block * m.per_core_N}});
        if (m.bias) {
            run.kernel_run_args[1].runtime_arg_values.back().second.push_back(
                {"in3_tensor_start_tile_id", n_block * m.per_core_N});
        }
        done += core_blocks;
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.rows, m.N * 32);  // batch-major, as A
}

}  // namespace ttnn_case
