// LayerNorm and RMSNorm over the last dimension with ttnn 0.81.1's interleaved multi-core program (normalization/
// layernorm, LayerNormMultiCoreProgramFactory: the small kernel, no fused pre-add, no Welford, tile layout), written
// after the factory's DFBs and arguments and the names the wheel's Metal 2.0 kernels read:
// reader_unary_interleaved_ln.cpp fills `scaler` (kernel_lib's calculate_and_prepare_reduce_scaler, SUM over rows)
// and `eps` (generate_bcast_col_scalar: column 0 of the tile) and streams each tile row into `in` in blocks of
// block_size, gamma and beta (one tile row each, the values in row 0) once (RTAs NCHt, Wt, reader_start, eps; CTAs
// block_size, W); compute/layernorm.cpp (RTA NCHt; CTAs Wt, block_size, do_gamma, do_beta, fp32_dest_acc_en,
// float32_reduction, W, tile_width; defines RMSNORM, FUSE_GAMMA, FUSE_BETA) computes E[x] (not for RMSNorm), x - E[x],
// its square, the mean of that, 1/sqrt(var + eps), the normalized row, times gamma and plus beta (broadcast by row);
// writer_unary_interleaved_start_id_blocked.cpp writes `out` (RTAs Wt, num_tile_rows, writer_start; CTA block_size).
// Under RMSNORM the kernel reads `in` where layernorm reads `xmm`, and `ex` is not bound. bf16 throughout
// (fp32_dest_acc_en 0, so block_size 8 and every intermediate DFB Float16_b); the DFB sizes are the factory's, in
// blocks: a row of Wt tiles rounded up to a whole block where the kernel holds a row, two blocks where it streams.
//
// Variants: "layernorm" and "rmsnorm" with gamma and beta (data_dir/gamma.bin and beta.bin: 32 x cols, row 0 the
// weights), "layernorm_plain" without them.
#pragma once

#include <bit>

#include "metal2.hpp"

