// Softmax over the last dimension with ttnn 0.81.1's attention-optimized program (normalization/softmax, the
// ProgramSpec of softmax_program_factory_attention_optimized.cpp in tt-metal's history; the wheel ships its kernels
// only), without a mask and without padding: reader_unary_interleaved_sm.cpp fills the DFBs `max_scaler` and
// `sum_scaler` (kernel_lib's calculate_and_prepare_reduce_scaler) and streams each row's Wt tiles into `in0` in blocks
// of `blk` (RTAs blk, num_rows, tile_offset, Wt; CTA in0_t), compute/softmax.cpp runs kernel_lib's reduce and eltwise
// chain (RTAs num_rows, Ht, Wt, blk, start_ht; CTA in0_t; defines EXP_APPROX=0, ENABLE_FP32_DEST_ACC=0 and, for the
// variant "stable", NUMERIC_STABLE: x - max(x) before exp), and writer_unary_interleaved_start_id_blocked_sm.cpp writes
// `out0` (RTAs num_tiles, tile_offset, blk, mask_padded_data, Wt; CTAs num_datum_padded, tile_hw). `exps`,
// `recip_sum_exps` and `max` are the compute kernel's own (producer and consumer); `mask_padded` is bound as the
// factory binds it. The DFB capacities, the block size (8 without fp32 accumulation, or the largest divisor of Wt below
// it when that costs no more blocks) and the split of the tile rows over cores follow the factory.
#pragma once

#include "metal2.hpp"

