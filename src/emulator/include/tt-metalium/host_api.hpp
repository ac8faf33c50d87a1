// tt_emu: the subset of TT-Metalium's host API (tt_metal/api/tt-metalium/host_api.hpp and the types it
// pulls in) that generated host programs use, implemented by libtt_emu.so. Programs run synchronously when
// enqueued; any misuse or kernel protocol violation prints a report and exits (2: kernel compile error,
// 3: anything else), as there is no device to recover.
#pragma once

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <array>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

// What tt-metal's host_api.hpp brings in with its own includes, and its programs use without including.
#include "fmt/format.h"
#include "tt-logger/tt-logger.hpp"
#include "tt-metalium/bfloat16.hpp"
#include "tt-metalium/constants.hpp"
#include "tt_stl/assert.hpp"
#include "tt_emu/cb_index.hpp"  // tt::CBIndex

namespace tt_emu {
struct DramBuffer;
struct ProgramState;
}  // namespace tt_emu

// Core kinds of a chip (UMD's CoreType, at global scope as in tt-metal); semaphores exist on WORKER cores.
enum class CoreType { ARC, DRAM, ACTIVE_ETH, IDLE_ETH, PCIE, TENSIX, ROUTER_ONLY, HARVESTED, ETH, WORKER };

namespace tt {

enum class DataFormat : uint8_t {
    Float32 = 0, Float16 = 1, Bfp8 = 2, Bfp4 = 3, Tf32 = 4, Float16_b = 5, Bfp8_b = 6, Bfp4_b = 7, Int32 = 8,
    UInt16 = 9, Lf8 = 10, Bfp2 = 11, Int8 = 14, Bfp2_b = 15, UInt32 = 24, UInt8 = 30, RawUInt8 = 240,
    RawUInt16 = 241, RawUInt32 = 242, Invalid = 255
};
// Bytes of one 32x32 tile of `format` (tt-metal's tt_backend_api_types.hpp; 2048 for Float16_b, 1088 for Bfp8_b).
uint32_t tile_size(const DataFormat& format);


enum class ARCH { WORMHOLE_B0 };

namespace tt_metal {

using KernelHandle = uint32_t;
using CBHandle = uintptr_t;
using DeviceAddr = uint64_t;
using chip_id_t = int;

struct CoreCoord {
    std::size_t x = 0;
    std::size_t y = 0;
    constexpr CoreCoord() = default;
    constexpr CoreCoord(std::size_t x_, std::size_t y_) : x(x_), y(y_) {}
    friend constexpr bool operator==(const CoreCoord& a, const CoreCoord& b) { return a.x == b.x && a.y == b.y; }
    // x first, as tt-metal's CoreCoord (umd's tt_xy_pair) orders cores: a std::set/std::map of cores iterates alike.
    friend constexpr bool operator<(const CoreCoord& a, const CoreCoord& b) {
        return a.x != b.x ? a.x < b.x : a.y < b.y;
    }
    std::string str() const { return "(x=" + std::to_string(x) + ",y=" + std::to_string(y) + ")"; }
    // As tt-metal prints a core (its fmt formatter and operator<<): (x=1,y=2).
    friend std::ostream& operator<<(std::ostream& os, const CoreCoord& c) { return os << c.str(); }
};

// Inclusive rectangle of cores.
struct CoreRange {
    CoreCoord start_coord;
    CoreCoord end_coord;
    CoreRange(const CoreCoord& point) : start_coord(point), end_coord(point) {}
    CoreRange(const CoreCoord& start, const CoreCoord& end) : start_coord(start), end_coord(end) {}
    std::size_t size() const;
    CoreCoord grid_size() const { return {end_coord.x - start_coord.x + 1, end_coord.y - start_coord.y + 1}; }
    bool contains(const CoreCoord& c) const {
        return c.x >= start_coord.x && c.x <= end_coord.x && c.y >= start_coord.y && c.y <= end_coord.y;
    }
    // As tt-metal's core_coord.hpp orders ranges (start, then end): std::set<CoreRange> builds a CoreRangeSet.
    friend bool operator==(const CoreRange& a, const CoreRange& b) {
        return a.start_coord == b.start_coord && a.end_coord == b.end_coord;
    }
    friend bool operator<(const CoreRange& a, const CoreRange& b) {
        return a.start_coord < b.start_coord || (a.start_coord == b.start_coord && a.end_coord < b.end_coord);
    }
    // `for (const CoreCoord& core : range)`: row after row, x fastest, as tt-metal's CoreRange iterator goes.
    class iterator {
    public:
        iterator(const CoreRange* range, CoreCoord at) : range_(range), at_(at) {}
        const CoreCoord& operator*() const { return at_; }
        iterator& operator++() {
            if (at_.x < range_->end_coord.x) {
                ++at_.x;
            } else {
                at_ = {range_->start_coord.x, at_.y + 1};
            }
            return *this;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }
        friend bool operator!=(const iterator& a, const iterator& b) { return !(a == b); }

