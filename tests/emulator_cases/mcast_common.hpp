// Shared by the multicast test host programs: command line and the program (kernels <kernel_dir>/reader_mcast.cpp, writer_mcast.cpp).
//
// Usage: HOST <shape> <noc> <num_blocks> <block_tiles> <kernel_dir> <data_dir> [<role> <FAULT> <core>]
//   shape: row (logical cores (0,0)..(3,0)) or square ((0,0)..(1,1)); the sender is core (0,0) and multicasts
//   each block to the others (the rectangle of their NoC coordinates). noc: the reader's NoC (1 = its
//   default, left unset in the config; 0 = NOC_0). Reads data_dir/in.bin (num_blocks * block_tiles pages of
//   2048 B) and writes data_dir/out.bin: what each core received, core after core. The optional fault defines
//   FAULT_<FAULT>=<core index> for the <role> kernel (reader/writer); role "host" seeds a host-side bug.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

struct McastArgs {
    std::string shape;
    uint32_t noc = 1, num_blocks = 1, block_tiles = 1;
    std::string kernel_dir, data_dir, fault_role, fault, fault_core;
};

inline McastArgs parse_mcast_args(int argc, char** argv) {
    if (argc != 7 && argc != 10) {
        std::fprintf(stderr, "usage: %s shape noc num_blocks block_tiles kernel_dir data_dir [role FAULT core]\n",
                     argv[0]);
        std::exit(64);
    }
    McastArgs a;
    a.shape = argv[1];
    a.noc = std::stoul(argv[2]);
    a.num_blocks = std::stoul(argv[3]);
    a.block_tiles = std::stoul(argv[4]);
    a.kernel_dir = argv[5];
    a.data_dir = argv[6];
    if (argc == 10) {
        a.fault_role = argv[7];
        a.fault = argv[8];
        a.fault_core = argv[9];
    }
    return a;
}

constexpr uint32_t kMcastTileBytes = 2048;

inline std::vector<tt::tt_metal::CoreCoord> mcast_cores(const McastArgs& a) {
    if (a.shape == "row") return {{0, 0}, {1, 0}, {2, 0}, {3, 0}};
    return {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
}

inline uint32_t mcast_bytes_in(const McastArgs& a) { return a.num_blocks * a.block_tiles * kMcastTileBytes; }

inline std::vector<uint32_t> read_words(const std::string& path, size_t bytes) {
    std::vector<uint32_t> v(bytes / 4);
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(bytes));
    if (in.gcount() != static_cast<std::streamsize>(bytes)) {
        std::fprintf(stderr, "cannot read %zu bytes from %s\n", bytes, path.c_str());
        std::exit(65);
    }
    return v;
}

inline void write_words(const std::string& path, const std::vector<uint32_t>& v) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 4));
}

// `Device` is IDevice or distributed::MeshDevice: both map logical cores to NoC coordinates.
template <typename Device, typename BufferPtr>
void build_mcast_program(tt::tt_metal::Program& program, const McastArgs& a, const Device& device,
                         const BufferPtr& in, const BufferPtr& out) {
    using namespace tt;
    using namespace tt::tt_metal;
    const std::vector<CoreCoord> cores = mcast_cores(a);
    std::vector<CoreRange> ranges(cores.begin(), cores.end());
    const CoreRangeSet all(ranges);
    const CoreCoord sender = cores.front();
    auto defines = [&](const std::string& role) {
        return a.fault_role == role ? std::map<std::string, std::string>{{"FAULT_" + a.fault, a.fault_core}}
                                    : std::map<std::string, std::string>{};
    };

    // A scratch CB on the sender only, created first: CB 0 must still get one address on every core.
    CreateCircularBuffer(program, sender,
                         CircularBufferConfig(kMcastTileBytes, {{CBIndex::c_8, tt::DataFormat::Float16_b}})
                             .set_page_size(CBIndex::c_8, kMcastTileBytes));
    CreateCircularBuffer(program, all,
                         CircularBufferConfig(2 * a.block_tiles * kMcastTileBytes,
                                              {{CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(CBIndex::c_0, kMcastTileBytes));
    const uint32_t sender_sem = CreateSemaphore(program, all, 0);
    std::vector<CoreRange> receiver_sem_cores;
    for (uint32_t i = 0; i < cores.size(); ++i) {
        const bool skipped = a.fault_role == "host" && a.fault == "SEMAPHORE_NOT_ON_CORE" && std::to_string(i) == a.fault_core;
        if (!skipped) receiver_sem_cores.emplace_back(cores[i]);
    }
    const uint32_t receiver_sem = CreateSemaphore(program, CoreRangeSet(receiver_sem_cores), 0, CoreType::WORKER);

    std::vector<uint32_t> reader_ct, writer_ct;
    TensorAccessorArgs(*in).append_to(reader_ct);
    TensorAccessorArgs(*out).append_to(writer_ct);
    DataMovementConfig reader_config{.processor = DataMovementProcessor::RISCV_1, .compile_args = reader_ct,
                                     .defines = defines("reader")};
    if (a.noc == 0) reader_config.noc = NOC::NOC_0;  // else the RISCV_1 default, NOC_1
    KernelHandle reader = CreateKernel(program, a.kernel_dir + "/reader_mcast.cpp", all, reader_config);
    KernelHandle writer = CreateKernel(
        program, a.kernel_dir + "/writer_mcast.cpp", all,
        DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .compile_args = writer_ct,
                           .defines = defines("writer")});

    // The rectangle of the receivers' NoC coordinates: NoC 0 goes from the smaller corner, NoC 1 from the larger.
    CoreCoord lo{~size_t{0}, ~size_t{0}}, hi{0, 0};
    for (size_t i = 1; i < cores.size(); ++i) {
        const CoreCoord n = device.worker_core_from_logical_core(cores[i]);
        lo = {std::min(lo.x, n.x), std::min(lo.y, n.y)};
        hi = {std::max(hi.x, n.x), std::max(hi.y, n.y)};
    }
    const CoreCoord start = a.noc == 0 ? lo : hi, end = a.noc == 0 ? hi : lo;
    const CoreCoord sender_noc = device.worker_core_from_logical_core(sender);
    for (uint32_t i = 0; i < cores.size(); ++i) {
        SetRuntimeArgs(program, reader, cores[i],
                       {in->address(), a.num_blocks, a.block_tiles, i == 0 ? 1u : 0u, uint32_t(sender_noc.x),
                        uint32_t(sender_noc.y), uint32_t(start.x), uint32_t(start.y), uint32_t(end.x),
                        uint32_t(end.y), uint32_t(cores.size() - 1), sender_sem, receiver_sem, i});
        SetRuntimeArgs(program, writer, cores[i], {out->address(), a.num_blocks, a.block_tiles, i});
    }
}
