// Matmul with ttnn 0.81.1's 2-D multicast kernels (the legacy, CB-index API): reader_bmm_tile_layout_in0_sender_
// padding.cpp on the left column reads in0 blocks (per_core_M x in0_block_w tiles) and multicasts them along its row;
// reader_bmm_tile_layout_in0_receiver.cpp on the other cores takes them; reader_bmm_tile_layout_in1_sender_writer_
// padding.cpp on the top row reads in1 blocks (in0_block_w x per_core_N) and multicasts them down its column, and
// reader_bmm_tile_layout_in1_receiver_writer_padding.cpp on the other cores takes them; both write their core's
// output subblocks. bmm_large_block_zm_fused_bias_activation.cpp multiplies on every core.
//
// The program follows MatmulMultiCoreReuseMcast2DProgramFactory (ttnn/cpp/ttnn/operations/matmul/device/factory/
// matmul_multicore_reuse_mcast_2d_program_factory.cpp, create_program_mcast_in0_in1, interleaved in0, in1 and out,
// no transpose_mcast): the four semaphores on all cores (INVALID), the in0 sender on RISCV_1 and
// preferred_noc_for_dram_write (NOC_1), the in1 sender/writer on RISCV_0 and preferred_noc_for_dram_read (NOC_0);
// with more than 2 columns and more than 1 row the receivers right of half_core run on the other NoCs (the "split
// half" setup); each multicast rectangle's corners in its NoC's order (NOC_1: the larger corner first); CBs c_0 (in0),
// c_1 (in1) double-buffered (MCAST_INPUT_BUFFERING_DEPTH 2) when there is more than one K block, c_4 (out) and c_5
// (intermed0) of one output block, c_3 (bias) of out_block_w tiles with FUSE_BIAS. The compile-time arguments are
// the factory's, with the ones 0.81.1's kernels read beyond that factory's version (the in1 writer's compact_output
// at 32, the in0 sender's num_batch_compute after its accessor arguments, the named `num_active`) given their dense,
// non-indexed values. fp32_dest_acc_en (FP32_DEST_ACC_EN): intermed0 Float32, its own CB; without it (variant
// "mcast2d_bf16") intermed0 is bf16 as the output and the factory shares one CB config between c_4 and c_5 (one L1
// block), which the emulator models as tt-metal does (two indices, one address).
// Usage: ... matmul <variant> <M> <K> <dir> <N> [<per_core_M> <per_core_N>]; variants mcast2d, mcast2d_bf16,
// mcast2d_bias (FUSE_BIAS: data_dir/bias.bin, 32 x N, the values in row 0), mcast2d_l1acc (PACKER_L1_ACC),
// mcast2d_l1acc_bias (both).
#pragma once

#include "ttnn_host.hpp"

