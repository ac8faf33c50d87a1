// Host program of tests/emulator/test_tt_emulator_ttnn_api.py: C = A - B over `tiles` bf16 tiles on one core, through the
// kernels reader.cpp, compute.cpp and writer.cpp of <kernel_dir>, written with ttnn 0.81.1's kernel API (Noc,
// DataflowBuffer, TensorAccessor with its default page size, get_local_cb_interface, binary_tiles_init, the
// conditional reconfigurations, noc_async_writes_flushed). CBs c_0, c_1 (inputs) and c_2 (output) hold two
// tiles; c_3 holds one Float32 tile (its format is what the compute kernel reconfigures to and back).
//
// Usage: host <tiles> <kernel_dir> <data_dir> [<role> <FAULT>]: reads a.bin and b.bin (tiles x 1024 bf16 in tile
// order), writes c.bin; the optional fault defines FAULT_<FAULT> when compiling the <role> kernel.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;

static std::vector<uint32_t> read_words(const std::string& path, size_t words) {
    std::vector<uint32_t> v(words);
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(words * 4));
    return v;
}

int main(int argc, char** argv) {
    if (argc != 4 && argc != 6) {
        std::fprintf(stderr, "usage: %s tiles kernel_dir data_dir [role FAULT]\n", argv[0]);
        return 64;
    }
    const uint32_t tiles = std::stoul(argv[1]), bytes = tiles * 2048;
    const std::string dir = argv[2], data = argv[3];
    auto defines = [&](const char* role) -> std::map<std::string, std::string> {
        if (argc == 6 && std::string(argv[4]) == role) return {{std::string("FAULT_") + argv[5], "1"}};
        return {};
    };
    IDevice* device = CreateDevice(0);
    auto buffer = [&] { return CreateBuffer(InterleavedBufferConfig{device, bytes, 2048, BufferType::DRAM}); };
    auto A = buffer(), B = buffer(), C = buffer();
    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    for (uint8_t cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_2}) {
        CreateCircularBuffer(program, core, CircularBufferConfig(2 * 2048, {{cb, DataFormat::Float16_b}})
                                                .set_page_size(cb, 2048));
    }
    CreateCircularBuffer(program, core, CircularBufferConfig(4096, {{CBIndex::c_3, DataFormat::Float32}})
                                            .set_page_size(CBIndex::c_3, 4096));  // only reconfigured to
    std::vector<uint32_t> reader_ct, writer_ct;
    TensorAccessorArgs(*A).append_to(reader_ct);
    TensorAccessorArgs(*B).append_to(reader_ct);
    TensorAccessorArgs(*C).append_to(writer_ct);
    auto reader = CreateKernel(program, dir + "/reader.cpp", core, ReaderDataMovementConfig(reader_ct, defines("reader")));
    auto writer = CreateKernel(program, dir + "/writer.cpp", core, WriterDataMovementConfig(writer_ct, defines("writer")));
    auto compute = CreateKernel(program, dir + "/compute.cpp", core, ComputeConfig{.defines = defines("compute")});
    SetRuntimeArgs(program, reader, core, {A->address(), B->address(), tiles});
    SetRuntimeArgs(program, compute, core, {tiles});
    SetRuntimeArgs(program, writer, core, {C->address(), tiles});
    CommandQueue& cq = device->command_queue();
    EnqueueWriteBuffer(cq, A, read_words(data + "/a.bin", bytes / 4), false);
    EnqueueWriteBuffer(cq, B, read_words(data + "/b.bin", bytes / 4), false);
    EnqueueProgram(cq, program, false);
    std::vector<uint32_t> out;
    EnqueueReadBuffer(cq, C, out, true);
    Finish(cq);
    std::ofstream(data + "/c.bin", std::ios::binary).write(reinterpret_cast<const char*>(out.data()), bytes);
    CloseDevice(device);
    std::printf("done: %u tiles\n", tiles);
    return 0;
}