    private:
        const CoreRange* range_;
        CoreCoord at_;
    };
    iterator begin() const { return {this, start_coord}; }
    iterator end() const { return {this, {start_coord.x, end_coord.y + 1}}; }
};

class CoreRangeSet {
public:
    CoreRangeSet() = default;
    CoreRangeSet(const CoreRange& range) : ranges_{range} {}
    CoreRangeSet(const std::vector<CoreRange>& ranges) : ranges_(ranges) {}
    explicit CoreRangeSet(const std::set<CoreRange>& ranges) : ranges_(ranges.begin(), ranges.end()) {}
    const std::vector<CoreRange>& ranges() const { return ranges_; }
    uint32_t num_cores() const;
    bool contains(const CoreCoord& c) const {
        for (const CoreRange& r : ranges_) {
            if (r.contains(c)) return true;
        }
        return false;
    }
    bool empty() const { return ranges_.empty(); }

private:
    std::vector<CoreRange> ranges_;
};

using CoreSpec = std::variant<CoreCoord, CoreRange, CoreRangeSet>;

enum class BufferType { DRAM, L1, SYSTEM_MEMORY, L1_SMALL, TRACE };
enum class TensorMemoryLayout { INTERLEAVED, HEIGHT_SHARDED, WIDTH_SHARDED, BLOCK_SHARDED };
// tt-metalium/buffer_types.hpp: the order shards are dealt to devices (or cores) in.
enum class ShardOrientation { ROW_MAJOR, COL_MAJOR };
// tt-metalium/buffer.hpp: a sharded buffer's shards (shape in elements) dealt to the grid's cores in `orientation`.
struct ShardSpec {
    CoreRangeSet grid;
    std::array<uint32_t, 2> shape{};
    ShardOrientation orientation = ShardOrientation::ROW_MAJOR;
    ShardSpec(const CoreRangeSet& grid_, const std::array<uint32_t, 2>& shape_,
              ShardOrientation orientation_ = ShardOrientation::ROW_MAJOR)
        : grid(grid_), shape(shape_), orientation(orientation_) {}
    uint32_t num_cores() const { return grid.num_cores(); }
};
// The shard spec of a buffer: also its page shape (elements) and its 2-D shape in pages.
struct ShardSpecBuffer {
    ShardSpec tensor_shard_spec;
    std::array<uint32_t, 2> page_shape{};
    std::array<uint32_t, 2> tensor2d_shape_in_pages{};
    ShardSpecBuffer(const ShardSpec& spec, const std::array<uint32_t, 2>& page_shape_,
                    const std::array<uint32_t, 2>& tensor2d_shape_in_pages_)
        : tensor_shard_spec(spec), page_shape(page_shape_), tensor2d_shape_in_pages(tensor2d_shape_in_pages_) {}
    CoreRangeSet grid() const { return tensor_shard_spec.grid; }
    std::array<uint32_t, 2> shape() const { return tensor_shard_spec.shape; }
    ShardOrientation orientation() const { return tensor_shard_spec.orientation; }
    std::array<uint32_t, 2> shape_in_pages() const {
        return {shape()[0] / std::max<uint32_t>(page_shape[0], 1), shape()[1] / std::max<uint32_t>(page_shape[1], 1)};
    }
};
// DeviceLocalBufferConfig's sharding: none (interleaved), or a legacy shard spec with its layout.
class BufferShardingArgs {
public:
    BufferShardingArgs() = default;
    BufferShardingArgs(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): tt-metal's implicit form
    BufferShardingArgs(ShardSpecBuffer spec, TensorMemoryLayout layout) : shard_spec_(std::move(spec)), layout_(layout) {}
    const std::optional<ShardSpecBuffer>& shard_spec() const { return shard_spec_; }
    TensorMemoryLayout buffer_layout() const { return layout_; }

private:
    std::optional<ShardSpecBuffer> shard_spec_;
    TensorMemoryLayout layout_ = TensorMemoryLayout::INTERLEAVED;
};
enum class MathFidelity : uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4, Invalid = 0xff };
enum class DataMovementProcessor { RISCV_0 = 0, RISCV_1 = 1 };
// Unscoped, as in tt-metal's data_types.hpp: RISCV_0_default is NOC_0 and RISCV_1_default is NOC_1.
enum NOC : uint8_t { RISCV_0_default = 0, RISCV_1_default = 1, NOC_0 = 0, NOC_1 = 1 };
enum NOC_MODE : uint8_t { DM_DEDICATED_NOC = 0, DM_DYNAMIC_NOC = 1 };
namespace detail {
// DataMovementConfig's default `noc`: CreateKernel picks the processor's default NoC (RISCV_0 -> NOC_0,
// RISCV_1 -> NOC_1), so a reader configured as {.processor = RISCV_1} uses NOC_1 as tt-metal's readers do.
inline constexpr NOC kNocUnset = static_cast<NOC>(0xff);
// The NoCs ttnn's program factories give their DRAM readers and writers (tt-metal's data_types.hpp: on Wormhole
// reads on NOC_0, writes on NOC_1).
inline NOC preferred_noc_for_dram_read(tt::ARCH) { return NOC::NOC_0; }
inline NOC preferred_noc_for_dram_write(tt::ARCH) { return NOC::NOC_1; }
}  // namespace detail
enum class KernelBuildOptLevel : uint8_t { O1, O2, O3, O0, Os, Ofast, Oz };
enum class UnpackToDestMode : uint8_t { Default, UnpackToDestFp32 };

// Field order as in tt-metal's kernel_types.hpp, so designated initialisers written for tt-metal compile.
struct DataMovementConfig {
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    NOC noc = detail::kNocUnset;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2;
};

struct ReaderDataMovementConfig : DataMovementConfig {
    explicit ReaderDataMovementConfig(std::vector<uint32_t> args = {}, std::map<std::string, std::string> defs = {})
        : DataMovementConfig{DataMovementProcessor::RISCV_1, NOC::RISCV_1_default, NOC_MODE::DM_DEDICATED_NOC,
                             std::move(args), std::move(defs), {}, KernelBuildOptLevel::O2} {}
};

struct WriterDataMovementConfig : DataMovementConfig {
    explicit WriterDataMovementConfig(std::vector<uint32_t> args = {}, std::map<std::string, std::string> defs = {})
        : DataMovementConfig{DataMovementProcessor::RISCV_0, NOC::RISCV_0_default, NOC_MODE::DM_DEDICATED_NOC,
                             std::move(args), std::move(defs), {}, KernelBuildOptLevel::O2} {}
};

struct ComputeConfig {
    MathFidelity math_fidelity = MathFidelity::HiFi4;
    bool fp32_dest_acc_en = false;
    bool dst_full_sync_en = false;
    std::vector<UnpackToDestMode> unpack_to_dest_mode;
    bool bfp8_pack_precise = false;
    bool math_approx_mode = false;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O3;
};

class Buffer;

class CircularBufferConfig {
public:
    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& data_format_spec)
        : total_size_(total_size), formats_(data_format_spec) {}
    CircularBufferConfig& set_page_size(uint8_t buffer_index, uint32_t page_size) {
        page_sizes_[buffer_index] = page_size;
        return *this;
    }
    CircularBufferConfig& set_total_size(uint32_t total_size);  // cb_global.cpp
    // A CB whose pages are an L1 buffer's (tt-metal's dynamic CB, as its sharded matmul's output CB): on each core,
    // at the buffer's address, at most one bank (shard) of it (cb_global.cpp).
    CircularBufferConfig& set_globally_allocated_address(const Buffer& buffer);
    uint32_t total_size() const { return total_size_; }
    const std::map<uint8_t, tt::DataFormat>& data_formats() const { return formats_; }
    const std::map<uint8_t, uint32_t>& page_sizes() const { return page_sizes_; }
    std::optional<uint32_t> globally_allocated_address() const { return global_address_; }
    const Buffer* shadow_global_buffer() const { return global_buffer_; }

private:
    uint32_t total_size_;
    std::map<uint8_t, tt::DataFormat> formats_;
    std::map<uint8_t, uint32_t> page_sizes_;
    std::optional<uint32_t> global_address_;
    uint32_t max_size_ = 0;  // the buffer's bytes per bank (per core), the most a CB backed by it may hold
    const Buffer* global_buffer_ = nullptr;
};

