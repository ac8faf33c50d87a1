// Host API: devices, DRAM buffers, programs (kernels, CBs, runtime arguments) and the command queues.
// Everything is validated when called, so a host-side mistake is reported at the call that made it.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>

#include "emu.hpp"
#include "sanitize.hpp"
#include "tile.hpp"
#include "tt-metalium/distributed.hpp"
#include "tt-metalium/tensor_accessor_args.hpp"

namespace tt_emu {
namespace {
[[noreturn]] void host_fail(const char* call, const std::string& message) {
    tt::tt_metal::detail::host_error(call, message);
}
}  // namespace
// ------------------------------------------------------------------ cores

std::vector<CoreCoord> expand_cores(const tt::tt_metal::CoreSpec& spec, const char* call) {
    std::vector<tt::tt_metal::CoreRange> ranges;
    if (auto* c = std::get_if<CoreCoord>(&spec)) ranges.emplace_back(*c);
    if (auto* r = std::get_if<tt::tt_metal::CoreRange>(&spec)) ranges.push_back(*r);
    if (auto* s = std::get_if<tt::tt_metal::CoreRangeSet>(&spec)) ranges = s->ranges();
    std::set<CoreCoord> cores;
    for (auto& r : ranges) {
        if (r.start_coord.x > r.end_coord.x || r.start_coord.y > r.end_coord.y || r.end_coord.x >= dev().grid_x ||
            r.end_coord.y >= dev().grid_y) {
            host_fail(call, "core range " + core_name(r.start_coord) + "-" + core_name(r.end_coord) +
                                " is empty or outside the " + tt_emu::grid_text() + " worker grid");
        }
        for (size_t y = r.start_coord.y; y <= r.end_coord.y; ++y) {
            for (size_t x = r.start_coord.x; x <= r.end_coord.x; ++x) cores.insert(CoreCoord{x, y});
        }
    }
    if (cores.empty()) host_fail(call, "no cores given");
    return {cores.begin(), cores.end()};
}

}  // namespace tt_emu

uint32_t tt::tile_size(const DataFormat& format) { return tt_emu::tile_bytes(format); }

namespace tt::tt_metal {

using tt_emu::host_fail;

std::size_t CoreRange::size() const {
    return (end_coord.x - start_coord.x + 1) * (end_coord.y - start_coord.y + 1);
}

uint32_t CoreRangeSet::num_cores() const {
    std::size_t n = 0;
    for (auto& r : ranges_) n += r.size();
    return static_cast<uint32_t>(n);
}

Program::Program() : impl_(std::make_unique<tt_emu::ProgramState>()) {}
Program::~Program() = default;
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;

Buffer::Buffer(std::shared_ptr<tt_emu::DramBuffer> impl, IDevice* device) : impl_(std::move(impl)), device_(device) {}
Buffer::~Buffer() = default;
uint32_t Buffer::address() const { return impl_->address; }
DeviceAddr Buffer::size() const { return impl_->size; }
DeviceAddr Buffer::page_size() const { return impl_->page_size; }
uint32_t Buffer::num_pages() const { return impl_->num_pages; }
BufferType Buffer::buffer_type() const { return impl_->l1 ? BufferType::L1 : BufferType::DRAM; }

CommandQueue& IDevice::command_queue(std::size_t cq_id) {
    if (cq_id != 0) host_fail("command_queue", "the emulated device has one command queue");
    return cq_;
}

namespace detail {

void host_error(const char* call, const std::string& message) {
    tt_emu::exit_with_error(3, std::string("tt_emu: error: host: ") + call + ": " + message + "\n");
}

namespace {
void check_host_access(const tt_emu::DramBuffer& d, const char* call) {
    if (d.l1 && !d.shards) {
        host_fail(call, d.describe() + ": the emulator models interleaved L1 buffers as kernel scratch only (a core's L1 "
                                       "exists while a program runs), so the host cannot write or read them; use a DRAM "
                                       "buffer or a sharded L1 one");
    }
}
}  // namespace

void write_buffer(const Buffer& buffer, const void* data, std::size_t bytes, const char* call) {
    tt_emu::DramBuffer& d = buffer.dram();
    check_host_access(d, call);
    if (bytes > d.size) {
        host_fail(call, "writing " + std::to_string(bytes) + " B into " + d.describe() + " of " +
                            std::to_string(d.size) + " B");
    }
    std::lock_guard<std::mutex> lk(tt_emu::dram_mutex());
    std::memcpy(d.data.data(), data, bytes);
}

void read_buffer(const Buffer& buffer, void* data, std::size_t bytes, const char* call) {
    tt_emu::DramBuffer& d = buffer.dram();
    check_host_access(d, call);
    if (bytes > d.size) host_fail(call, "reading " + std::to_string(bytes) + " B from " + d.describe());
    std::lock_guard<std::mutex> lk(tt_emu::dram_mutex());
    std::memcpy(data, d.data.data(), bytes);
}

void run_program(Program& program, const char* call) {
    if (program.state().kernels.empty()) host_fail(call, "the program has no kernels");
    const uint32_t floor = tt_emu::l1_buffers_floor();
    for (const auto& [core, used] : program.state().l1_used) {
        if (used > floor) {
            host_fail(call, "the CBs of core " + tt_emu::core_name(core) + " use L1 up to " + std::to_string(used) +
                                " B, which overlaps the L1 buffers (" + tt_emu::list_l1_buffers() + ")");
        }
    }
    tt_emu::check_program_against_plan(program.state(), call);
    tt_emu::run_program(program.state());
}

}  // namespace detail

IDevice* CreateDevice(chip_id_t device_id, uint8_t, std::size_t, std::size_t) {
    if (device_id != 0) host_fail("CreateDevice", "the emulator has one device (id 0), not " + std::to_string(device_id));
    return new IDevice(device_id);
}

bool CloseDevice(IDevice* device) {
    delete device;
    return true;
}

Program CreateProgram() { return Program(); }

KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const std::variant<DataMovementConfig, ComputeConfig>& config) {
    return tt_emu::create_kernel(program, file_name, core_spec, config, {});
}

}  // namespace tt::tt_metal

