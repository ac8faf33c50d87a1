// The kernels and per-core runtime arguments of the 2-D multicast matmul (see matmul_mcast.hpp), as
// MatmulMultiCoreReuseMcast2DProgramFactory creates and sets them.
#pragma once

#include "matmul_mcast.hpp"

namespace ttnn_case {

struct Mcast2DKernels {
    KernelHandle in0_sender, in0_receiver, in0_receiver_other, in1_sender, in1_receiver, in1_receiver_other;
};

inline DataMovementConfig mcast2d_dm(DataMovementProcessor p, NOC noc, std::vector<uint32_t> ct,
                                     std::unordered_map<std::string, uint32_t> named,
                                     std::map<std::string, std::string> defines = {}) {
    return DataMovementConfig{.processor = p, .noc = noc, .compile_args = std::move(ct), .defines = std::move(defines),
                              .named_compile_args = std::move(named)};
}

inline Mcast2DKernels mcast2d_kernels(Program& program, const Mcast2D& m, const Mcast2DSems& s, const Buffer& A,
                                      const Buffer& B, const Buffer& C, const Buffer* bias, uint32_t half_core) {
    const NOC in0_noc = tt::tt_metal::detail::preferred_noc_for_dram_write(tt::ARCH::WORMHOLE_B0);
    const NOC in1_noc = tt::tt_metal::detail::preferred_noc_for_dram_read(tt::ARCH::WORMHOLE_B0);
    const std::size_t cols = m.num_blocks_x, rows = m.num_blocks_y;
    const CoreRange all({0, 0}, {cols - 1, rows - 1});
    std::map<std::string, std::string> writer_defines;
    if (bias) writer_defines["FUSE_BIAS"] = "1";
    const auto dm = DataMovementProcessor::RISCV_0;
    const auto rd = DataMovementProcessor::RISCV_1;
    const std::string dir = "matmul/device/kernels/dataflow/";
    Mcast2DKernels k{};
    k.in0_sender = CreateKernel(program, kernel(dir + "reader_bmm_tile_layout_in0_sender_padding.cpp"),
                                CoreRange({0, 0}, {0, rows - 1}),
                                mcast2d_dm(rd, in0_noc, mcast2d_in0_sender_ct(m, s, A),
                                           {{"cb_in0", CBIndex::c_0}, {"cb_in0_sharded", CBIndex::c_2},
                                            {"cb_sparsity", CBIndex::c_6}, {"cb_in0_intermediate", CBIndex::c_8},
                                            {"num_active", 0}}));
    k.in1_sender = CreateKernel(program, kernel(dir + "reader_bmm_tile_layout_in1_sender_writer_padding.cpp"),
                                CoreRange({0, 0}, {cols - 1, 0}),
                                mcast2d_dm(dm, in1_noc, mcast2d_in1_sender_ct(m, s, B, C, bias),
                                           {{"cb_in1", CBIndex::c_1}, {"cb_bias", CBIndex::c_3},
                                            {"cb_out", CBIndex::c_4}, {"cb_sparsity", CBIndex::c_7},
                                            {"cb_in1_intermediate", CBIndex::c_9}, {"num_active", 0}},
                                           writer_defines));
    const std::unordered_map<std::string, uint32_t> in1_names = {
        {"cb_in1", CBIndex::c_1}, {"cb_bias", CBIndex::c_3}, {"cb_out", CBIndex::c_4}};
    const std::vector<uint32_t> in0_recv_ct = {m.in0_block_tiles, m.num_blocks, m.out_num_blocks_x,
                                               m.out_num_blocks_y, s.in0_sender, s.in0_receiver, 1, 0};
    // in0 receivers: the top row but the corner, and the left half below it; in1 receivers: the left column but the
    // corner, and the left half; the cores right of half_core below the top row take both on the other NoCs.
    std::vector<CoreRange> in0_recv, in1_recv;
    if (cols > 1) in0_recv.push_back(CoreRange({1, 0}, {cols - 1, 0}));
    if (rows > 1) in1_recv.push_back(CoreRange({0, 1}, {0, rows - 1}));
    if (cols > 1 && rows > 1) {
        in0_recv.push_back(CoreRange({1, 1}, {half_core, rows - 1}));
        in1_recv.push_back(CoreRange({1, 1}, {half_core, rows - 1}));
    }
    const std::string in0_recv_path = kernel(dir + "reader_bmm_tile_layout_in0_receiver.cpp");
    const std::string in1_recv_path = kernel(dir + "reader_bmm_tile_layout_in1_receiver_writer_padding.cpp");
    if (!in1_recv.empty()) {
        k.in1_receiver = CreateKernel(program, in1_recv_path, CoreRangeSet(in1_recv),
                                      mcast2d_dm(dm, in1_noc, mcast2d_in1_receiver_ct(m, s, C), in1_names,
                                                 writer_defines));
    }
    if (!in0_recv.empty()) {
        k.in0_receiver = CreateKernel(program, in0_recv_path, CoreRangeSet(in0_recv),
                                      mcast2d_dm(rd, in0_noc, in0_recv_ct, {{"cb_in0", CBIndex::c_0}}));
    }
    k.in0_receiver_other = k.in0_receiver;
    k.in1_receiver_other = k.in1_receiver;
    if (half_core + 1 < cols && rows > 1) {  // split half: the right part on the other NoCs
        const CoreRange other({half_core + 1, 1}, {cols - 1, rows - 1});
        k.in1_receiver_other = CreateKernel(program, in1_recv_path, other,
                                            mcast2d_dm(dm, in0_noc, mcast2d_in1_receiver_ct(m, s, C), in1_names,
                                                       writer_defines));
        k.in0_receiver_other = CreateKernel(program, in0_recv_path, other,
                                            mcast2d_dm(rd, in1_noc, in0_recv_ct, {{"cb_in0", CBIndex::c_0}}));
    }
    CreateKernel(program, kernel("matmul/device/kernels/compute/bmm_large_block_zm_fused_bias_activation.cpp"), all,
                 mcast2d_compute(m));
    return k;
}

inline void mcast2d_runtime_args(Program& program, IDevice* device, const Mcast2D& m, const Mcast2DKernels& k,
                                 const Buffer& A, const Buffer& B, const Buffer& C, const Buffer* bias,
                                 uint32_t half_core) {
    const std::size_t cols = m.num_blocks_x, rows = m.num_blocks_y;
    for (std::size_t y = 0; y < rows; ++y) {
        for (std::size_t x = 0; x < cols; ++x) {
            const CoreCoord core{x, y};
            const CoreCoord left = device->worker_core_from_logical_core({0, y});
            const CoreCoord left1 = device->worker_core_from_logical_core({std::min<std::size_t>(1, cols - 1), y});
            const CoreCoord right = device->worker_core_from_logical_core({cols - 1, y});
            const CoreCoord top = device->worker_core_from_logical_core({x, 0});
            const CoreCoord top1 = device->worker_core_from_logical_core({x, std::min<std::size_t>(1, rows - 1)});
            const CoreCoord bottom = device->worker_core_from_logical_core({x, rows - 1});
            const uint32_t out_start = uint32_t(x * m.per_core_N + y * m.per_core_M * m.N);
            if (x == 0) {  // in0 sender on NOC_1: the rectangle from its larger corner (right) to left + 1
                SetRuntimeArgs(program, k.in0_sender, core,
                               {A.address(), uint32_t(m.out_block_h * m.K * y), uint32_t(right.x), uint32_t(right.y),
                                uint32_t(left1.x), uint32_t(left1.y), m.out_block_h, 0});
            } else {
                SetRuntimeArgs(program, x <= half_core || y == 0 ? k.in0_receiver : k.in0_receiver_other, core,
                               {uint32_t(left.x), uint32_t(left.y)});
            }
            if (y == 0) {  // in1 sender on NOC_0: top + 1 to bottom
                std::vector<uint32_t> rt = {B.address(), uint32_t(m.per_core_N * x), uint32_t(top1.x),
                                            uint32_t(top1.y), uint32_t(bottom.x), uint32_t(bottom.y), 0,
                                            C.address(), out_start, m.out_block_w,
                                            m.out_block_h / m.out_subblock_h, m.out_subblock_h, 0,
                                            m.out_block_w / m.out_subblock_w, m.out_block_w / m.out_subblock_w,
                                            m.out_subblock_w, 0, 0, bias ? bias->address() : 0,
                                            bias ? uint32_t(m.per_core_N * x) : 0, m.out_num_blocks_x};
                SetRuntimeArgs(program, k.in1_sender, core, rt);
            } else {
                std::vector<uint32_t> rt = {uint32_t(top.x), uint32_t(top.y), C.address(), out_start};
                for (uint32_t v : mcast2d_out_padding(m)) rt.push_back(v);
                rt.push_back(m.out_num_blocks_y);
                rt.push_back(m.out_num_blocks_x);
                SetRuntimeArgs(program, x <= half_core ? k.in1_receiver : k.in1_receiver_other, core, rt);
            }
        }
    }
}

inline void matmul_mcast2d(IDevice* device, const Args& a) {
    const uint32_t N = uint32_t(std::stoul(a.extra.at(0)) / 32);
    const uint32_t pcm = a.extra.size() > 1 ? uint32_t(std::stoul(a.extra[1])) : 1;
    const uint32_t pcn = a.extra.size() > 2 ? uint32_t(std::stoul(a.extra[2])) : 2;
    const Mcast2D m{.M = a.rows / 32, .K = a.cols / 32, .N = N, .per_core_M = pcm, .per_core_N = pcn,
                    .fp32 = a.variant != "mcast2d_bf16", .bias = a.variant.ends_with("_bias"),
                    .l1_acc = a.variant.starts_with("mcast2d_l1acc")};
    auto A = dram(device, m.M * m.K * kTileBytes), B = dram(device, m.K * m.N * kTileBytes);
    auto C = dram(device, m.M * m.N * kTileBytes);
    upload(device, A, a, "a", a.rows, a.cols);
    upload(device, B, a, "b", a.cols, m.N * 32);
    std::shared_ptr<Buffer> bias;
    if (m.bias) {
        bias = dram(device, m.N * kTileBytes);
        upload(device, bias, a, "bias", 32, m.N * 32);
    }
    Program program = CreateProgram();
    const CoreRange all({0, 0}, {m.num_blocks_x - 1, m.num_blocks_y - 1});
    const Mcast2DSems s{CreateSemaphore(program, all, kInvalid), CreateSemaphore(program, all, kInvalid),
                        CreateSemaphore(program, all, kInvalid), CreateSemaphore(program, all, kInvalid)};
    const bool split_half = m.num_blocks_x > 2 && m.num_blocks_y > 1;  // interleaved in0
    const uint32_t half_core = split_half ? m.num_blocks_x / 2 : m.num_blocks_x - 1;
    mcast2d_cbs(program, all, m);
    const Mcast2DKernels k = mcast2d_kernels(program, m, s, *A, *B, *C, bias.get(), half_core);
    mcast2d_runtime_args(program, device, m, k, *A, *B, *C, bias.get(), half_core);
    EnqueueProgram(device->command_queue(), program, false);
    download(device, C, a, a.rows, m.N * 32);
}

}  // namespace ttnn_case
