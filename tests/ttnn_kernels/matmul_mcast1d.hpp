// Matmul with ttnn 0.81.1's 1-D multicast (mcast_in0) kernels, the Metal 2.0 forks its 1-D factory binds:
// reader_bmm_tile_layout_in0_sender_padding_metal2.cpp on the start core reads the in0 blocks (per_core_M x
// in0_block_w tiles) and multicasts them to reader_bmm_tile_layout_in0_receiver_metal2.cpp on the other cores, with
// the semaphores `sem::in0_mcast_sender` (each receiver's `up` when its in0 DFB has room) and `sem::in0_mcast_receiver`
// (the sender's VALID, set_multicast after the data); reader_bmm_tile_layout_in1_sender_writer_padding_metal2.cpp on
// every core reads its own in1 columns (SKIP_MCAST: in1 is not multicast, but the kernel builds its semaphores
// unconditionally, so it binds the in0 pair under its `in1_mcast_*` names) and writes the core's output;
// bmm_large_block_zm_fused_bias_activation_metal2.cpp multiplies on every core.
//
// The spec follows MatmulMultiCoreReuseMcast1DProgramFactory's mcast_in0 path for interleaved in0, in1 and out
// (ttnn/cpp/ttnn/operations/matmul/device/factory/matmul_multicore_reuse_mcast_1d_program_factory.cpp): M fits one
// per_core_M block (num_blocks_y 1), the N blocks over num_cores cores row-major from (0, 0); both semaphores on all
// cores (initial value INVALID, 0); the in0 kernels on RISCV_1 and preferred_noc_for_dram_write (NOC_1), the in1
// sender/writer on RISCV_0 and preferred_noc_for_dram_read (NOC_0); the multicast rectangle is the bounding box of
// the cores with work, the sender inside it (in0_mcast_num_dests num_cores - 1, in0_mcast_num_cores the box's cores
// - 1), its corners in NOC_1's order (the larger first); DFBs in0 and in1 double-buffered (MCAST_INPUT_BUFFERING_DEPTH
// 2, B * num_blocks > 1), out and intermed0 of one output block, intermed0 Float32 under fp32_dest_acc_en; without it
// (variant mcast1d_bf16) intermed0 is bf16 and aliased with out (alias_with: one L1 block, two FIFOs). The
// argument names are the kernels' (each fork's named interface, as ttnn's sparse-matmul factory binds the same
// kernels); the compute kernel is the reuse test's (matmul.hpp) with this program's block counts.
// Usage: ... matmul mcast1d|mcast1d_bf16 <M> <K> <dir> <N> <per_core_N> [column] (the cores a row from (0, 0), or a column)
#pragma once

#include "matmul.hpp"
#include "matmul_mcast.hpp"  // kInvalid

