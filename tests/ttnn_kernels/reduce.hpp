// Reduce with ttnn 0.81.1's Metal 2.0 kernels (reduction/generic): reader_unary_reduce_universal_start_id.cpp fills the
// DFB `scaler` once (kernel_lib's prepare_reduce_scaler: async_write_zeros, then row 0 of each face through an L1
// pointer) and streams the input tiles into `in0` (CTA tiles_per_batch; RTAs num_tiles, start_id, scaler_bits),
// compute/reduce.cpp runs kernel_lib's reduce<REDUCE_OP, REDUCE_DIM> over Ht x Wt tiles (CTAs Ht, Wt, NC,
// enable_fp32_sfpu) into `out`, writer_unary_interleaved_start_id_metal2.cpp writes it (RTAs num_pages, start_id).
// REDUCE_OP / REDUCE_DIM are the defines reduce_op_utils::get_defines gives. W: each core reduces whole tile rows (Ht
// rows of Wt tiles, one output tile each), the rows split over cores as the W factory splits them. H: the reader is
// reader_unary_transpose_wh_universal_input_cols_partitioned.cpp, which reads tile columns (RTAs col_start_tile_id,
// curr_col_in_batch, num_cols; CTAs Ht, Wt, HtWt, use_welford, enable_fp32_sfpu, tiles_per_batch, num_h_slices,
// slice_Ht; the defines ENABLE_FP32_DEST_ACC and DST_SYNC_FULL, from which kernel_lib's DEST_AUTO_LIMIT follows in a
// data-movement kernel), and each core reduces its columns (compute CTA Wt = its column count).
#pragma once

#include "metal2.hpp"

namespace ttnn_case {

inline void reduce_w(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t Wt = a.cols / 32, Ht = a.rows / 32;
    const bool max = a.variant == "max_w";
    auto A = dram(device, a.rows * a.cols * 2), C = dram(device, Ht * kTileBytes);
    upload(device, A, a, "a", a.rows, a.cols);
    const BlockSplit split = split_blocks(Ht, 2);
    const KernelSpec::CompilerOptions::Defines defines = {{"REDUCE_OP", max ? "PoolType::MAX" : "PoolType::SUM"},
                                                          {"REDUCE_DIM", "ReduceDim::REDUCE_ROW"}};
    auto compute = [&](const std::string& id, uint32_t rows) {
        return KernelSpec{
            .unique_id = id, .source = kernel("reduction/generic/device/kernels/compute/reduce.cpp"),
            .compiler_options = {.defines = defines},
            .dfb_bindings = {{"input", "in0", DFBEndpointType::CONSUMER},
                             {"scaler", "scaler", DFBEndpointType::CONSUMER},
                             {"output", "out", DFBEndpointType::PRODUCER}},
            .compile_time_args = {{"Ht", rows}, {"Wt", Wt}, {"NC", 1}, {"enable_fp32_sfpu", 0}},
            .hw_config = ComputeHardwareConfig{}};
    };
    ProgramSpec spec{
        .name = "reduce_multi_core_w",
        .kernels = {
            KernelSpec{.unique_id = "reader",
                       .source = kernel("reduction/generic/device/kernels/dataflow/"
                                        "reader_unary_reduce_universal_start_id.cpp"),
                       .compiler_options = {.defines = defines},
                       .dfb_bindings = {{"input", "in0", DFBEndpointType::PRODUCER},
                                        {"scaler", "scaler", DFBEndpointType::PRODUCER}},
                       .tensor_bindings = {{"input", "src"}},
                       .compile_time_args = {{"tiles_per_batch", 1}},
                       .runtime_arg_schema = {.runtime_arg_names = {"num_tiles", "start_id", "scaler_bits"}},
                       .hw_config = reader_hw()},
            KernelSpec{.unique_id = "writer",
                       .source = kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"),
                       .dfb_bindings = {{"output", "out", DFBEndpointType::CONSUMER}},
                       .tensor_bindings = {{"output", "dst"}},
                       .runtime_arg_schema = {.runtime_arg_names = {"num_pages", "start_id"}},
                       .hw_config = writer_hw()},
            compute("compute_full", split.per)},
        .dataflow_buffers = {bf16_dfb("input", 2), bf16_dfb("scaler", 1), bf16_dfb("output", 2)},
        .tensor_parameters = {{"input", TensorSpec(A)}, {"output", TensorSpec(C)}},
        .work_units = {{"reduce_full", {"reader", "writer", "compute_full"}, split.full}}};
    if (split.cliff) {
        spec.kernels.push_back(compute("compute_cliff", split.cliff));
        spec.work_units.push_back({"reduce_cliff", {"reader", "writer", "compute_cliff"}, split.cliff_core});
    }
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "writer"}},
                       .tensor_args = {{"input", A}, {"output", C}}};
    const float one = 1.0f;
    uint32_t scaler_bits;
    std::memcpy(&scaler_bits, &one, 4);
    uint32_t row = 0;
    for (uint32_t i = 0; i < split.ncores; ++i) {
        const uint32_t rows = split.cliff && i + 1 == split.ncores ? split.cliff : split.per;
        AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, CoreCoord{i, 0},
                              {{"num_tiles", rows * Wt}, {"start_id", row * Wt}, {"scaler_bits", scaler_bits}});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, CoreCoord{i, 0},
                              {{"num_pages", rows}, {"start_id", row}});
        row += rows;
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.rows, 32);
}