namespace ttnn_case {

// The factory's DFBs (no mask, no padding, the small kernel) and the compute kernel's bindings of them.
inline std::vector<DataflowBufferSpec> softmax_dfbs(bool stable, bool causal, uint32_t blk, uint32_t in0_t,
                                                    uint32_t rounded, std::vector<DFBBinding>& compute_dfbs) {
    compute_dfbs = {
        {"in0", "in0", DFBEndpointType::CONSUMER}, {"max_scaler", "max_scaler", DFBEndpointType::CONSUMER},
        {"sum_scaler", "sum_scaler", DFBEndpointType::CONSUMER},
        {"mask_padded", "mask_padded", DFBEndpointType::CONSUMER}, {"out0", "out0", DFBEndpointType::PRODUCER},
        {"exps", "exps", DFBEndpointType::PRODUCER}, {"exps", "exps", DFBEndpointType::CONSUMER},
        {"recip_sum_exps", "recip_sum_exps", DFBEndpointType::PRODUCER},
        {"recip_sum_exps", "recip_sum_exps", DFBEndpointType::CONSUMER}};
    std::vector<DataflowBufferSpec> dfbs = {bf16_dfb("in0", in0_t), bf16_dfb("out0", blk * 2),
                                            bf16_dfb("recip_sum_exps", 1), bf16_dfb("max_scaler", 1),
                                            bf16_dfb("sum_scaler", 1), bf16_dfb("exps", rounded),
                                            bf16_dfb("mask_padded", 1)};
    if (stable) {
        compute_dfbs.push_back({"max", "max", DFBEndpointType::PRODUCER});
        compute_dfbs.push_back({"max", "max", DFBEndpointType::CONSUMER});
        dfbs.push_back(bf16_dfb("max", 1));
    }
    if (causal) {  // the fused scale-mask path: the scale tile, the mask's tiles (in4_t), x * scale (im3_t)
        for (const char* name : {"fused_scale", "fused_attn"})
            compute_dfbs.push_back({name, name, DFBEndpointType::CONSUMER});
        compute_dfbs.push_back({"scale_mask", "scale_mask", DFBEndpointType::PRODUCER});
        compute_dfbs.push_back({"scale_mask", "scale_mask", DFBEndpointType::CONSUMER});
        dfbs.push_back(bf16_dfb("fused_scale", 1));
        dfbs.push_back(bf16_dfb("fused_attn", rounded));
        dfbs.push_back(bf16_dfb("scale_mask", rounded + blk));
    }
    return dfbs;
}

// The reader's KernelSpec; with `causal`, its FUSED_SCALE_MASK and CAUSAL_MASK arguments as its kernel names them.
inline KernelSpec softmax_reader(const std::string& source, const KernelSpec::CompilerOptions::Defines& defines,
                                 bool causal, uint32_t in0_t, uint32_t mask_tiles) {
    KernelSpec reader{.unique_id = "reader", .source = source, .compiler_options = {.defines = defines},
                      .dfb_bindings = {{"in0", "in0", DFBEndpointType::PRODUCER},
                                       {"max_scaler", "max_scaler", DFBEndpointType::PRODUCER},
                                       {"sum_scaler", "sum_scaler", DFBEndpointType::PRODUCER}},
                      .tensor_bindings = {{"src", "src"}},
                      .compile_time_args = {{"in0_t", in0_t}},
                      .runtime_arg_schema = {.runtime_arg_names = {"blk", "num_rows", "tile_offset", "Wt"}},
                      .hw_config = reader_hw()};
    if (causal) {
        reader.dfb_bindings.push_back({"fused_scale", "fused_scale", DFBEndpointType::PRODUCER});
        reader.dfb_bindings.push_back({"fused_attn", "fused_attn", DFBEndpointType::PRODUCER});
        for (const char* name : {"Ht", "start_ht", "start_mask_id", "pre_scale", "mask_start_ht", "mask_offset"})
            reader.runtime_arg_schema.runtime_arg_names.push_back(name);
        reader.compile_time_args.push_back({"num_tiles_causal_mask", mask_tiles});
        reader.tensor_bindings.push_back({"mask", "mask"});
    }
    return reader;
}

inline void softmax(MeshDevice& mesh, const Args& a) {
    IDevice* device = mesh.get_device(0);
    const uint32_t Wt = a.cols / 32, Ht = a.rows / 32;
    const bool stable = a.variant == "stable", causal = a.variant == "causal";
    auto A = dram(device, a.rows * a.cols * 2), C = dram(device, a.rows * a.cols * 2);
    upload(device, A, a, "a", a.rows, a.cols);
    auto M = dram(device, causal ? a.rows * a.cols * 2 : kTileBytes);  // the causal mask: one batch, Ht x Wt tiles
    if (causal) upload(device, M, a, "m", a.rows, a.cols);
    uint32_t blk = 8;
    if (Wt % blk != 0) {
        uint32_t divisor = blk;
        while (Wt % divisor != 0) --divisor;  // tt-metal's find_max_divisor(Wt, 8)
        if ((Wt + blk - 1) / blk == Wt / divisor) blk = divisor;
    }
    const uint32_t rounded = (Wt + blk - 1) / blk * blk;
    const uint32_t in0_t = stable ? rounded : blk * 2;
    const BlockSplit split = split_blocks(Ht, 2);
    KernelSpec::CompilerOptions::Defines defines;
    if (stable) defines.push_back({"NUMERIC_STABLE", "1"});
    if (causal) defines.insert(defines.end(), {{"FUSED_SCALE_MASK", "1"}, {"CAUSAL_MASK", "1"}});
    KernelSpec::CompilerOptions::Defines compute_defines = defines;
    compute_defines.push_back({"EXP_APPROX", "0"});
    compute_defines.push_back({"ENABLE_FP32_DEST_ACC", "0"});
    std::vector<DFBBinding> compute_dfbs;
    const std::vector<DataflowBufferSpec> dfbs = softmax_dfbs(stable, causal, blk, in0_t, rounded, compute_dfbs);
    const std::string dir = "normalization/softmax/device/kernels/attention/";
    ProgramSpec spec{
        .name = "softmax_attention_optimized",
        .kernels = {
            softmax_reader(kernel(dir + "dataflow/reader_unary_interleaved_sm.cpp"), defines, causal, in0_t, Ht * Wt),
            KernelSpec{.unique_id = "writer",
                       .source = kernel(dir + "dataflow/writer_unary_interleaved_start_id_blocked_sm.cpp"),
                       .dfb_bindings = {{"out0", "out0", DFBEndpointType::CONSUMER},
                                        {"mask_padded", "mask_padded", DFBEndpointType::PRODUCER}},
                       .tensor_bindings = {{"dst", "dst"}},
                       .compile_time_args = {{"num_datum_padded", 0}, {"tile_hw", 1024}},
                       .runtime_arg_schema = {.runtime_arg_names = {"num_tiles", "tile_offset", "blk",
                                                                    "mask_padded_data", "Wt"}},
                       .hw_config = writer_hw()},
            KernelSpec{.unique_id = "compute", .source = kernel(dir + "compute/softmax.cpp"),
                       .compiler_options = {.defines = compute_defines},
                       .dfb_bindings = compute_dfbs,
                       .compile_time_args = {{"in0_t", in0_t}},
                       .runtime_arg_schema = {.runtime_arg_names = {"num_rows", "Ht", "Wt", "blk", "start_ht"}},
                       .hw_config = ComputeHardwareConfig{}}},
        .dataflow_buffers = dfbs,
        .tensor_parameters = {{"src", TensorSpec(A)}, {"dst", TensorSpec(C)}, {"mask", TensorSpec(M)}},
        .work_units = {{"wu", {"reader", "writer", "compute"},
                        CoreRangeSet(CoreRange({0, 0}, {split.ncores - 1, 0}))}}};
    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader"}, {.kernel = "writer"}, {.kernel = "compute"}},
                       .tensor_args = {{"src", A}, {"dst", C}, {"mask", M}}};
    uint32_t row = 0;
    for (uint32_t i = 0; i < split.ncores; ++i) {
        const uint32_t rows = split.cliff && i + 1 == split.ncores ? split.cliff : split.per;
        const CoreCoord core{i, 0};
        ProgramRunArgs::NamedArgs reader_args = {
            {"blk", blk}, {"num_rows", rows}, {"tile_offset", row * Wt}, {"Wt", Wt}};
        if (causal)  // one batch: the mask's tile rows follow the rows of x; pre_scale 0.5 as fp32 bits
            reader_args.insert(reader_args.end(), {{"Ht", Ht}, {"start_ht", row % Ht}, {"start_mask_id", row * Wt},
                                                   {"pre_scale", 0x3f000000u}, {"mask_start_ht", row % Ht},
                                                   {"mask_offset", 0}});
        run.kernel_run_args[0].runtime_arg_values.push_back({core, reader_args});
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, core,
                              {{"num_tiles", rows * Wt}, {"tile_offset", row * Wt}, {"blk", blk},
                               {"mask_padded_data", 0}, {"Wt", Wt}});
        AddRuntimeArgsForNode(run.kernel_run_args[2].runtime_arg_values, core,
                              {{"num_rows", rows}, {"Ht", Ht}, {"Wt", Wt}, {"blk", blk}, {"start_ht", row % Ht}});
        row += rows;
    }
    run_spec(mesh, spec, run);
    download(device, C, a, a.rows, a.cols);
}

}  // namespace ttnn_case
