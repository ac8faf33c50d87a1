// Host API of a mesh of chips (tt-metal's distributed API): a MeshDevice is one emulated device per coordinate, each
// with its own DRAM and L1 buffers (dram.cpp's registry per chip) and its own cores for every program it runs; a
// MeshBuffer is one buffer per chip at one address (lock-step allocation, as tt-metal's); a workload runs each of its
// programs on every chip of the program's range, one chip after another.
#include <cstring>

#include "chips.hpp"
#include "emu.hpp"
#include "tt-metalium/distributed.hpp"

namespace tt_emu {
namespace {
std::atomic<uint32_t>& mesh_cols() {  // of the open mesh (0: none, or a single chip)
    static std::atomic<uint32_t> cols{0};
    return cols;
}
}  // namespace

uint32_t mesh_columns() { return mesh_cols(); }

std::string chip_prefix() {
    const uint32_t cols = mesh_cols();
    if (cols == 0) return "";
    const uint32_t chip = current_chip();
    return "device (" + std::to_string(chip / cols) + "," + std::to_string(chip % cols) + ") ";
}

// The chip the host's calls (and a program's kernels) use within the scope.
struct ChipScope {
    uint32_t previous = current_chip();
    explicit ChipScope(uint32_t chip) { set_current_chip(chip); }
    ~ChipScope() { set_current_chip(previous); }
};

}  // namespace tt_emu