namespace ttnn_case {

constexpr uint32_t kInvalid = 0;  // hostdevcommon/common_values.hpp: INVALID 0, VALID 1

struct Mcast2D {
    uint32_t M, K, N;  // in tiles
    uint32_t per_core_M, per_core_N;
    bool fp32 = true, bias = false, l1_acc = false;
    uint32_t in0_block_w = 2, out_subblock_h = 1, out_subblock_w = 2;
    uint32_t out_block_h = per_core_M, out_block_w = per_core_N;
    uint32_t num_blocks = K / in0_block_w;
    uint32_t num_blocks_y = (M - 1) / per_core_M + 1, num_blocks_x = (N - 1) / per_core_N + 1;
    uint32_t out_num_blocks_x = per_core_N / out_block_w, out_num_blocks_y = per_core_M / out_block_h;
    uint32_t in0_block_tiles = out_block_h * in0_block_w, in1_block_tiles = out_block_w * in0_block_w;
    uint32_t out_block_tiles = out_block_h * out_block_w;
};

struct Mcast2DSems {
    uint32_t in0_sender, in0_receiver, in1_sender, in1_receiver;
};

inline void mcast2d_cbs(Program& program, const CoreRange& all, const Mcast2D& m) {
    const uint32_t depth = m.num_blocks > 1 ? 2 : 1;  // MCAST_INPUT_BUFFERING_DEPTH when B * num_blocks > 1
    cb(program, all, CBIndex::c_0, m.in0_block_tiles * depth);
    cb(program, all, CBIndex::c_1, m.in1_block_tiles * depth);
    if (m.fp32 || m.l1_acc) {  // interm0 of its own format (Float32 with fp32_dest_acc_en, else Float16_b)
        cb(program, all, CBIndex::c_4, m.out_block_tiles);
        const tt::DataFormat f = m.fp32 ? tt::DataFormat::Float32 : tt::DataFormat::Float16_b;
        cb(program, all, CBIndex::c_5, m.out_block_tiles, m.fp32 ? 2 * kTileBytes : kTileBytes, f);
    } else {  // "share buffer": out and interm0 in one config, one L1 block
        CreateCircularBuffer(program, all,
                             CircularBufferConfig(m.out_block_tiles * kTileBytes,
                                                  {{CBIndex::c_4, tt::DataFormat::Float16_b},
                                                   {CBIndex::c_5, tt::DataFormat::Float16_b}})
                                 .set_page_size(CBIndex::c_4, kTileBytes)
                                 .set_page_size(CBIndex::c_5, kTileBytes));
    }
    if (m.bias) cb(program, all, CBIndex::c_3, m.out_block_w);
}

inline std::vector<uint32_t> mcast2d_in0_sender_ct(const Mcast2D& m, const Mcast2DSems& s, const Buffer& in0) {
    std::vector<uint32_t> ct = {1, m.K, m.in0_block_w, m.out_block_h * m.K, m.in0_block_w, m.out_block_h,
                                m.in0_block_tiles, 0, 0, 0, 0, 0, m.num_blocks, m.out_num_blocks_x,
                                m.out_num_blocks_y, s.in0_sender, s.in0_receiver, m.num_blocks_x - 1,
                                m.num_blocks_x - 1, m.M * m.K, 1, 1, 0, 0, 0, 1, 0, 0};
    TensorAccessorArgs(in0).append_to(ct);
    TensorAccessorArgs().append_to(ct);  // the sparsity placeholder
    ct.push_back(1);                     // num_batch_compute (read only with sparsity)
    return ct;
}

inline std::vector<uint32_t> mcast2d_out_ct(const Mcast2D& m) {  // the writers' out tensor and subblock arguments
    return {1, m.N, m.out_subblock_w, m.out_subblock_h * m.N, m.out_block_w, m.out_block_h * m.N, m.out_subblock_w,
            m.out_subblock_h, m.out_subblock_w * m.out_subblock_h, m.M * m.N};
}

inline std::vector<uint32_t> mcast2d_in1_sender_ct(const Mcast2D& m, const Mcast2DSems& s, const Buffer& in1,
                                                   const Buffer& out, const Buffer* bias) {
    std::vector<uint32_t> ct = {1, m.N, m.in0_block_w * m.N, m.out_block_w, m.out_block_w, m.in0_block_w,
                                m.in1_block_tiles, m.num_blocks, m.out_num_blocks_x, m.out_num_blocks_y,
                                s.in1_sender, s.in1_receiver, m.num_blocks_y - 1, m.num_blocks_y - 1, m.K * m.N, 1,
                                0, 0, 0};
    for (uint32_t v : mcast2d_out_ct(m)) ct.push_back(v);
    for (uint32_t v : {bias ? 1u : 0u, 0u, 0u, 0u}) ct.push_back(v);  // in3 stride, AG, RS, compact_output
    TensorAccessorArgs(in1).append_to(ct);
    TensorAccessorArgs().append_to(ct);  // the sparsity placeholder
    TensorAccessorArgs(out).append_to(ct);
    if (bias) TensorAccessorArgs(*bias).append_to(ct);
    return ct;
}

inline std::vector<uint32_t> mcast2d_in1_receiver_ct(const Mcast2D& m, const Mcast2DSems& s, const Buffer& out) {
    std::vector<uint32_t> ct = {m.in1_block_tiles, m.num_blocks, m.out_num_blocks_x, m.out_num_blocks_y,
                                s.in1_sender, s.in1_receiver, 1};
    for (uint32_t v : mcast2d_out_ct(m)) ct.push_back(v);
    ct.push_back(m.bias ? m.out_block_w : 0);
    ct.push_back(0);  // fuse_op_reduce_scatter
    TensorAccessorArgs(out).append_to(ct);
    return ct;
}

inline ComputeConfig mcast2d_compute(const Mcast2D& m) {
    std::vector<uint32_t> ct = {m.in0_block_w, m.out_block_h / m.out_subblock_h, m.in0_block_tiles,
                                m.out_subblock_h * m.in0_block_w, m.out_block_w / m.out_subblock_w,
                                m.in1_block_tiles, m.out_block_w, m.num_blocks, m.out_num_blocks_x,
                                m.out_num_blocks_y, m.out_subblock_h, m.out_subblock_w,
                                m.out_subblock_h * m.out_subblock_w, 1, m.out_block_tiles, 0, 0, 0};
    ComputeConfig c{.math_fidelity = MathFidelity::HiFi4, .fp32_dest_acc_en = m.fp32, .compile_args = ct};
    if (m.fp32) c.defines["FP32_DEST_ACC_EN"] = "1";
    if (m.l1_acc) c.defines["PACKER_L1_ACC"] = "1";
    c.named_compile_args = {{"cb_in0", CBIndex::c_0},         {"cb_in1", CBIndex::c_1},
                            {"cb_bias", CBIndex::c_3},        {"cb_out", CBIndex::c_4},
                            {"cb_intermed0", CBIndex::c_5},   {"cb_in0_intermediate", CBIndex::c_8},
                            {"cb_in1_intermediate", CBIndex::c_9}, {"cb_in0_transposed", CBIndex::c_10}};
    if (m.bias) {
        c.defines["FUSE_BIAS"] = "1";
        c.compile_args.push_back(1);  // row_broadcast_bias
        c.named_compile_args["bias_ntiles"] = m.out_block_w;
    }
    return c;
}

// The writers' padding arguments of a core: no padding here (M and N are multiples of the per-core blocks).
inline std::vector<uint32_t> mcast2d_out_padding(const Mcast2D& m) {
    return {m.out_block_h / m.out_subblock_h, m.out_block_h / m.out_subblock_h, m.out_subblock_h, 0,
            m.out_block_w / m.out_subblock_w, m.out_block_w / m.out_subblock_w, m.out_subblock_w, 0, 0};
}

}  // namespace ttnn_case
