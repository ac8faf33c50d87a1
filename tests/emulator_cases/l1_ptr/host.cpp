// Host program of tests/emulator/test_tt_emulator_l1_ptr.py: kernels that read and write L1 through pointers, as
// tt-metal's kernels do, on 4 cores at once (each core's L1 is its own: the same L1 address holds each core's data).
// CB c_0 holds one 2048 B page. fill.cpp (BRISC) stores a page through get_write_ptr's address and pushes it, and a
// word through the address of an L1 buffer (a runtime argument, as tt-metal's add_2_integers_in_riscv passes it);
// drain.cpp (NCRISC) reads the page through get_read_ptr's address, stores into it a semaphore it set and the L1
// buffer's word, and writes the page to DRAM page <core id>.
//
// Usage: host <kernel_dir> <data_dir> [<role> <FAULT>]: writes out.bin (4 pages of 512 words); the optional fault
// defines FAULT_<FAULT> when compiling the <role> kernel ("fill" or "drain").
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    if (argc != 3 && argc != 5) {
        std::fprintf(stderr, "usage: %s kernel_dir data_dir [role FAULT]\n", argv[0]);
        return 64;
    }
    const std::string dir = argv[1], data = argv[2];
    auto defines = [&](const char* role) -> std::map<std::string, std::string> {
        if (argc == 5 && std::string(argv[3]) == role) return {{std::string("FAULT_") + argv[4], "1"}};
        return {};
    };
    IDevice* device = CreateDevice(0);
    auto out = CreateBuffer(InterleavedBufferConfig{device, 4 * 2048, 2048, BufferType::DRAM});
    auto scratch = CreateBuffer(InterleavedBufferConfig{device, 32, 32, BufferType::L1});
    Program program = CreateProgram();
    const CoreRange cores({0, 0}, {1, 1});
    CreateCircularBuffer(program, cores, CircularBufferConfig(2048, {{CBIndex::c_0, DataFormat::Float16_b}})
                                             .set_page_size(CBIndex::c_0, 2048));
    const uint32_t sem = CreateSemaphore(program, cores, 0);
    std::vector<uint32_t> drain_ct;
    TensorAccessorArgs(*out).append_to(drain_ct);
    auto fill = CreateKernel(program, dir + "/fill.cpp", cores, WriterDataMovementConfig({}, defines("fill")));
    auto drain = CreateKernel(program, dir + "/drain.cpp", cores, ReaderDataMovementConfig(drain_ct, defines("drain")));
    for (uint32_t id = 0; id < 4; ++id) {
        const CoreCoord c{id % 2, id / 2};
        SetRuntimeArgs(program, fill, c, {id, scratch->address()});
        SetRuntimeArgs(program, drain, c, {id, out->address(), sem, scratch->address()});
    }
    CommandQueue& cq = device->command_queue();
    EnqueueProgram(cq, program, false);
    std::vector<uint32_t> words;
    EnqueueReadBuffer(cq, out, words, true);
    Finish(cq);
    std::ofstream(data + "/out.bin", std::ios::binary).write(reinterpret_cast<const char*>(words.data()), 4 * 2048);
    CloseDevice(device);
    std::printf("done\n");
    return 0;
}