namespace tt::tt_metal::distributed {
namespace {
[[noreturn]] void host_fail(const char* call, const std::string& message) {
    tt::tt_metal::detail::host_error(call, message);
}

std::string coord_name(const MeshCoordinate& c) { return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + ")"; }
}  // namespace

MeshDevice::MeshDevice(const MeshShape& shape) : shape_(shape), cq_(this) {
    for (std::size_t i = 0; i < shape.mesh_size(); ++i) devices_.push_back(std::make_unique<IDevice>(static_cast<chip_id_t>(i)));
}

std::shared_ptr<MeshDevice> MeshDevice::create(const MeshDeviceConfig& config, std::size_t, std::size_t, std::size_t) {
    const MeshShape& shape = config.mesh_shape();
    if (shape.rows == 0 || shape.cols == 0 || shape.mesh_size() > tt_emu::kMaxChips) {
        host_fail("MeshDevice::create", "a mesh of " + std::to_string(shape.rows) + "x" + std::to_string(shape.cols) +
                                            " chips; the emulator runs 1 to " + std::to_string(tt_emu::kMaxChips));
    }
    if (config.offset() && ((*config.offset())[0] != 0 || (*config.offset())[1] != 0)) {
        host_fail("MeshDevice::create", "the emulated system is the mesh itself: no offset");
    }
    tt_emu::mesh_cols() = shape.mesh_size() > 1 ? shape.cols : 0;
    return std::make_shared<MeshDevice>(shape);
}

std::shared_ptr<MeshDevice> MeshDevice::create_unit_mesh(chip_id_t device_id, std::size_t, std::size_t) {
    if (device_id != 0) {
        host_fail("MeshDevice::create_unit_mesh", "the emulator has one device (id 0), not " + std::to_string(device_id));
    }
    tt_emu::mesh_cols() = 0;
    return std::make_shared<MeshDevice>(MeshShape(1, 1));
}

MeshCommandQueue& MeshDevice::mesh_command_queue(std::size_t cq_id) {
    if (cq_id != 0) host_fail("mesh_command_queue", "the emulated device has one command queue");
    return cq_;
}

CoreCoord MeshDevice::worker_core_from_logical_core(const CoreCoord& logical_core) const {
    return devices_[0]->worker_core_from_logical_core(logical_core);
}

std::size_t MeshDevice::index_of(const MeshCoordinate& coord, const char* call) const {
    if (coord[0] >= shape_.rows || coord[1] >= shape_.cols) {
        host_fail(call, "mesh coordinate " + coord_name(coord) + " is outside the " + std::to_string(shape_.rows) + "x" +
                            std::to_string(shape_.cols) + " mesh");
    }
    return std::size_t{coord[0]} * shape_.cols + coord[1];
}

IDevice* MeshDevice::get_device(const MeshCoordinate& coord) { return devices_[index_of(coord, "get_device")].get(); }

bool MeshDevice::close() {
    closed_ = true;
    return true;
}

namespace {
// The cores and shapes in pages of a sharded L1 buffer's shard spec: the grid's cores in the spec's orientation
// (ROW_MAJOR: row by row), the shard and tensor shapes in pages.
tt_emu::L1Shards shards_of(const DeviceLocalBufferConfig& local, const char* call) {
    const ShardSpecBuffer& spec = *local.sharding_args.shard_spec();
    if (local.buffer_type != BufferType::L1 || local.sharding_args.buffer_layout() == TensorMemoryLayout::INTERLEAVED) {
        host_fail(call, "a shard spec needs an L1 buffer with a sharded layout (the emulator shards L1 buffers only)");
    }
    if (spec.page_shape[0] == 0 || spec.page_shape[1] == 0 || spec.shape()[0] % spec.page_shape[0] != 0 ||
        spec.shape()[1] % spec.page_shape[1] != 0) {
        host_fail(call, "the shard shape " + std::to_string(spec.shape()[0]) + "x" + std::to_string(spec.shape()[1]) +
                            " is not whole pages of " + std::to_string(spec.page_shape[0]) + "x" + std::to_string(spec.page_shape[1]));
    }
    tt_emu::L1Shards shards;
    const bool rows_first = spec.orientation() == ShardOrientation::ROW_MAJOR;
    const CoreRangeSet grid = spec.grid();  // a copy: ranges() of the temporary would dangle in the loop
    for (const CoreRange& r : grid.ranges()) {
        for (std::size_t outer = rows_first ? r.start_coord.y : r.start_coord.x; outer <= (rows_first ? r.end_coord.y : r.end_coord.x); ++outer) {
            for (std::size_t inner = rows_first ? r.start_coord.x : r.start_coord.y; inner <= (rows_first ? r.end_coord.x : r.end_coord.y); ++inner) {
                shards.cores.push_back(rows_first ? CoreCoord{inner, outer} : CoreCoord{outer, inner});
            }
        }
    }
    shards.tensor_pages = spec.tensor2d_shape_in_pages;
    shards.shard_pages = spec.shape_in_pages();
    return shards;
}
}  // namespace

std::shared_ptr<MeshBuffer> MeshBuffer::create(const MeshBufferConfig& config, const DeviceLocalBufferConfig& local,
                                               MeshDevice* device, std::optional<DeviceAddr> address) {
    const char* call = "MeshBuffer::create";
    if (local.buffer_type != BufferType::DRAM && local.buffer_type != BufferType::L1) host_fail(call, "only DRAM and L1 buffers are emulated");
    if (device == nullptr || device->is_closed()) host_fail(call, "no open mesh device");
    if (address) host_fail(call, "a MeshBuffer at a given address is not emulated");
    DeviceAddr size = 0;
    if (const auto* sharded = std::get_if<ShardedBufferConfig>(&config)) {
        const Shape2D& g = sharded->global_buffer_shape;
        if (g.height() == 0 || g.width() == 0 || sharded->global_size % (g.height() * g.width()) != 0) {
            host_fail(call, "global_size " + std::to_string(sharded->global_size) + " B is not a whole number of datums of the " +
                                std::to_string(g.height()) + "x" + std::to_string(g.width()) + " global_buffer_shape");
        }
        const Shape2D shard = sharded->physical_shard_shape();
        if (g.height() % shard.height() != 0 || g.width() % shard.width() != 0) {
            host_fail(call, "shard_shape does not divide the global_buffer_shape");
        }
        const std::size_t shards_h = g.height() / shard.height(), shards_w = g.width() / shard.width();
        if ((shards_h != 1 && shards_h != device->num_rows()) || (shards_w != 1 && shards_w != device->num_cols())) {
            host_fail(call, std::to_string(shards_h) + "x" + std::to_string(shards_w) + " shards on a " +
                                std::to_string(device->num_rows()) + "x" + std::to_string(device->num_cols()) +
                                " mesh: the emulator places shard (i, j) on device (i, j), so each shard dim splits its mesh axis or is 0 (replicated)");
        }
        size = shard.height() * shard.width() * sharded->compute_datum_size_bytes();
    } else {
        size = std::get<ReplicatedBufferConfig>(config).size;
    }
    std::vector<std::shared_ptr<Buffer>> buffers;
    for (std::size_t chip = 0; chip < device->num_devices(); ++chip) {  // lock step: one address on every chip
        tt_emu::ChipScope scope(static_cast<uint32_t>(chip));
        auto dram = local.sharding_args.shard_spec() ? tt_emu::allocate_l1_sharded_buffer(size, local.page_size, shards_of(local, call), call)
                    : local.buffer_type == BufferType::L1 ? tt_emu::allocate_l1_buffer(size, local.page_size, call)
                                                          : tt_emu::allocate_dram_buffer(size, local.page_size, call);
        if (!buffers.empty() && dram->address != buffers[0]->address()) {
            host_fail(call, "the chips' allocators are out of lock step (" + tt_emu::hex(dram->address) + " on chip " +
                                std::to_string(chip) + ", " + tt_emu::hex(buffers[0]->address()) + " on chip 0)");
        }
        buffers.push_back(std::make_shared<Buffer>(std::move(dram), device->get_device(chip)));
    }
    return std::make_shared<MeshBuffer>(config, std::move(buffers), device);
}

DeviceAddr MeshBuffer::size() const {
    if (const auto* sharded = std::get_if<ShardedBufferConfig>(&config_)) return sharded->global_size;
    return device_local_size();
}

Buffer* MeshBuffer::get_device_buffer(const MeshCoordinate& coord) const {
    return buffers_[device_->index_of(coord, "MeshBuffer::get_device_buffer")].get();
}

namespace detail {
namespace {
// Copies between the host's global buffer and every device's shard (to_device: host -> devices).
void move_shards(const MeshBuffer& buffer, uint8_t* host, std::size_t bytes, bool to_device, const char* call) {
    const ShardedBufferConfig& spec = buffer.global_shard_spec();
    if (bytes != spec.global_size) {
        host_fail(call, std::to_string(bytes) + " B of host data for a sharded MeshBuffer of " + std::to_string(spec.global_size) + " B");
    }
    const std::size_t datum = spec.compute_datum_size_bytes(), width = spec.global_buffer_shape.width();
    const Shape2D shard = spec.physical_shard_shape();
    const auto [rows_replicated, cols_replicated] = spec.replicated_dims();
    MeshDevice& mesh = *buffer.device();
    for (uint32_t r = 0; r < mesh.num_rows(); ++r) {
        for (uint32_t c = 0; c < mesh.num_cols(); ++c) {
            const std::size_t row0 = rows_replicated ? 0 : r * shard.height(), col0 = cols_replicated ? 0 : c * shard.width();
            if (!to_device && ((rows_replicated && r > 0) || (cols_replicated && c > 0))) continue;  // one copy read back
            tt_emu::DramBuffer& d = buffer.get_device_buffer(MeshCoordinate(r, c))->dram();
            std::lock_guard<std::mutex> lk(tt_emu::dram_mutex());
            for (std::size_t i = 0; i < shard.height(); ++i) {
                uint8_t* global = host + ((row0 + i) * width + col0) * datum;
                uint8_t* local = d.data.data() + i * shard.width() * datum;
                if (to_device) std::memcpy(local, global, shard.width() * datum);
                else std::memcpy(global, local, shard.width() * datum);
            }
        }
    }
}
}  // namespace

void write_mesh_buffer(const MeshBuffer& buffer, const void* data, std::size_t bytes, const char* call) {
    if (buffer.global_layout() == MeshBufferLayout::SHARDED) {
        move_shards(buffer, static_cast<uint8_t*>(const_cast<void*>(data)), bytes, true, call);
        return;
    }
    for (uint32_t r = 0; r < buffer.device()->num_rows(); ++r) {
        for (uint32_t c = 0; c < buffer.device()->num_cols(); ++c) {
            tt::tt_metal::detail::write_buffer(*buffer.get_device_buffer(MeshCoordinate(r, c)), data, bytes, call);
        }
    }
}

void read_mesh_buffer(const MeshBuffer& buffer, void* data, std::size_t bytes, const char* call) {
    if (buffer.global_layout() == MeshBufferLayout::SHARDED) {
        move_shards(buffer, static_cast<uint8_t*>(data), bytes, false, call);
        return;
    }
    if (buffer.device()->num_devices() != 1) {
        host_fail(call, "a replicated MeshBuffer of a mesh of " + std::to_string(buffer.device()->num_devices()) +
                            " devices (tt-metal: \"Can only read a Sharded MeshBuffer from a MeshDevice\"; ReadShard reads one device's)");
    }
    tt::tt_metal::detail::read_buffer(*buffer.get_reference_buffer(), data, bytes, call);
}
}  // namespace detail

void MeshWorkload::add_program(const MeshCoordinateRange& range, Program&& program) {
    for (const auto& [other, _] : programs_) {
        if (other.contains(range.start_coord()) || other.contains(range.end_coord()) || range.contains(other.start_coord())) {
            host_fail("MeshWorkload::add_program", "the device range " + coord_name(range.start_coord()) + "-" +
                                                       coord_name(range.end_coord()) + " overlaps one the workload has a program for");
        }
    }
    programs_.emplace_back(range, std::move(program));
}

MeshWorkload CreateMeshWorkload() { return MeshWorkload(); }

void AddProgramToMeshWorkload(MeshWorkload& workload, Program&& program, const MeshCoordinateRange& range) {
    workload.add_program(range, std::move(program));
}

void EnqueueMeshWorkload(MeshCommandQueue& cq, MeshWorkload& workload, bool) {
    const char* call = "EnqueueMeshWorkload";
    MeshDevice& mesh = *cq.device();
    if (mesh.is_closed()) host_fail(call, "the mesh device is closed");
    if (workload.get_programs().empty()) host_fail(call, "the workload has no programs");
    for (auto& [range, program] : workload.get_programs()) {
        mesh.index_of(range.end_coord(), call);  // the range lies in the mesh
        for (uint32_t r = range.start_coord()[0]; r <= range.end_coord()[0]; ++r) {
            for (uint32_t c = range.start_coord()[1]; c <= range.end_coord()[1]; ++c) {
                tt_emu::ChipScope scope(static_cast<uint32_t>(mesh.index_of(MeshCoordinate(r, c), call)));
                tt::tt_metal::detail::run_program(program, call);
            }
        }
    }
}

void Finish(MeshCommandQueue&) {}

}  // namespace tt::tt_metal::distributed
