// Tilize with ttnn 0.81.1's Metal 2.0 factory (data_movement/tilize/device/tilize_multi_core_default_program_factory.cpp):
// reader_unary_stick_layout_split_rows_multicore.cpp reads 32 row-major sticks per block into the DFB `in` (CTAs
// tile_height, num_pages_in_row, size_of_valid_data_in_last_page_in_row; RTAs num_rows, num_tiles_per_block,
// block_width_size, num_full_blocks_in_row, start_page_id), kernel/compute/tilize_metal2.cpp tilizes each block of Wt
// tiles (CTAs per_core_block_cnt, per_core_block_tile_cnt; one compute kernel for the full cores, one for the cliff)
// and writer_unary_interleaved_start_id_metal2.cpp writes the tiles (RTAs num_pages, start_id). DFBs of Wt tiles.
#pragma once

#include "metal2.hpp"

namespace ttnn_case {

inline void tilize(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t Wt = a.cols / 32, Ht = a.rows / 32, stick = a.cols * 2;
    auto A = dram(device, a.rows * stick, stick), C = dram(device, a.rows * stick);
    upload(device, A, a, "a", a.rows, a.cols, false);
    const BlockSplit split = split_blocks(Ht, 2);
    auto compute = [&](const std::string& id, uint32_t blocks) {
        return KernelSpec{
            .unique_id = id, .source = "ttnn/cpp/ttnn/kernel/compute/tilize_metal2.cpp",
            .compiler_options = {.opt_level = KernelBuildOptLevel::O3},
            .dfb_bindings = {{"input", "in", DFBEndpointType::CONSUMER}, {"output", "out", DFBEndpointType::PRODUCER}},
            .compile_time_args = {{"per_core_block_cnt", blocks}, {"per_core_block_tile_cnt", Wt}},
            .hw_config = ComputeHardwareConfig{}};
    };
    ProgramSpec spec{
        .name = "tilize_multi_core",
        .kernels = {
            KernelSpec{.unique_id = "reader",
                       .source = kernel("data_movement/tilize/device/kernels/dataflow/"
                                        "reader_unary_stick_layout_split_rows_multicore.cpp"),
                       .dfb_bindings = {{"input", "in", DFBEndpointType::PRODUCER}},
                       .tensor_bindings = {{"input", "src"}},
                       .compile_time_args = {{"tile_height", 32}, {"num_pages_in_row", 1},
                                             {"size_of_valid_data_in_last_page_in_row", stick}},
                       .runtime_arg_schema = {.runtime_arg_names = {"num_rows", "num_tiles_per_block",
                                                                    "block_width_size", "num_full_blocks_in_row",
                                                                    "start_page_id"}},
                       .hw_config = reader_hw()},
            KernelSpec{.unique_id = "writer",
                       .source = kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id_metal2.cpp"),
                       .dfb_bindings = {{"output", "out", DFBEndpointType::CONSUMER}},
                       .tensor_bindings = {{"output", "dst"}},
                       .runtime_arg_schema = {.runtime_arg_names = {"num_pages", "start_id"}},
                       .hw_config = writer_hw()},
            compute("compute_full", split.per)},
        .dataflow_buffers = {bf16_dfb("input", Wt), bf16_dfb("output", Wt)},
        .tensor_parameters = {{"input", TensorSpec(A)}, {"output", TensorSpec(C)}},
        .work_units = {{"tilize_full", {"reader", "writer", "compute_full"}, split.full}}};
    if (split.cliff) {
        spec.kernels.push_back(compute("compute_cliff", split.cliff));
        spec.work_units.push_back({"tilize_cliff", {"reader", "writer", "compute_cliff"}, split.cliff_core});
    }
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "writer"}},
                       .tensor_args = {{"input", A}, {"output", C}}};
    uint32_t tile = 0, row = 0;
    for (uint32_t i = 0; i < split.ncores; ++i) {
        const uint32_t blocks = split.cliff && i + 1 == split.ncores ? split.cliff : split.per;
        AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, CoreCoord{i, 0},
                              {{"num_rows", blocks * 32}, {"num_tiles_per_block", Wt}, {"block_width_size", stick},
                               {"num_full_blocks_in_row", 1}, {"start_page_id", row}});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, CoreCoord{i, 0},
                              {{"num_pages", blocks * Wt}, {"start_id", tile}});
        tile += blocks * Wt;
        row += blocks * 32;
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.rows, a.cols);
}

}  // namespace ttnn_case