inline void reduce_h(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t Wt = a.cols / 32, Ht = a.rows / 32;
    const bool max = a.variant == "max_h";
    auto A = dram(device, a.rows * a.cols * 2), C = dram(device, Wt * kTileBytes);
    upload(device, A, a, "a", a.rows, a.cols);
    const BlockSplit split = split_blocks(Wt, 2);
    const KernelSpec::CompilerOptions::Defines defines = {
        {"REDUCE_OP", max ? "PoolType::MAX" : "PoolType::SUM"}, {"REDUCE_DIM", "ReduceDim::REDUCE_COL"},
        {"ENABLE_FP32_DEST_ACC", "0"}, {"DST_SYNC_FULL", "0"}};
    auto compute = [&](const std::string& id, uint32_t cols) {
        return KernelSpec{
            .unique_id = id, .source = kernel("reduction/generic/device/kernels/compute/reduce.cpp"),
            .compiler_options = {.defines = defines},
            .dfb_bindings = {{"input", "in0", DFBEndpointType::CONSUMER},
                             {"scaler", "scaler", DFBEndpointType::CONSUMER},
                             {"output", "out", DFBEndpointType::PRODUCER}},
            .compile_time_args = {{"Ht", Ht}, {"Wt", cols}, {"NC", 1}, {"enable_fp32_sfpu", 0}},
            .hw_config = ComputeHardwareConfig{}};
    };
    ProgramSpec spec{
        .name = "reduce_multi_core_h",
        .kernels = {
            KernelSpec{.unique_id = "reader",
                       .source = kernel("reduction/generic/device/kernels/dataflow/"
                                        "reader_unary_transpose_wh_universal_input_cols_partitioned.cpp"),
                       .compiler_options = {.defines = defines},
                       .dfb_bindings = {{"input", "in0", DFBEndpointType::PRODUCER},
                                        {"scaler", "scaler", DFBEndpointType::PRODUCER}},
                       .tensor_bindings = {{"input", "src"}},
                       .compile_time_args = {{"Ht", Ht}, {"Wt", Wt}, {"HtWt", Ht * Wt}, {"use_welford", 0},
                                             {"enable_fp32_sfpu", 0}, {"tiles_per_batch", 1}, {"num_h_slices", 1},
                                             {"slice_Ht", Ht}},
                       .runtime_arg_schema = {.runtime_arg_names = {"col_start_tile_id", "curr_col_in_batch",
                                                                    "num_cols", "scaler_bits"}},
                       .hw_config = reader_hw()},
            KernelSpec{.unique_id = "writer",
                       .source = kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"),
                       .dfb_bindings = {{"output", "out", DFBEndpointType::CONSUMER}},
                       .tensor_bindings = {{"output", "dst"}},
                       .runtime_arg_schema = {.runtime_arg_names = {"num_pages", "start_id"}},
                       .hw_config = writer_hw()},
            compute("compute_full", split.per)},
        .dataflow_buffers = {bf16_dfb("input", 2), bf16_dfb("scaler", 1), bf16_dfb("output", 2)},
        .tensor_parameters = {{"input", TensorSpec(A)}, {"output", TensorSpec(C)}},
        .work_units = {{"reduce_full", {"reader", "writer", "compute_full"}, split.full}}};
    if (split.cliff) {
        spec.kernels.push_back(compute("compute_cliff", split.cliff));
        spec.work_units.push_back({"reduce_cliff", {"reader", "writer", "compute_cliff"}, split.cliff_core});
    }
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "writer"}},
                       .tensor_args = {{"input", A}, {"output", C}}};
    const float one = 1.0f;
    uint32_t scaler_bits;
    std::memcpy(&scaler_bits, &one, 4);
    uint32_t col = 0;
    for (uint32_t i = 0; i < split.ncores; ++i) {
        const uint32_t cols = split.cliff && i + 1 == split.ncores ? split.cliff : split.per;
        AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, CoreCoord{i, 0},
                              {{"col_start_tile_id", col / Wt * Ht * Wt + col % Wt}, {"curr_col_in_batch", col % Wt},
                               {"num_cols", cols}, {"scaler_bits", scaler_bits}});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, CoreCoord{i, 0},
                              {{"num_pages", cols}, {"start_id", col}});
        col += cols;
    }
    run_spec(mesh, spec, run);
    download(device, C, a, 32, a.cols);
}

}  // namespace ttnn_case
