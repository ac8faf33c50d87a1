// Host program of tests/emulator/test_tt_emulator_cb_tail.py: C = A over 2 bf16 tiles on one core, each tile moved as
// a block of two CB pages of which only the first is written, as ttnn's layernorm moves a row whose width is not a
// whole number of blocks: the producers push the whole block, the consumers read the valid page and pop the block.
// CBs c_0 (reader -> compute) and c_16 (compute -> writer) hold one such block (2 pages).
//
// Usage: host <kernel_dir> <data_dir> <MODE>: reads a.bin (2 x 1024 bf16 in tile order), writes c.bin; MODE_<MODE>
// is defined for every kernel: TAIL (the valid use), READ_TAIL (the compute kernel reads the unwritten page),
// WRITE_TAIL (the writer writes it to DRAM), POP_AHEAD (the reader pushes the block's pages one by one, so the
// compute kernel's pop of both covers a page it neither waited for nor got with the page it waited for); ZERO and
// WRITE_IFACE: see writer.cpp.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s kernel_dir data_dir MODE\n", argv[0]);
        return 64;
    }
    constexpr uint32_t tiles = 2, bytes = tiles * 2048;
    const std::string dir = argv[1], data = argv[2];
    const std::map<std::string, std::string> defines = {{std::string("MODE_") + argv[3], "1"}};
    IDevice* device = CreateDevice(0);
    auto buffer = [&] { return CreateBuffer(InterleavedBufferConfig{device, bytes, 2048, BufferType::DRAM}); };
    auto A = buffer(), C = buffer();
    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    for (uint8_t cb : {CBIndex::c_0, CBIndex::c_16}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(2 * 2048, {{cb, DataFormat::Float16_b}})
                                                .set_page_size(cb, 2048));
    }
    std::vector<uint32_t> reader_ct, writer_ct;
    TensorAccessorArgs(*A).append_to(reader_ct);
    TensorAccessorArgs(*C).append_to(writer_ct);
    auto reader = CreateKernel(program, dir + "/reader.cpp", core, ReaderDataMovementConfig(reader_ct, defines));
    auto writer = CreateKernel(program, dir + "/writer.cpp", core, WriterDataMovementConfig(writer_ct, defines));
    auto compute = CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{.defines = defines});
    SetRuntimeArgs(program, reader, core, {A->address(), tiles});
    SetRuntimeArgs(program, compute, core, {tiles});
    SetRuntimeArgs(program, writer, core, {C->address(), tiles});
    CommandQueue& cq = device->command_queue();
    std::vector<uint32_t> a(bytes / 4);
    std::ifstream(data + "/a.bin", std::ios::binary).read(reinterpret_cast<char*>(a.data()), bytes);
    EnqueueWriteBuffer(cq, A, a, false);
    EnqueueProgram(cq, program, false);
    std::vector<uint32_t> out;
    EnqueueReadBuffer(cq, C, out, true);
    Finish(cq);
    std::ofstream(data + "/c.bin", std::ios::binary).write(reinterpret_cast<const char*>(out.data()), bytes);
    CloseDevice(device);
    std::printf("done: %u tiles\n", tiles);
    return 0;
}