namespace tt_emu {
using namespace tt::tt_metal;

KernelHandle create_kernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                           const std::variant<DataMovementConfig, ComputeConfig>& config,
                           std::vector<GeneratedHeader> generated_headers) {
    tt_emu::ProgramState& p = program.state();
    tt_emu::KernelSpec k;
    k.generated_headers = std::move(generated_headers);
    k.path = tt_emu::resolve_kernel_path(file_name);
    k.name = std::filesystem::path(file_name).stem().string();
    k.cores = tt_emu::expand_cores(core_spec, "CreateKernel");
    if (auto* dm = std::get_if<DataMovementConfig>(&config)) {
        k.kind = dm->processor == DataMovementProcessor::RISCV_0 ? tt_emu::KernelKind::Riscv0 : tt_emu::KernelKind::Riscv1;
        // An unset NoC is the processor's default NoC (RISCV_0 -> NOC_0, RISCV_1 -> NOC_1).
        k.noc = dm->noc == detail::kNocUnset ? (k.kind == tt_emu::KernelKind::Riscv0 ? 0 : 1) : dm->noc == NOC_1;
        if (dm->noc != detail::kNocUnset && dm->noc != NOC_0 && dm->noc != NOC_1) {
            host_fail("CreateKernel", "DataMovementConfig noc " + std::to_string(int(dm->noc)) + " is not NOC_0 or NOC_1");
        }
        k.compile_args = dm->compile_args;
        k.defines = dm->defines;
        named_args_define(k, dm->named_compile_args);
    } else {
        const auto& cc = std::get<ComputeConfig>(config);
        k.kind = tt_emu::KernelKind::Compute;
        k.compile_args = cc.compile_args;
        k.defines = cc.defines;
        named_args_define(k, cc.named_compile_args);
        k.fp32_dest_acc = cc.fp32_dest_acc_en;
        k.math_fidelity = static_cast<int>(cc.math_fidelity);
        for (UnpackToDestMode m : cc.unpack_to_dest_mode) k.unpack_to_dest.push_back(static_cast<uint8_t>(m));
        k.dst_full_sync = cc.dst_full_sync_en;
    }
    if (k.path.empty()) host_fail("CreateKernel", tt_emu::kernel_path_not_found(file_name));
    for (const auto& other : p.kernels) {
        if (other.kind != k.kind) continue;
        for (const auto& c : k.cores) {
            if (std::find(other.cores.begin(), other.cores.end(), c) != other.cores.end()) {
                host_fail("CreateKernel", "core " + tt_emu::core_name(c) + " already runs a " +
                                              tt_emu::kind_name(k.kind) + " kernel (" + other.name + "), so " +
                                              k.name + " cannot run there too");
            }
        }
    }
    // Compiles in the background (joined at enqueue); a legacy data-movement kernel at enqueue (launch.cpp).
    if (!k.generated_headers.empty() || k.kind == KernelKind::Compute) k.binary = compile_kernel_async(k);
    p.kernels.push_back(std::move(k));
    return static_cast<KernelHandle>(p.kernels.size() - 1);
}

}  // namespace tt_emu