namespace ttnn_case {

struct Mcast1D {
    uint32_t M, K, N, per_core_N;  // in tiles; per_core_M = M
    uint32_t in0_block_w = 2, out_subblock_h = 1, out_subblock_w = 2;
    uint32_t num_blocks = K / in0_block_w, ncores = N / per_core_N;
    uint32_t in0_block_tiles = M * in0_block_w, in1_block_tiles = per_core_N * in0_block_w;
};

inline DataMovementHardwareConfig gen1(DataMovementProcessor p, NOC noc) {
    return {.gen1_config = DataMovementHardwareConfig::Gen1Config{.processor = p, .noc = noc}};
}

inline std::vector<SemaphoreBinding> in0_sems(const std::string& prefix) {
    return {{"in0_mcast_sender", prefix + "_mcast_sender"}, {"in0_mcast_receiver", prefix + "_mcast_receiver"}};
}

inline KernelSpec mcast1d_in0_sender(const Mcast1D& m) {
    const std::string dir = "matmul/device/kernels/dataflow/";
    return KernelSpec{
        .unique_id = "in0_sender", .source = kernel(dir + "reader_bmm_tile_layout_in0_sender_padding_metal2.cpp"),
        .dfb_bindings = {{"in0", "in0", DFBEndpointType::PRODUCER}}, .semaphore_bindings = in0_sems("in0"),
        .tensor_bindings = {{"in0", "in0"}},
        .compile_time_args = {{"in0_tensor_stride_w", 1}, {"in0_tensor_stride_h", m.K},
                              {"in0_tensor_next_inner_dim_block_stride", m.in0_block_w},
                              {"in0_tensor_next_h_dim_block_stride", m.M * m.K}, {"in0_block_w", m.in0_block_w},
                              {"in0_block_h", m.M}, {"in0_block_num_tiles", m.in0_block_tiles},
                              {"in0_last_ktile_w", 0}, {"in0_last_ktile_h", 0}, {"num_blocks_inner_dim", m.num_blocks},
                              {"num_blocks_w_dim", 1}, {"num_blocks_h_dim", 1},
                              {"in0_mcast_num_dests", m.ncores - 1}, {"in0_mcast_num_cores", m.ncores - 1},
                              {"MtKt", m.M * m.K}, {"in0_B", 1}, {"in1_B", 1}, {"in0_reuse_in_dfb", 0}, {"batchB", 0},
                              {"bcast_A", 1}, {"get_batch_from_reader", 0}, {"num_active", 0}},
        .runtime_arg_schema = {.runtime_arg_names = {"in0_tensor_start_tile_id", "in0_mcast_dest_noc_start_x",
                                                     "in0_mcast_dest_noc_start_y", "in0_mcast_dest_noc_end_x",
                                                     "in0_mcast_dest_noc_end_y", "last_block_h"}},
        .hw_config = gen1(DataMovementProcessor::RISCV_1, NOC::NOC_1)};
}

inline KernelSpec mcast1d_in0_receiver(const Mcast1D& m) {
    return KernelSpec{
        .unique_id = "in0_receiver",
        .source = kernel("matmul/device/kernels/dataflow/reader_bmm_tile_layout_in0_receiver_metal2.cpp"),
        .dfb_bindings = {{"in0", "in0", DFBEndpointType::PRODUCER}}, .semaphore_bindings = in0_sems("in0"),
        .compile_time_args = {{"in0_block_num_tiles", m.in0_block_tiles}, {"num_blocks_inner_dim", m.num_blocks},
                              {"num_blocks_w_dim", 1}, {"num_blocks_h_dim", 1}, {"batch", 1},
                              {"get_batch_from_reader", 0}},
        .runtime_arg_schema = {.runtime_arg_names = {"in0_mcast_sender_noc_x", "in0_mcast_sender_noc_y"}},
        .hw_config = gen1(DataMovementProcessor::RISCV_1, NOC::NOC_1)};
}

inline KernelSpec mcast1d_in1_sender_writer(const Mcast1D& m) {
    const uint32_t n = m.N, w = m.per_core_N;
    return KernelSpec{
        .unique_id = "in1_sender_writer",
        .source = kernel("matmul/device/kernels/dataflow/reader_bmm_tile_layout_in1_sender_writer_padding_metal2.cpp"),
        .compiler_options = {.defines = {{"SKIP_MCAST", "1"}}},
        .dfb_bindings = {{"in1", "in1", DFBEndpointType::PRODUCER}, {"out", "out", DFBEndpointType::CONSUMER}},
        .semaphore_bindings = in0_sems("in1"), .tensor_bindings = {{"in1", "in1"}, {"out", "out"}},
        .compile_time_args = {{"in1_tensor_stride_w", 1}, {"in1_tensor_stride_h", n},
                              {"in1_tensor_next_block_stride", m.in0_block_w * n},
                              {"in1_tensor_next_w_dim_block_stride", w}, {"in1_block_w", w},
                              {"in1_block_h", m.in0_block_w}, {"in1_block_num_tiles", m.in1_block_tiles},
                              {"num_blocks_inner_dim", m.num_blocks}, {"num_blocks_w_dim", 1}, {"num_blocks_h_dim", 1},
                              {"in1_mcast_num_dests", 0}, {"in1_mcast_num_cores", 0}, {"KtNt", m.K * n},
                              {"batch", 1}, {"bcast_B", 1}, {"batchB", 0}, {"out_tensor_stride_w", 1},
                              {"out_tensor_stride_h", n}, {"out_tensor_next_subblock_stride_w", m.out_subblock_w},
                              {"out_tensor_next_subblock_stride_h", m.out_subblock_h * n},
                              {"out_tensor_next_w_dim_block_stride", w},
                              {"out_tensor_next_h_dim_block_stride", m.M * n}, {"out_subblock_w", m.out_subblock_w},
                              {"out_subblock_h", m.out_subblock_h},
                              {"out_subblock_tile_count", m.out_subblock_w * m.out_subblock_h}, {"MtNt", m.M * n},
                              {"compact_output", 0}, {"num_active", 0}},
        .runtime_arg_schema = {.runtime_arg_names = {"in1_tensor_start_tile_id", "in1_mcast_dest_noc_start_x",
                                                     "in1_mcast_dest_noc_start_y", "in1_mcast_dest_noc_end_x",
                                                     "in1_mcast_dest_noc_end_y", "out_tensor_start_tile_id",
                                                     "last_block_w", "out_num_nonzero_subblocks_h",
                                                     "out_last_subblock_h", "padded_block_tiles_h_skip",
                                                     "out_num_nonzero_subblocks_w", "out_last_num_nonzero_subblocks_w",
                                                     "out_last_subblock_w", "padded_subblock_tiles_addr_skip",
                                                     "padded_block_tiles_w_skip", "last_num_blocks_w_dim"}},
        .hw_config = gen1(DataMovementProcessor::RISCV_0, NOC::NOC_0)};
}

inline void matmul_mcast1d(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const Mcast1D m{.M = a.rows / 32, .K = a.cols / 32, .N = uint32_t(std::stoul(a.extra.at(0)) / 32),
                    .per_core_N = uint32_t(std::stoul(a.extra.at(1)))};
    // The factory's grid: a row, or (compute_with_storage_grid_size.x == 1) a column; core i row-major from (0, 0).
    const bool column = a.extra.size() > 2 && a.extra[2] == "column";
    auto core = [&](uint32_t i) { return column ? CoreCoord{0, i} : CoreCoord{i, 0}; };
    auto A = dram(device, m.M * m.K * kTileBytes), B = dram(device, m.K * m.N * kTileBytes);
    auto C = dram(device, m.M * m.N * kTileBytes);
    upload(device, A, a, "a", a.rows, a.cols);
    upload(device, B, a, "b", a.cols, m.N * 32);
    const CoreRangeSet all(CoreRange(core(0), core(m.ncores - 1))), sender(CoreRange(core(0)));
    // mcast1d_bf16: no fp32_dest_acc_en, so intermed0 has out's format and the factory aliases the two (one L1 block).
    const bool fp32 = a.variant != "mcast1d_bf16";
    const MatmulReuse c{.batches = 1, .M = m.M, .K = m.K, .N = m.N, .fp32 = fp32, .per_core_M = m.M,
                        .per_core_N = m.per_core_N};
    ProgramSpec spec{
        .name = "matmul_multicore_reuse_mcast_1d",
        .kernels = {mcast1d_in0_sender(m), mcast1d_in1_sender_writer(m), matmul_compute(c, "compute", 1)},
        .dataflow_buffers = {bf16_dfb("in0", 2 * m.in0_block_tiles), bf16_dfb("in1", 2 * m.in1_block_tiles),
                             bf16_dfb("out", m.M * m.per_core_N), bf16_dfb("intermed0", m.M * m.per_core_N)},
        .semaphores = {{"in0_mcast_sender", all, kInvalid}, {"in0_mcast_receiver", all, kInvalid}},
        .tensor_parameters = {{"in0", TensorSpec(A)}, {"in1", TensorSpec(B)}, {"out", TensorSpec(C)}},
        .work_units = {{"in0_sender", {"in0_sender", "in1_sender_writer", "compute"}, sender}}};
    if (fp32) {
        spec.dataflow_buffers[3] = {.unique_id = "intermed0", .entry_size = 2 * kTileBytes,
                                    .num_entries = m.M * m.per_core_N, .data_format_metadata = tt::DataFormat::Float32};
    } else {
        spec.dataflow_buffers[2].alias_with = {"intermed0"};
        spec.dataflow_buffers[3].alias_with = {"out"};
    }
    if (m.ncores > 1) {
        spec.kernels.push_back(mcast1d_in0_receiver(m));
        spec.work_units.push_back({"in0_receivers", {"in0_receiver", "in1_sender_writer", "compute"},
                                   CoreRangeSet(CoreRange(core(1), core(m.ncores - 1)))});
    }
    // NOC_1 multicasts from the larger corner: the box's last core to its first one.
    const CoreCoord first = device->worker_core_from_logical_core(core(0));
    const CoreCoord last = device->worker_core_from_logical_core(core(m.ncores - 1));
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "in0_sender"}, {.kernel = "in1_sender_writer"}},
                       .tensor_args = {{"in0", A}, {"in1", B}, {"out", C}}};
    AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, core(0),
                          {{"in0_tensor_start_tile_id", 0}, {"in0_mcast_dest_noc_start_x", uint32_t(last.x)},
                           {"in0_mcast_dest_noc_start_y", uint32_t(last.y)},
                           {"in0_mcast_dest_noc_end_x", uint32_t(first.x)},
                           {"in0_mcast_dest_noc_end_y", uint32_t(first.y)}, {"last_block_h", m.M}});
    if (m.ncores > 1) run.kernel_run_args.push_back({.kernel = "in0_receiver"});
    for (uint32_t i = 0; i < m.ncores; ++i) {
        if (i > 0) {
            AddRuntimeArgsForNode(run.kernel_run_args[2].runtime_arg_values, core(i),
                                  {{"in0_mcast_sender_noc_x", uint32_t(first.x)},
                                   {"in0_mcast_sender_noc_y", uint32_t(first.y)}});
        }
        const uint32_t sub_w = m.per_core_N / m.out_subblock_w;
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, core(i),
                              {{"in1_tensor_start_tile_id", i * m.per_core_N}, {"in1_mcast_dest_noc_start_x", 0},
                               {"in1_mcast_dest_noc_start_y", 0}, {"in1_mcast_dest_noc_end_x", 0},
                               {"in1_mcast_dest_noc_end_y", 0}, {"out_tensor_start_tile_id", i * m.per_core_N},
                               {"last_block_w", m.per_core_N}, {"out_num_nonzero_subblocks_h", m.M / m.out_subblock_h},
                               {"out_last_subblock_h", m.out_subblock_h}, {"padded_block_tiles_h_skip", 0},
                               {"out_num_nonzero_subblocks_w", sub_w}, {"out_last_num_nonzero_subblocks_w", sub_w},
                               {"out_last_subblock_w", m.out_subblock_w}, {"padded_subblock_tiles_addr_skip", 0},
                               {"padded_block_tiles_w_skip", 0}, {"last_num_blocks_w_dim", 1}});
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.rows, m.N * 32);
}

}  // namespace ttnn_case
