// Test host program, single-device API (profile tilelang_tt_2025); see host_common.hpp for the command line.
#include <cstring>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "host_common.hpp"

using namespace tt;
using namespace tt::tt_metal;

// The single-device command queue moves 32-bit words.
static std::vector<uint32_t> to_words(const std::vector<uint16_t>& v) {
    std::vector<uint32_t> words((v.size() + 1) / 2, 0);
    std::memcpy(words.data(), v.data(), v.size() * 2);
    return words;
}

int main(int argc, char** argv) {
    const CaseArgs a = parse_args(argc, argv);
    const Shapes s = shapes(a);
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    auto create = [&](uint32_t rows, uint32_t cols) {
        return CreateBuffer(InterleavedBufferConfig{device, rows * cols * 2u, kTileBytes, BufferType::DRAM});
    };
    std::shared_ptr<Buffer> A = create(s.a_rows, s.a_cols);
    std::shared_ptr<Buffer> B = create(s.b_rows, s.b_cols);
    std::shared_ptr<Buffer> C = create(s.c_rows, s.c_cols);

    Program program = CreateProgram();
    build_program(program, a, A, B, C);

    std::vector<uint32_t> words = to_words(tilize_nfaces(read_bf16(a.data_dir + "/a.bin", size_t{s.a_rows} * s.a_cols),
                                                         s.a_rows, s.a_cols));
    EnqueueWriteBuffer(cq, A, words, false);
    if (a.op != "exp") {
        words = to_words(tilize_nfaces(read_bf16(a.data_dir + "/b.bin", size_t{s.b_rows} * s.b_cols), s.b_rows,
                                       s.b_cols));
        EnqueueWriteBuffer(cq, B, words, false);
    }
    EnqueueProgram(cq, program, false);
    std::vector<uint32_t> out;
    EnqueueReadBuffer(cq, C, out, true);
    Finish(cq);
    std::vector<uint16_t> tiles(size_t{s.c_rows} * s.c_cols);
    std::memcpy(tiles.data(), out.data(), tiles.size() * 2);
    write_bf16(a.data_dir + "/c.bin", untilize_nfaces(tiles, s.c_rows, s.c_cols));
    CloseDevice(device);
    std::printf("done: %s on %u core(s)\n", a.op.c_str(), a.ncores);
    return 0;
}
