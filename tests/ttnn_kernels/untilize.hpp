// Untilize with ttnn 0.81.1's Metal 2.0 factory for interleaved tensors
// (data_movement/untilize/device/factories/untilize_multi_core_program_factory.cpp): reader_unary_start_id_metal2.cpp
// reads each core's tile rows into `dfb::in` (RTAs num_tiles, start_id), untilize_variable_num_blocks_metal2.cpp
// untilizes each block of Wt tiles (CTA per_core_block_tile_cnt, RTA per_core_block_cnt; a compute kernel for the full
// cores, one for the cliff) and writer_unary_stick_layout_split_rows_multi_core.cpp writes the rows as row-major
// sticks (six CTAs of the tile and page geometry, five RTAs of the core's blocks). DFBs of two blocks.
#pragma once

#include "metal2.hpp"

namespace ttnn_case {

inline KernelSpec untilize_writer(uint32_t Wt, uint32_t cols) {
    return KernelSpec{
        .unique_id = "writer",
        .source = kernel("data_movement/untilize/device/kernels/dataflow/writer_unary_stick_layout_split_rows_multi_core.cpp"),
        .dfb_bindings = {{"out", "out", DFBEndpointType::CONSUMER}},
        .tensor_bindings = {{"output", "dst"}},
        .compile_time_args = {{"tile_height", 32}, {"num_tiles_per_input_block", Wt},
                              {"num_output_blocks_across_width", 1}, {"output_element_size", 2},
                              {"num_cols_per_input_block", Wt * 32}, {"num_cols_per_output_block", cols}},
        .runtime_arg_schema = {.runtime_arg_names = {"num_input_blocks_to_process", "height_wise_input_block_start_index",
                                                     "num_unpadded_cols_per_input_block",
                                                     "width_wise_output_block_start_index",
                                                     "num_cols_already_processed_in_first_output_block"}},
        .hw_config = writer_hw()};
}

inline void untilize(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t Wt = a.cols / 32, Ht = a.rows / 32, stick = a.cols * 2;
    auto A = dram(device, a.rows * stick), C = dram(device, a.rows * stick, stick);
    upload(device, A, a, "a", a.rows, a.cols);
    const BlockSplit split = split_blocks(Ht, 2);
    const uint32_t entries = split.per == 1 ? Wt : 2 * Wt;
    auto compute = [&](const std::string& id) {
        return KernelSpec{
            .unique_id = id,
            .source = kernel("data_movement/untilize/device/kernels/compute/untilize_variable_num_blocks_metal2.cpp"),
            .compiler_options = {.opt_level = KernelBuildOptLevel::O3},
            .dfb_bindings = {{"src0", "src", DFBEndpointType::CONSUMER}, {"out", "out", DFBEndpointType::PRODUCER}},
            .compile_time_args = {{"per_core_block_tile_cnt", Wt}},
            .runtime_arg_schema = {.runtime_arg_names = {"per_core_block_cnt"}},
            .hw_config = ComputeHardwareConfig{}};
    };
    ProgramSpec spec{
        .name = "untilize_multi_core",
        .kernels = {KernelSpec{.unique_id = "reader",
                               .source = kernel("data_movement/untilize/device/kernels/dataflow/reader_unary_start_id_metal2.cpp"),
                               .dfb_bindings = {{"src0", "in", DFBEndpointType::PRODUCER}},
                               .tensor_bindings = {{"input", "src"}},
                               .runtime_arg_schema = {.runtime_arg_names = {"num_tiles", "start_id"}},
                               .hw_config = reader_hw()},
                    untilize_writer(Wt, a.cols), compute("compute_full")},
        .dataflow_buffers = {bf16_dfb("src0", entries), bf16_dfb("out", entries)},
        .tensor_parameters = {{"input", TensorSpec(A)}, {"output", TensorSpec(C)}},
        .work_units = {{"wu_full", {"reader", "writer", "compute_full"}, split.full}}};
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "writer"}, {.kernel = "compute_full"}},
                       .tensor_args = {{"input", A}, {"output", C}}};
    if (split.cliff) {
        spec.kernels.push_back(compute("compute_cliff"));
        spec.work_units.push_back({"wu_cliff", {"reader", "writer", "compute_cliff"}, split.cliff_core});
        run.kernel_run_args.push_back({.kernel = "compute_cliff"});
    }
    for (uint32_t i = 0; i < split.ncores; ++i) {
        const bool cliff = split.cliff && i + 1 == split.ncores;
        const uint32_t blocks = cliff ? split.cliff : split.per;
        const CoreCoord core{i, 0};
        AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, core,
                              {{"num_tiles", Wt * blocks}, {"start_id", i * split.per * Wt}});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, core,
                              {{"num_input_blocks_to_process", blocks},
                               {"height_wise_input_block_start_index", i * split.per},
                               {"num_unpadded_cols_per_input_block", Wt * 32},
                               {"width_wise_output_block_start_index", 0},
                               {"num_cols_already_processed_in_first_output_block", 0}});
        AddRuntimeArgsForNode(run.kernel_run_args[cliff ? 3 : 2].runtime_arg_values, core,
                              {{"per_core_block_cnt", blocks}});
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.rows, a.cols, false);
}

}  // namespace ttnn_case