namespace tt::tt_metal {

CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config) {
    static CBHandle next_handle = 1;
    tt_emu::ProgramState& p = program.state();
    const char* call = "CreateCircularBuffer";
    if (config.data_formats().empty()) host_fail(call, "the config names no CB index");
    std::vector<tt_emu::CbSpec> specs;
    for (auto& [index, format] : config.data_formats()) {
        const std::string name = "CB c_" + std::to_string(index);
        if (index >= tt_emu::kNumCbs) host_fail(call, name + ": Wormhole has 32 CBs per core (c_0..c_31)");
        auto page = config.page_sizes().find(index);
        if (page == config.page_sizes().end() || page->second == 0) {
            host_fail(call, name + ": no page size (call set_page_size)");
        }
        if (config.total_size() == 0 || config.total_size() % page->second != 0) {
            host_fail(call, name + ": total size " + std::to_string(config.total_size()) +
                                " B is not a positive multiple of the page size " + std::to_string(page->second) + " B");
        }
        specs.push_back(tt_emu::CbSpec{index, format, page->second, config.total_size(), 0});
    }
    // One address on every core of the range (the highest first free address among them), as tt-metal's CB
    // allocator does: a multicast writes the same L1 address on each destination.
    const std::vector<CoreCoord> cores = tt_emu::expand_cores(core_spec, call);
    CoreCoord fullest = cores.front();
    for (const CoreCoord& c : cores) {
        if (p.l1_used[c] > p.l1_used[fullest]) fullest = c;
    }
    const bool global = config.globally_allocated_address().has_value();  // its pages are an L1 buffer's (cb_global.cpp)
    const uint32_t address = global ? tt_emu::global_cb_address(config, cores, call) : (p.l1_used[fullest] + 31u) / 32u * 32u;
    const uint32_t l1_limit = tt_emu::l1_buffers_floor();  // below the L1 buffers (all of L1 without any)
    if (!global && uint64_t{address} + config.total_size() > l1_limit) {
        host_fail(call, "CB c_" + std::to_string(specs.front().index) + " (" + std::to_string(config.total_size()) +
                            " B) does not fit in the L1 of core " + tt_emu::core_name(fullest) + ": " +
                            std::to_string(address) + " B are already used by CBs and the limit is " +
                            std::to_string(l1_limit) + " B (1464 KiB" +
                            (l1_limit < tt_emu::dev().l1_bytes ? " less the L1 buffers)" : ")"));
    }
    for (const CoreCoord& c : cores) {
        auto& on_core = p.cbs[c];
        for (auto spec : specs) {
            for (const auto& existing : on_core) {
                if (existing.index == spec.index) {
                    host_fail(call, "CB c_" + std::to_string(spec.index) + " is already configured on core " +
                                        tt_emu::core_name(c));
                }
            }
            spec.address = address;
            on_core.push_back(spec);
        }
        if (!global) p.l1_used[c] = address + config.total_size();
    }
    return next_handle++;
}

uint32_t CreateSemaphore(Program& program, const std::variant<CoreRange, CoreRangeSet>& core_spec,
                         uint32_t initial_value, CoreType core_type) {
    const char* call = "CreateSemaphore";
    if (core_type != CoreType::WORKER) host_fail(call, "only worker-core semaphores (CoreType::WORKER) are emulated");
    tt_emu::ProgramState& p = program.state();
    if (p.semaphores.size() >= tt_emu::kNumSemaphores) {
        host_fail(call, "a program has at most " + std::to_string(tt_emu::kNumSemaphores) + " semaphores");
    }
    const CoreSpec spec = std::holds_alternative<CoreRange>(core_spec) ? CoreSpec(std::get<CoreRange>(core_spec))
                                                                         : CoreSpec(std::get<CoreRangeSet>(core_spec));
    tt_emu::SemaphoreSpec sem;
    sem.id = static_cast<uint32_t>(p.semaphores.size());
    sem.cores = tt_emu::expand_cores(spec, call);
    sem.initial_value = initial_value;
    p.semaphores.push_back(std::move(sem));
    return p.semaphores.back().id;
}

CoreCoord IDevice::worker_core_from_logical_core(const CoreCoord& logical_core) const {
    if (logical_core.x >= tt_emu::dev().grid_x || logical_core.y >= tt_emu::dev().grid_y) {
        host_fail("worker_core_from_logical_core", "logical core " + tt_emu::core_name(logical_core) +
                                                       " is outside the " + tt_emu::grid_text() + " worker grid");
    }
    return tt_emu::noc_of_logical(logical_core);
}

