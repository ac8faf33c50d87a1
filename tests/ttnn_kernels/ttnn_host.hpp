// Shared by the host programs that run the ttnn wheel's production kernels on the emulator: the command line,
// bf16 files, DRAM buffers of tiles, and the work split of ttnn's program factories.
//
// Usage: PROGRAM <family> <variant> <rows> <cols> <data_dir> [<extra>...]
//   Reads data_dir/a.bin (and b.bin for two inputs): row-major bf16 of rows x cols elements; writes
//   data_dir/out.bin. Kernel paths are the program factories' own (`ttnn/cpp/ttnn/operations/...`), relative to
//   $TT_METAL_HOME (the ttnn wheel's package folder), as tt-metal resolves them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <tt-metalium/work_split.hpp>

namespace ttnn_case {

using namespace tt;
using namespace tt::tt_metal;

constexpr uint32_t kTileBytes = 2048;  // a bf16 32x32 tile

struct Args {
    std::string family, variant, data_dir;
    uint32_t rows = 32, cols = 32;
    std::vector<std::string> extra;
};

inline Args parse(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s family variant rows cols data_dir [extra...]\n", argv[0]);
        std::exit(64);
    }
    Args a;
    a.family = argv[1];
    a.variant = argv[2];
    a.rows = std::stoul(argv[3]);
    a.cols = std::stoul(argv[4]);
    a.data_dir = argv[5];
    for (int i = 6; i < argc; ++i) a.extra.emplace_back(argv[i]);
    return a;
}

inline std::vector<uint16_t> read_bf16(const std::string& path, size_t count) {
    std::vector<uint16_t> v(count);
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(count * 2));
    if (in.gcount() != static_cast<std::streamsize>(count * 2)) {
        std::fprintf(stderr, "cannot read %zu bf16 values from %s\n", count, path.c_str());
        std::exit(65);
    }
    return v;
}

inline void write_bf16(const std::string& path, const std::vector<uint16_t>& v) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 2));
}

inline std::vector<uint32_t> to_words(const std::vector<uint16_t>& v) {
    std::vector<uint32_t> words((v.size() + 1) / 2, 0);
    std::memcpy(words.data(), v.data(), v.size() * 2);
    return words;
}

// A DRAM buffer of `bytes` in pages of `page` bytes, interleaved (ttnn's DRAM_MEMORY_CONFIG).
inline std::shared_ptr<Buffer> dram(IDevice* device, uint32_t bytes, uint32_t page = kTileBytes) {
    return CreateBuffer(InterleavedBufferConfig{device, bytes, page, BufferType::DRAM});
}

// Row-major bf16 of rows x cols from data_dir/<name>.bin, uploaded in tile layout (or row-major when `tiles` is
// false) to `buffer`.
inline void upload(IDevice* device, const std::shared_ptr<Buffer>& buffer, const Args& a, const char* name,
                   uint32_t rows, uint32_t cols, bool tiles = true) {
    std::vector<uint16_t> data = read_bf16(a.data_dir + "/" + name + ".bin", size_t{rows} * cols);
    if (tiles) data = tilize_nfaces(data, rows, cols);
    std::vector<uint32_t> words = to_words(data);
    EnqueueWriteBuffer(device->command_queue(), buffer, words, false);
}

// Reads `buffer` (rows x cols bf16, in tile layout unless `tiles` is false) back into data_dir/out.bin, row-major.
inline void download(IDevice* device, const std::shared_ptr<Buffer>& buffer, const Args& a, uint32_t rows,
                     uint32_t cols, bool tiles = true) {
    std::vector<uint32_t> out;
    EnqueueReadBuffer(device->command_queue(), buffer, out, true);
    std::vector<uint16_t> v(size_t{rows} * cols);
    std::memcpy(v.data(), out.data(), v.size() * 2);
    write_bf16(a.data_dir + "/out.bin", tiles ? untilize_nfaces(v, rows, cols) : v);
}

// A CB of `pages` pages of `page_bytes` on `cores` (bf16), as the program factories create theirs.
inline void cb(Program& program, const CoreRangeSet& cores, uint8_t index, uint32_t pages,
               uint32_t page_bytes = kTileBytes, tt::DataFormat format = tt::DataFormat::Float16_b) {
    CreateCircularBuffer(program, cores,
                         CircularBufferConfig(pages * page_bytes, {{index, format}}).set_page_size(index, page_bytes));
}

inline std::vector<uint32_t> accessor_args(const std::shared_ptr<Buffer>& b, std::vector<uint32_t> head = {}) {
    TensorAccessorArgs(*b).append_to(head);
    return head;
}

inline DataMovementConfig reader_config(std::vector<uint32_t> ct, std::map<std::string, std::string> defines = {}) {
    return ReaderDataMovementConfig(std::move(ct), std::move(defines));
}

inline DataMovementConfig writer_config(std::vector<uint32_t> ct, std::map<std::string, std::string> defines = {}) {
    return WriterDataMovementConfig(std::move(ct), std::move(defines));
}

// The kernels of ttnn's operations, by their path under the wheel's (or tt-metal's) root.
inline std::string kernel(const std::string& rel) { return "ttnn/cpp/ttnn/operations/" + rel; }

}  // namespace ttnn_case