namespace ttnn_case {

struct NormConfig {
    bool rms, affine;
    uint32_t Wt, W, block, row_up;  // row_up: Wt rounded up to a whole block
};

inline std::vector<DataflowBufferSpec> layernorm_dfbs(const NormConfig& c, std::vector<DFBBinding>& compute) {
    const auto both = [&](const char* name) {
        compute.push_back({name, name, DFBEndpointType::PRODUCER});
        compute.push_back({name, name, DFBEndpointType::CONSUMER});
    };
    compute = {{"in", "in", DFBEndpointType::CONSUMER}, {"scaler", "scaler", DFBEndpointType::CONSUMER},
               {"eps", "eps", DFBEndpointType::CONSUMER}, {"out", "out", DFBEndpointType::PRODUCER}};
    std::vector<DataflowBufferSpec> dfbs = {bf16_dfb("in", c.row_up), bf16_dfb("out", 2 * c.block),
                                            bf16_dfb("scaler", 2), bf16_dfb("eps", 2), bf16_dfb("ex2", 2),
                                            bf16_dfb("xmm2", c.row_up), bf16_dfb("ex2pe", 8)};
    for (const char* name : {"ex2", "xmm2", "ex2pe"}) both(name);
    if (!c.rms) {
        dfbs.push_back(bf16_dfb("ex", 2));
        dfbs.push_back(bf16_dfb("xmm", c.row_up));
        both("ex");
        both("xmm");
    }
    if (c.affine) {
        dfbs.push_back(bf16_dfb("fusion", 2 * c.block));
        dfbs.push_back(bf16_dfb("gamma", c.row_up));
        dfbs.push_back(bf16_dfb("beta", c.row_up));
        both("fusion");
        compute.push_back({"gamma", "gamma", DFBEndpointType::CONSUMER});
        compute.push_back({"beta", "beta", DFBEndpointType::CONSUMER});
    }
    return dfbs;
}

inline std::vector<KernelSpec> layernorm_kernels(const NormConfig& c, std::vector<DFBBinding> compute_dfbs) {
    KernelSpec::CompilerOptions::Defines reader_defines, compute_defines;
    std::vector<DFBBinding> reader_dfbs = {{"in", "in", DFBEndpointType::PRODUCER},
                                           {"scaler", "scaler", DFBEndpointType::PRODUCER},
                                           {"eps", "eps", DFBEndpointType::PRODUCER}};
    std::vector<TensorBinding> reader_tensors = {{"src", "src"}};
    if (c.affine) {
        for (const char* name : {"gamma", "beta"}) {
            reader_dfbs.push_back({name, name, DFBEndpointType::PRODUCER});
            reader_tensors.push_back({name, name});
        }
        for (auto* defines : {&reader_defines, &compute_defines}) {
            defines->push_back({"FUSE_GAMMA", "1"});
            defines->push_back({"FUSE_BETA", "1"});
        }
    }
    if (c.rms) compute_defines.push_back({"RMSNORM", "1"});
    const std::string dir = "normalization/layernorm/device/kernels/";
    return {
        KernelSpec{.unique_id = "reader", .source = kernel(dir + "dataflow/reader_unary_interleaved_ln.cpp"),
                   .compiler_options = {.defines = reader_defines},
                   .dfb_bindings = reader_dfbs,
                   .tensor_bindings = reader_tensors,
                   .compile_time_args = {{"block_size", c.block}, {"W", c.W}},
                   .runtime_arg_schema = {.runtime_arg_names = {"NCHt", "Wt", "reader_start", "eps"}},
                   .hw_config = reader_hw()},
        KernelSpec{.unique_id = "writer",
                   .source = kernel(dir + "dataflow/writer_unary_interleaved_start_id_blocked.cpp"),
                   .dfb_bindings = {{"out", "out", DFBEndpointType::CONSUMER}},
                   .tensor_bindings = {{"dst", "dst"}},
                   .compile_time_args = {{"block_size", c.block}},
                   .runtime_arg_schema = {.runtime_arg_names = {"Wt", "num_tile_rows", "writer_start"}},
                   .hw_config = writer_hw()},
        KernelSpec{.unique_id = "compute", .source = kernel(dir + "compute/layernorm.cpp"),
                   .compiler_options = {.defines = compute_defines},
                   .dfb_bindings = std::move(compute_dfbs),
                   .compile_time_args = {{"Wt", c.Wt}, {"block_size", c.block}, {"do_gamma", c.affine},
                                         {"do_beta", c.affine}, {"fp32_dest_acc_en", 0}, {"float32_reduction", 0},
                                         {"W", c.W}, {"tile_width", 32}},
                   .runtime_arg_schema = {.runtime_arg_names = {"NCHt"}},
                   .hw_config = ComputeHardwareConfig{}}};
}

inline void layernorm(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t Wt = a.cols / 32, tile_rows = a.rows / 32, block = 8;  // block_size: 8 without fp32 accumulation
    const NormConfig c{a.variant == "rmsnorm", a.variant != "layernorm_plain", Wt, a.cols, block,
                       (Wt + block - 1) / block * block};
    const float eps = 1e-5F;
    auto A = dram(device, a.rows * a.cols * 2), C = dram(device, a.rows * a.cols * 2);
    upload(device, A, a, "a", a.rows, a.cols);
    std::vector<DFBBinding> compute_dfbs;
    const std::vector<DataflowBufferSpec> dfbs = layernorm_dfbs(c, compute_dfbs);
    auto [ncores, all, group1, group2, per1, per2] =
        split_work_to_cores(device->compute_with_storage_grid_size(), tile_rows, true);
    ProgramSpec spec{.name = "layernorm_multi_core",
                     .kernels = layernorm_kernels(c, compute_dfbs),
                     .dataflow_buffers = dfbs,
                     .tensor_parameters = {{"src", TensorSpec(A)}, {"dst", TensorSpec(C)}},
                     .work_units = {{"wu", {"reader", "writer", "compute"}, all}}};
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "writer"}, {.kernel = "compute"}},
                       .tensor_args = {{"src", A}, {"dst", C}}};
    std::shared_ptr<Buffer> gamma, beta;
    if (c.affine) {
        gamma = dram(device, 32 * a.cols * 2);
        beta = dram(device, 32 * a.cols * 2);
        upload(device, gamma, a, "gamma", 32, a.cols);
        upload(device, beta, a, "beta", 32, a.cols);
        spec.tensor_parameters.push_back({"gamma", TensorSpec(gamma)});
        spec.tensor_parameters.push_back({"beta", TensorSpec(beta)});
        run.tensor_args["gamma"] = gamma;
        run.tensor_args["beta"] = beta;
    }
    const CoreCoord grid = device->compute_with_storage_grid_size();
    uint32_t row = 0;
    for (uint32_t i = 0; i < ncores; ++i) {
        const CoreCoord core{i % grid.x, i / grid.x};
        const uint32_t rows = group1.contains(core) ? per1 : per2;
        AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, core,
                              {{"NCHt", rows}, {"Wt", Wt}, {"reader_start", row},
                               {"eps", std::bit_cast<uint32_t>(eps)}});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, core,
                              {{"Wt", Wt}, {"num_tile_rows", rows}, {"writer_start", row * Wt}});
        AddRuntimeArgsForNode(run.kernel_run_args[2].runtime_arg_values, core, {{"NCHt", rows}});
        row += rows;
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.rows, a.cols);
}

}  // namespace ttnn_case