namespace {
tt_emu::KernelSpec& kernel_of(const Program& program, KernelHandle kernel, const char* call) {
    auto& kernels = program.state().kernels;
    if (kernel >= kernels.size()) host_fail(call, "no kernel with handle " + std::to_string(kernel));
    return kernels[kernel];
}

void set_args(tt_emu::KernelSpec& k, const CoreCoord& c, const std::vector<uint32_t>& args) {
    if (std::find(k.cores.begin(), k.cores.end(), c) == k.cores.end()) {
        host_fail("SetRuntimeArgs", "kernel " + k.name + " does not run on core " + tt_emu::core_name(c));
    }
    if (args.size() + k.common_args.size() > tt_emu::kMaxRuntimeArgs) {
        host_fail("SetRuntimeArgs", std::to_string(args.size()) + " runtime arguments (+" +
                                        std::to_string(k.common_args.size()) + " common) for kernel " + k.name +
                                        " exceed the limit of " + std::to_string(tt_emu::kMaxRuntimeArgs));
    }
    k.runtime_args[c] = args;
}
}  // namespace

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::initializer_list<uint32_t> runtime_args) {
    SetRuntimeArgs(program, kernel, core_spec, std::vector<uint32_t>(runtime_args));
}

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    const std::vector<uint32_t>& runtime_args) {
    tt_emu::KernelSpec& k = kernel_of(program, kernel, "SetRuntimeArgs");
    for (const CoreCoord& c : tt_emu::expand_cores(core_spec, "SetRuntimeArgs")) set_args(k, c, runtime_args);
}

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& cores,
                    const std::vector<std::vector<uint32_t>>& runtime_args) {
    tt_emu::KernelSpec& k = kernel_of(program, kernel, "SetRuntimeArgs");
    if (cores.size() != runtime_args.size()) host_fail("SetRuntimeArgs", "one argument list per core is needed");
    for (size_t i = 0; i < cores.size(); ++i) set_args(k, cores[i], runtime_args[i]);
}

void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<uint32_t>& runtime_args) {
    tt_emu::KernelSpec& k = kernel_of(program, kernel, "SetCommonRuntimeArgs");
    if (runtime_args.size() > tt_emu::kMaxRuntimeArgs) {
        host_fail("SetCommonRuntimeArgs", "more than " + std::to_string(tt_emu::kMaxRuntimeArgs) + " arguments");
    }
    k.common_args = runtime_args;
}

void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, std::initializer_list<uint32_t> runtime_args) {
    SetCommonRuntimeArgs(program, kernel, std::vector<uint32_t>(runtime_args));
}

std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& config) {
    if (config.buffer_layout != TensorMemoryLayout::INTERLEAVED) {
        host_fail("CreateBuffer", "only interleaved buffers are emulated (sharded layouts are not)");
    }
    if (config.buffer_type == BufferType::L1) {
        return std::make_shared<Buffer>(tt_emu::allocate_l1_buffer(config.size, config.page_size, "CreateBuffer"),
                                        config.device);
    }
    if (config.buffer_type != BufferType::DRAM) host_fail("CreateBuffer", "only DRAM and L1 buffers are emulated");
    return std::make_shared<Buffer>(tt_emu::allocate_dram_buffer(config.size, config.page_size, "CreateBuffer"),
                                    config.device);
}

void EnqueueProgram(CommandQueue&, Program& program, bool) { detail::run_program(program, "EnqueueProgram"); }
void Finish(CommandQueue&) {}

// Interleaved DRAM: config bit 1 (DRAM), page size aligned to the DRAM alignment. Sharded L1: config bit 0, the page
// size aligned to the L1 alignment, rank 2, the bank count, tensor and shard shapes in pages, then each bank's NoC
// coordinates (x << 8 | y), two banks to a word, the second in the upper half (tensor_accessor_args.cpp).
TensorAccessorArgs::TensorAccessorArgs(const Buffer& buffer) {
    const tt_emu::DramBuffer& d = buffer.dram();
    if (!d.shards) {
        const uint32_t align = tt_emu::dev().dram_alignment;
        args_ = {2u, static_cast<uint32_t>((buffer.page_size() + align - 1) / align * align)};
        return;
    }
    const tt_emu::L1Shards& s = *d.shards;
    args_ = {1u, s.aligned_page, 2u, static_cast<uint32_t>(s.cores.size()), s.tensor_pages[0], s.tensor_pages[1],
             s.shard_pages[0], s.shard_pages[1]};
    for (size_t i = 0; i < s.cores.size(); i += 2) {
        uint32_t word = 0;
        for (size_t j = i; j < std::min(i + 2, s.cores.size()); ++j) {
            const CoreCoord noc = tt_emu::noc_of_logical(s.cores[j]);
            word |= static_cast<uint32_t>((noc.x & 0xff) << 8 | (noc.y & 0xff)) << (16 * (j - i));
        }
        args_.push_back(word);
    }
}

TensorAccessorArgs::TensorAccessorArgs(const distributed::MeshBuffer& buffer)
    : TensorAccessorArgs(*buffer.get_reference_buffer()) {}

}  // namespace tt::tt_metal
