// Host program of tests/emulator/test_tt_emulator_addrgen.py: DRAM buffers of 30 pages of 20 B (a page size below the DRAM
// allocator's alignment, as tt-metal's add_2_integers_in_riscv uses 4 B pages), copied in reverse page order by
// reverse.cpp through InterleavedAddrGen<true> and get_noc_addr(page, addrgen): pages 12..29 sit in their banks at the
// aligned page size (32 B), as tt-metal's allocator lays them.
//
// Usage: host <kernel_dir> <data_dir> [CASE]: reads in.bin, writes out.bin (600 B each); CASE defines CASE_<CASE>
// when compiling reverse.cpp.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        std::fprintf(stderr, "usage: %s kernel_dir data_dir [CASE]\n", argv[0]);
        return 64;
    }
    const std::string dir = argv[1], data = argv[2];
    std::map<std::string, std::string> defines;
    if (argc == 4) defines[std::string("CASE_") + argv[3]] = "1";
    constexpr uint32_t kPage = 20, kPages = 30;
    std::ifstream in_file(data + "/in.bin", std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in_file)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    IDevice* device = CreateDevice(0);
    auto src = CreateBuffer(InterleavedBufferConfig{device, kPage * kPages, kPage, BufferType::DRAM});
    auto dst = CreateBuffer(InterleavedBufferConfig{device, kPage * kPages, kPage, BufferType::DRAM});
    auto scratch = CreateBuffer(InterleavedBufferConfig{device, 32, 32, BufferType::L1});
    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    auto kernel = CreateKernel(program, dir + "/reverse.cpp", core, WriterDataMovementConfig({}, defines));
    SetRuntimeArgs(program, kernel, core, {src->address(), dst->address(), scratch->address(), kPage, kPages});
    CommandQueue& cq = device->command_queue();
    EnqueueWriteBuffer(cq, src, words, false);
    EnqueueProgram(cq, program, false);
    std::vector<uint32_t> out;
    EnqueueReadBuffer(cq, dst, out, true);
    Finish(cq);
    std::ofstream(data + "/out.bin", std::ios::binary).write(reinterpret_cast<const char*>(out.data()), kPage * kPages);
    CloseDevice(device);
    std::printf("done\n");
    return 0;
}
