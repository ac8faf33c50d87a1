// Transpose of the last two dims (WH) with ttnn 0.81.1's legacy transpose kernels, on one core, as tt-metal's
// single-core transpose_wh program factory ran them before its Metal 2.0 port:
// reader_unary_transpose_wh_interleaved.cpp reads the N x Ht x Wt tiles in N-W-H order (CT: the input's accessor
// args; RT: src, N, Ht, Wt, HtWt) into c_0, transpose_wh.cpp transposes each tile into c_16 (RT: N * Ht * Wt), and
// writer_unary_interleaved_start_id.cpp writes them in order (CT: c_16, the output's accessor args; RT: dst,
// pages, first page). CBs of two tiles.
#pragma once

#include "metal2.hpp"

namespace ttnn_case {

inline void transpose_wh(IDevice* device, const Args& a) {
    const uint32_t Ht = a.rows / 32, Wt = a.cols / 32, tiles = Ht * Wt, bytes = tiles * kTileBytes;
    auto A = dram(device, bytes), C = dram(device, bytes);
    upload(device, A, a, "a", a.rows, a.cols);
    Program program = CreateProgram();
    const CoreRangeSet core(CoreRange(CoreCoord{0, 0}));
    cb(program, core, CBIndex::c_0, 2);
    cb(program, core, CBIndex::c_16, 2);
    KernelHandle reader = CreateKernel(
        program, kernel("data_movement/transpose/device/kernels/dataflow/reader_unary_transpose_wh_interleaved.cpp"),
        core, reader_config(accessor_args(A)));
    KernelHandle compute = CreateKernel(
        program, kernel("data_movement/transpose/device/kernels/compute/transpose_wh.cpp"), core, ComputeConfig{});
    KernelHandle writer = CreateKernel(
        program, kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp"), core,
        writer_config(accessor_args(C, {CBIndex::c_16})));
    SetRuntimeArgs(program, reader, CoreCoord{0, 0}, {A->address(), 1, Ht, Wt, tiles});
    SetRuntimeArgs(program, compute, CoreCoord{0, 0}, {tiles});
    SetRuntimeArgs(program, writer, CoreCoord{0, 0}, {C->address(), tiles, 0});
    EnqueueProgram(device->command_queue(), program, false);
    download(device, C, a, a.cols, a.rows);
}

}  // namespace ttnn_case

namespace ttnn_case {

// Transpose WH with ttnn 0.81.1's own Metal 2.0 factory for tiled tensors
// (data_movement/transpose/device/transpose_wh_program_factory.cpp): the tiles split over the grid with
// split_work_to_cores; reader_unary_transpose_wh_interleaved_start_id.cpp reads each core's tiles in N-W-H order
// into `dfb::in0` (RTAs num_tiles, start_id, start_ht, start_wt, Ht, Wt, HtWt), transpose_wh_metal2.cpp transposes
// each (`dfb::cb_in` to `dfb::cb_out`, RTA NHtWt), writer_unary_interleaved_start_id_metal2.cpp writes them in order.
inline void transpose_wh_metal2(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t Ht = a.rows / 32, Wt = a.cols / 32, tiles = Ht * Wt, bytes = tiles * kTileBytes;
    auto A = dram(device, bytes), C = dram(device, bytes);
    upload(device, A, a, "a", a.rows, a.cols);
    auto [ncores, all, group1, group2, per1, per2] = split_work_to_cores(device->compute_with_storage_grid_size(), tiles);
    const std::string dir = "data_movement/transpose/device/kernels/";
    ProgramSpec spec{
        .name = "transpose_wh",
        .kernels = {KernelSpec{.unique_id = "reader",
                               .source = kernel(dir + "dataflow/reader_unary_transpose_wh_interleaved_start_id.cpp"),
                               .dfb_bindings = {{"in0", "in0", DFBEndpointType::PRODUCER}},
                               .tensor_bindings = {{"input", "src"}},
                               .runtime_arg_schema = {.runtime_arg_names = {"num_tiles", "start_id", "start_ht",
                                                                            "start_wt", "Ht", "Wt", "HtWt"}},
                               .hw_config = reader_hw()},
                    KernelSpec{.unique_id = "writer",
                               .source = kernel("eltwise/unary/device/kernels/dataflow/"
                                                "writer_unary_interleaved_start_id_metal2.cpp"),
                               .dfb_bindings = {{"out", "out", DFBEndpointType::CONSUMER}},
                               .tensor_bindings = {{"output", "dst"}},
                               .runtime_arg_schema = {.runtime_arg_names = {"num_pages", "start_id"}},
                               .hw_config = writer_hw()},
                    KernelSpec{.unique_id = "compute", .source = kernel(dir + "compute/transpose_wh_metal2.cpp"),
                               .compiler_options = {.opt_level = KernelBuildOptLevel::O3},
                               .dfb_bindings = {{"in0", "cb_in", DFBEndpointType::CONSUMER},
                                                {"out", "cb_out", DFBEndpointType::PRODUCER}},
                               .runtime_arg_schema = {.runtime_arg_names = {"NHtWt"}},
                               .hw_config = ComputeHardwareConfig{}}},
        .dataflow_buffers = {bf16_dfb("in0", 2), bf16_dfb("out", 2)},
        .tensor_parameters = {{"input", TensorSpec(A)}, {"output", TensorSpec(C)}},
        .work_units = {{"main", {"reader", "writer", "compute"}, all}}};
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "writer"}, {.kernel = "compute"}},
                       .tensor_args = {{"input", A}, {"output", C}}};
    uint32_t read = 0;
    for (const CoreCoord& core : corerange_to_cores(all, ncores, false)) {
        const uint32_t n = group1.contains(core) ? per1 : per2, h = read % Ht, w = read / Ht % Wt;
        AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, core,
                              {{"num_tiles", n}, {"start_id", read / tiles * tiles + h * Wt + w}, {"start_ht", h},
                               {"start_wt", w}, {"Ht", Ht}, {"Wt", Wt}, {"HtWt", tiles}});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, core, {{"num_pages", n}, {"start_id", read}});
        AddRuntimeArgsForNode(run.kernel_run_args[2].runtime_arg_values, core, {{"NHtWt", n}});
        read += n;
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.cols, a.rows);
}

}  // namespace ttnn_case
