// Host program of tests/emulator/test_tt_emulator_scratch_cb.py: CB c_1 used as L1 scratch (its pointers taken
// without cb_reserve_back / cb_wait_front, as ttnn's pad reader uses its pad and alignment CBs), on one core, through
// the tt::tt_metal::detail calls of <tt-metalium/tt_metal.hpp> (WriteToBuffer, LaunchProgram, ReadFromBuffer) and
// util.hpp's TileSize. c_1 (2 pages of 64 B) and c_2 (its alignment page, 4 B) share one config, as pad_multi_core's
// CBs do; c_0 (64 B pages) carries the result from scratch.cpp (BRISC) to drain.cpp (NCRISC).
// Mode "unicast": core (0,0) writes a tile into core (0,1)'s reserved CB page by unicast noc_async_write
// (send.cpp, recv.cpp, as tt-metal's NoC_tile_transfer), which copies it through DST (copy.cpp) to DRAM (drain_tile.cpp).
//
// Usage: host <kernel_dir> <data_dir> scratch|unicast [<FAULT>]: reads in.bin (scratch: 16 words; unicast: a
// 2048 B tile), writes out.bin (scratch: 2 pages of 16 words; unicast: the tile) and prints the tile sizes; the
// optional fault defines FAULT_<FAULT> when compiling scratch.cpp (send.cpp).
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tt_metal.hpp>
#include <tt-metalium/util.hpp>

using namespace tt;
using namespace tt::tt_metal;

// Core (0,0) sends a tile to core (0,1) by unicast; the tile comes back through DST and DRAM.
int unicast(const std::string& dir, const std::string& data, const std::map<std::string, std::string>& defines) {
    IDevice* device = CreateDevice(0);
    auto in = CreateBuffer(InterleavedBufferConfig{device, 2048, 2048, BufferType::DRAM});
    auto out = CreateBuffer(InterleavedBufferConfig{device, 2048, 2048, BufferType::DRAM});
    std::vector<uint32_t> words(512);
    std::ifstream(data + "/in.bin", std::ios::binary).read(reinterpret_cast<char*>(words.data()), 2048);
    detail::WriteToBuffer(in, words);
    Program program = CreateProgram();
    const CoreCoord sender{0, 0}, receiver{0, 1};
    const CoreRange both(sender, receiver);
    CreateCircularBuffer(program, both, CircularBufferConfig(2 * 2048, {{CBIndex::c_0, DataFormat::Float16_b}})
                                            .set_page_size(CBIndex::c_0, 2048));
    CreateCircularBuffer(program, both, CircularBufferConfig(2048, {{CBIndex::c_1, DataFormat::Float16_b}})
                                            .set_page_size(CBIndex::c_1, 2048));
    CreateCircularBuffer(program, receiver, CircularBufferConfig(2048, {{CBIndex::c_16, DataFormat::Float16_b}})
                                                .set_page_size(CBIndex::c_16, 2048));
    const uint32_t sem = CreateSemaphore(program, both, 0);
    std::vector<uint32_t> drain_ct;
    TensorAccessorArgs(*out).append_to(drain_ct);
    auto send = CreateKernel(program, dir + "/send.cpp", sender, WriterDataMovementConfig({}, defines));
    auto recv = CreateKernel(program, dir + "/recv.cpp", receiver, ReaderDataMovementConfig());
    CreateKernel(program, dir + "/copy.cpp", receiver, ComputeConfig{});
    auto drain = CreateKernel(program, dir + "/drain_tile.cpp", receiver, WriterDataMovementConfig(drain_ct));
    const CoreCoord to = device->worker_core_from_logical_core(receiver);
    const CoreCoord from = device->worker_core_from_logical_core(sender);
    SetRuntimeArgs(program, send, sender, {in->address(), uint32_t(to.x), uint32_t(to.y), sem});
    SetRuntimeArgs(program, recv, receiver, {uint32_t(from.x), uint32_t(from.y), sem});
    SetRuntimeArgs(program, drain, receiver, {out->address()});
    detail::LaunchProgram(device, program);
    std::vector<uint32_t> result;
    detail::ReadFromBuffer(out, result);
    std::ofstream(data + "/out.bin", std::ios::binary).write(reinterpret_cast<const char*>(result.data()), 2048);
    CloseDevice(device);
    std::printf("done\n");
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: %s kernel_dir data_dir scratch|unicast [FAULT]\n", argv[0]);
        return 64;
    }
    const std::string dir = argv[1], data = argv[2];
    std::map<std::string, std::string> defines;
    if (argc == 5) defines[std::string("FAULT_") + argv[4]] = "1";
    if (std::string(argv[3]) == "unicast") return unicast(dir, data, defines);
    std::printf("tile sizes: %u %u\n", detail::TileSize(DataFormat::Float16_b), detail::TileSize(DataFormat::Bfp8_b));
    IDevice* device = CreateDevice(0);
    auto in = CreateBuffer(InterleavedBufferConfig{device, 64, 64, BufferType::DRAM});
    auto out = CreateBuffer(InterleavedBufferConfig{device, 2 * 64, 64, BufferType::DRAM});
    std::vector<uint32_t> words(16);
    std::ifstream(data + "/in.bin", std::ios::binary).read(reinterpret_cast<char*>(words.data()), 64);
    detail::WriteToBuffer(in, words);
    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    CreateCircularBuffer(program, core, CircularBufferConfig(2 * 64, {{CBIndex::c_1, DataFormat::UInt32},
                                                                      {CBIndex::c_2, DataFormat::UInt32}})
                                            .set_page_size(CBIndex::c_1, 64)
                                            .set_page_size(CBIndex::c_2, 4));
    CreateCircularBuffer(program, core, CircularBufferConfig(2 * 64, {{CBIndex::c_0, DataFormat::UInt32}})
                                            .set_page_size(CBIndex::c_0, 64));
    std::vector<uint32_t> drain_ct;
    TensorAccessorArgs(*out).append_to(drain_ct);
    auto scratch = CreateKernel(program, dir + "/scratch.cpp", core, WriterDataMovementConfig({}, defines));
    auto drain = CreateKernel(program, dir + "/drain.cpp", core, ReaderDataMovementConfig(drain_ct));
    SetRuntimeArgs(program, scratch, core, {in->address(), out->address(), 0x40004000u});
    SetRuntimeArgs(program, drain, core, {out->address()});
    detail::LaunchProgram(device, program);
    std::vector<uint32_t> result;
    detail::ReadFromBuffer(out, result);
    std::ofstream(data + "/out.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(result.data()), static_cast<std::streamsize>(result.size() * 4));
    CloseDevice(device);
    std::printf("done\n");
    return 0;
}