class IDevice;

// Move-only, as in tt-metal; the state lives in the runtime.
class Program {
public:
    Program();
    ~Program();
    Program(Program&&) noexcept;
    Program& operator=(Program&&) noexcept;
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    tt_emu::ProgramState& state() const { return *impl_; }

private:
    std::unique_ptr<tt_emu::ProgramState> impl_;
};

class Buffer {
public:
    explicit Buffer(std::shared_ptr<tt_emu::DramBuffer> impl, IDevice* device);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    uint32_t address() const;
    DeviceAddr size() const;
    DeviceAddr page_size() const;
    uint32_t num_pages() const;
    BufferType buffer_type() const;
    IDevice* device() const { return device_; }
    tt_emu::DramBuffer& dram() const { return *impl_; }

private:
    std::shared_ptr<tt_emu::DramBuffer> impl_;
    IDevice* device_;
};

struct InterleavedBufferConfig {
    IDevice* device = nullptr;
    DeviceAddr size = 0;
    DeviceAddr page_size = 0;
    BufferType buffer_type = BufferType::DRAM;
    TensorMemoryLayout buffer_layout = TensorMemoryLayout::INTERLEAVED;
};

class CommandQueue {
public:
    explicit CommandQueue(IDevice* device) : device_(device) {}
    IDevice* device() const { return device_; }

private:
    IDevice* device_;
};

