// Multicast test host program, single-device API (profile tilelang_tt_2025); see mcast_common.hpp.
#include <tt-metalium/host_api.hpp>

#include "mcast_common.hpp"

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const McastArgs a = parse_mcast_args(argc, argv);
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    const uint32_t bytes = mcast_bytes_in(a);
    const uint32_t ncores = static_cast<uint32_t>(mcast_cores(a).size());
    auto in = CreateBuffer(InterleavedBufferConfig{device, bytes, kMcastTileBytes, BufferType::DRAM});
    auto out = CreateBuffer(InterleavedBufferConfig{device, ncores * bytes, kMcastTileBytes, BufferType::DRAM});

    Program program = CreateProgram();
    build_mcast_program(program, a, *device, in, out);
    EnqueueWriteBuffer(cq, in, read_words(a.data_dir + "/in.bin", bytes), false);
    EnqueueProgram(cq, program, false);
    std::vector<uint32_t> result;
    EnqueueReadBuffer(cq, out, result, true);
    Finish(cq);
    write_words(a.data_dir + "/out.bin", result);
    CloseDevice(device);
    return 0;
}