// One Wormhole n150 chip: an 8x8 grid of worker cores, 12 DRAM banks.
class IDevice {
public:
    explicit IDevice(chip_id_t id) : id_(id), cq_(this) {}
    chip_id_t id() const { return id_; }
    CommandQueue& command_queue(std::size_t cq_id = 0);
    CoreCoord compute_with_storage_grid_size() const { return CoreCoord{8, 8}; }
    CoreCoord logical_grid_size() const { return CoreCoord{8, 8}; }
    tt::ARCH arch() const { return tt::ARCH::WORMHOLE_B0; }
    uint32_t num_dram_channels() const { return 12; }
    uint32_t l1_size_per_core() const { return 1464 * 1024; }
    // NoC coordinates of a logical worker core (Wormhole b0: x 0..7 -> 1,2,3,4,6,7,8,9; y 0..7 -> 1..5,7,8,9).
    CoreCoord worker_core_from_logical_core(const CoreCoord& logical_core) const;

private:
    chip_id_t id_;
    CommandQueue cq_;
};

namespace detail {
[[noreturn]] void host_error(const char* call, const std::string& message);
void write_buffer(const Buffer& buffer, const void* data, std::size_t bytes, const char* call);
void read_buffer(const Buffer& buffer, void* data, std::size_t bytes, const char* call);
void run_program(Program& program, const char* call);
}  // namespace detail

IDevice* CreateDevice(chip_id_t device_id, uint8_t num_hw_cqs = 1, std::size_t l1_small_size = 0,
                      std::size_t trace_region_size = 0);
bool CloseDevice(IDevice* device);
Program CreateProgram();
KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const std::variant<DataMovementConfig, ComputeConfig>& config);
CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config);
// A 4-byte L1 word at the same address on every core of core_spec, set to initial_value when the program is
// enqueued; returns its id (0, 1, ... per program) for the kernels' get_semaphore.
uint32_t CreateSemaphore(Program& program, const std::variant<CoreRange, CoreRangeSet>& core_spec,
                         uint32_t initial_value, CoreType core_type = CoreType::WORKER);
std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& config);
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::initializer_list<uint32_t> runtime_args);
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    const std::vector<uint32_t>& runtime_args);
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& cores,
                    const std::vector<std::vector<uint32_t>>& runtime_args);
void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<uint32_t>& runtime_args);
void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, std::initializer_list<uint32_t> runtime_args);

template <typename T>
void EnqueueWriteBuffer(CommandQueue&, const std::shared_ptr<Buffer>& buffer, const std::vector<T>& src, bool) {
    detail::write_buffer(*buffer, src.data(), src.size() * sizeof(T), "EnqueueWriteBuffer");
}
template <typename T>
void EnqueueWriteBuffer(CommandQueue&, Buffer& buffer, const std::vector<T>& src, bool) {
    detail::write_buffer(buffer, src.data(), src.size() * sizeof(T), "EnqueueWriteBuffer");
}
// A raw host pointer (tt-metal's HostDataType `const void*`): the buffer's whole size is read from it, as tt-metal does.
inline void EnqueueWriteBuffer(CommandQueue&, const std::shared_ptr<Buffer>& buffer, const void* src, bool) {
    detail::write_buffer(*buffer, src, static_cast<std::size_t>(buffer->size()), "EnqueueWriteBuffer");
}
// Resizes `dst` to the buffer's size (in elements of T).
template <typename T>
void EnqueueReadBuffer(CommandQueue&, const std::shared_ptr<Buffer>& buffer, std::vector<T>& dst, bool) {
    dst.resize(static_cast<std::size_t>(buffer->size() / sizeof(T)));
    detail::read_buffer(*buffer, dst.data(), dst.size() * sizeof(T), "EnqueueReadBuffer");
}
template <typename T>
void EnqueueReadBuffer(CommandQueue&, Buffer& buffer, std::vector<T>& dst, bool) {
    dst.resize(static_cast<std::size_t>(buffer.size() / sizeof(T)));
    detail::read_buffer(buffer, dst.data(), dst.size() * sizeof(T), "EnqueueReadBuffer");
}
void EnqueueProgram(CommandQueue& cq, Program& program, bool blocking);
void Finish(CommandQueue& cq);

}  // namespace tt_metal
}  // namespace tt
