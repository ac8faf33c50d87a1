// tt_emu: the mesh-device host API subset (tt_metal/api/tt-metalium/distributed.hpp, mesh_device.hpp, mesh_buffer.hpp,
// mesh_workload.hpp, mesh_coord.hpp, mesh_config.hpp). A mesh of rows x cols chips is one emulated device per
// coordinate, each with its own DRAM and cores (chip index r * cols + c); a MeshBuffer is one buffer per chip at the
// same address (allocated in lock step), replicated or 2-D sharded as tt-metal's ShardedBufferConfig says; a workload
// runs each of its programs on every chip of its range (src/emulator/src/mesh_host.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "tt-metalium/host_api.hpp"

namespace tt::tt_metal {

// tt-metalium/shape2d.hpp: a 2-D shape, height then width.
class Shape2D {
public:
    Shape2D(std::size_t height, std::size_t width) : height_(height), width_(width) {}
    std::size_t height() const { return height_; }
    std::size_t width() const { return width_; }

private:
    std::size_t height_, width_;
};

}  // namespace tt::tt_metal

namespace tt::tt_metal::distributed {

// A 2-D mesh shape (tt-metal's MeshShape is N-D; the emulator runs 1-D and 2-D meshes).
struct MeshShape {
    uint32_t rows = 1;
    uint32_t cols = 1;
    MeshShape() = default;
    MeshShape(uint32_t r, uint32_t c) : rows(r), cols(c) {}
    explicit MeshShape(uint32_t n) : rows(1), cols(n) {}
    std::size_t mesh_size() const { return std::size_t{rows} * cols; }
    std::size_t dims() const { return 2; }
    uint32_t operator[](std::size_t dim) const { return dim == 0 ? rows : cols; }
};

class MeshCoordinate {
public:
    MeshCoordinate(uint32_t row, uint32_t col) : row_(row), col_(col) {}
    std::size_t dims() const { return 2; }
    uint32_t operator[](std::size_t dim) const { return dim == 0 ? row_ : col_; }

private:
    uint32_t row_, col_;
};

// The coordinates from start to end (inclusive), row-major.
class MeshCoordinateRange {
public:
    explicit MeshCoordinateRange(const MeshShape& shape) : start_(0, 0), end_(shape.rows - 1, shape.cols - 1) {}
    MeshCoordinateRange(const MeshCoordinate& start, const MeshCoordinate& end) : start_(start), end_(end) {}
    const MeshCoordinate& start_coord() const { return start_; }
    const MeshCoordinate& end_coord() const { return end_; }
    bool contains(const MeshCoordinate& c) const {
        return c[0] >= start_[0] && c[0] <= end_[0] && c[1] >= start_[1] && c[1] <= end_[1];
    }

private:
    MeshCoordinate start_, end_;
};

class MeshDeviceConfig {
public:
    MeshDeviceConfig(const MeshShape& mesh_shape, const std::optional<MeshCoordinate>& offset = std::nullopt,
                     const std::vector<chip_id_t>& physical_device_ids = {})
        : mesh_shape_(mesh_shape), offset_(offset), physical_device_ids_(physical_device_ids) {}
    const MeshShape& mesh_shape() const { return mesh_shape_; }
    const std::optional<MeshCoordinate>& offset() const { return offset_; }
    const std::vector<chip_id_t>& physical_device_ids() const { return physical_device_ids_; }

private:
    MeshShape mesh_shape_;
    std::optional<MeshCoordinate> offset_;
    std::vector<chip_id_t> physical_device_ids_;
};

class MeshDevice;

class MeshCommandQueue {
public:
    explicit MeshCommandQueue(MeshDevice* device) : device_(device) {}
    MeshDevice* device() const { return device_; }

private:
    MeshDevice* device_;
};

class MeshDevice {
public:
    explicit MeshDevice(const MeshShape& shape);
    static std::shared_ptr<MeshDevice> create(const MeshDeviceConfig& config, std::size_t l1_small_size = 0,
                                              std::size_t trace_region_size = 0, std::size_t num_command_queues = 1);
    static std::shared_ptr<MeshDevice> create_unit_mesh(chip_id_t device_id, std::size_t l1_small_size = 0,
                                                        std::size_t trace_region_size = 0);
    MeshCommandQueue& mesh_command_queue(std::size_t cq_id = 0);
    const MeshShape& shape() const { return shape_; }
    std::size_t num_devices() const { return shape_.mesh_size(); }
    std::size_t num_rows() const { return shape_.rows; }
    std::size_t num_cols() const { return shape_.cols; }
    CoreCoord compute_with_storage_grid_size() const { return devices_[0]->compute_with_storage_grid_size(); }
    // Every chip of the mesh is of one architecture: the NoC coordinates of a logical core are the same on each.
    CoreCoord worker_core_from_logical_core(const CoreCoord& logical_core) const;
    IDevice* get_device(std::size_t index) { return devices_.at(index).get(); }
    IDevice* get_device(const MeshCoordinate& coord);
    bool close();
    bool is_closed() const { return closed_; }
    std::size_t index_of(const MeshCoordinate& coord, const char* call) const;  // the chip index, r * cols + c

private:
    MeshShape shape_;
    std::vector<std::unique_ptr<IDevice>> devices_;
    MeshCommandQueue cq_;
    bool closed_ = false;
};

struct DeviceLocalBufferConfig {
    DeviceAddr page_size = 0;
    BufferType buffer_type = BufferType::DRAM;
    BufferShardingArgs sharding_args;  // an L1 buffer sharded over cores (shard_spec.hpp)
    std::optional<bool> bottom_up = std::nullopt;
};

// Every device gets a buffer of this size; a write gives each the same data.
struct ReplicatedBufferConfig {
    DeviceAddr size = 0;
};

// A 2-D sharded buffer: the host's global_buffer_shape of datums (global_size / its area bytes each) split into
// shard_shape pieces, shard (i, j) on device (i, j); a shard dim of 0 replicates along that mesh axis.
struct ShardedBufferConfig {
    DeviceAddr global_size = 0;
    Shape2D global_buffer_shape = {0, 0};
    Shape2D shard_shape = {0, 0};
    ShardOrientation shard_orientation = ShardOrientation::ROW_MAJOR;
    uint32_t compute_datum_size_bytes() const {
        return static_cast<uint32_t>(global_size / (global_buffer_shape.height() * global_buffer_shape.width()));
    }
    std::pair<bool, bool> replicated_dims() const { return {shard_shape.height() == 0, shard_shape.width() == 0}; }
    Shape2D physical_shard_shape() const {
        return Shape2D(shard_shape.height() == 0 ? global_buffer_shape.height() : shard_shape.height(),
                       shard_shape.width() == 0 ? global_buffer_shape.width() : shard_shape.width());
    }
};

enum class MeshBufferLayout : uint8_t { REPLICATED, SHARDED };
using MeshBufferConfig = std::variant<ReplicatedBufferConfig, ShardedBufferConfig>;

class MeshBuffer {
public:
    MeshBuffer(const MeshBufferConfig& config, std::vector<std::shared_ptr<Buffer>> buffers, MeshDevice* device)
        : config_(config), buffers_(std::move(buffers)), device_(device) {}
    static std::shared_ptr<MeshBuffer> create(const MeshBufferConfig& config, const DeviceLocalBufferConfig& local,
                                              MeshDevice* device, std::optional<DeviceAddr> address = std::nullopt);
    uint32_t address() const { return buffers_[0]->address(); }
    DeviceAddr size() const;  // the global size (a replicated buffer: one device's)
    DeviceAddr device_local_size() const { return buffers_[0]->size(); }
    DeviceAddr page_size() const { return buffers_[0]->page_size(); }
    uint32_t num_pages() const { return buffers_[0]->num_pages(); }
    MeshDevice* device() const { return device_; }
    MeshBufferLayout global_layout() const {
        return std::holds_alternative<ShardedBufferConfig>(config_) ? MeshBufferLayout::SHARDED : MeshBufferLayout::REPLICATED;
    }
    const MeshBufferConfig& global_config() const { return config_; }
    const ShardedBufferConfig& global_shard_spec() const { return std::get<ShardedBufferConfig>(config_); }
    Buffer* get_device_buffer(const MeshCoordinate& coord) const;
    Buffer* get_reference_buffer() const { return buffers_[0].get(); }
    Buffer* get_backing_buffer() const { return buffers_[0].get(); }

private:
    MeshBufferConfig config_;
    std::vector<std::shared_ptr<Buffer>> buffers_;  // per chip index
    MeshDevice* device_;
};

class MeshWorkload {
public:
    void add_program(const MeshCoordinateRange& range, Program&& program);
    std::vector<std::pair<MeshCoordinateRange, Program>>& get_programs() { return programs_; }

private:
    std::vector<std::pair<MeshCoordinateRange, Program>> programs_;
};

MeshWorkload CreateMeshWorkload();
void AddProgramToMeshWorkload(MeshWorkload& workload, Program&& program, const MeshCoordinateRange& range);

namespace detail {
// A write of the whole buffer (replicated: to every device; sharded: each device its shard) and the read of a sharded
// buffer (each device's shard into its place), `bytes` of host data; the one device's shard of WriteShard / ReadShard.
void write_mesh_buffer(const MeshBuffer& buffer, const void* data, std::size_t bytes, const char* call);
void read_mesh_buffer(const MeshBuffer& buffer, void* data, std::size_t bytes, const char* call);
}  // namespace detail

template <typename T>
void EnqueueWriteMeshBuffer(MeshCommandQueue&, const std::shared_ptr<MeshBuffer>& buffer, const std::vector<T>& src,
                            bool blocking = false) {
    (void)blocking;
    detail::write_mesh_buffer(*buffer, src.data(), src.size() * sizeof(T), "EnqueueWriteMeshBuffer");
}

// Resizes `dst` to the buffer's (global) size in elements of T. A replicated buffer of a mesh of several devices
// cannot be read this way (tt-metal: "Can only read a Sharded MeshBuffer from a MeshDevice"): ReadShard reads one.
template <typename T>
void EnqueueReadMeshBuffer(MeshCommandQueue&, std::vector<T>& dst, const std::shared_ptr<MeshBuffer>& buffer,
                           bool blocking = true) {
    (void)blocking;
    dst.resize(static_cast<std::size_t>(buffer->size() / sizeof(T)));
    detail::read_mesh_buffer(*buffer, dst.data(), dst.size() * sizeof(T), "EnqueueReadMeshBuffer");
}

template <typename T>
void WriteShard(MeshCommandQueue&, const std::shared_ptr<MeshBuffer>& buffer, std::vector<T>& src,
                const MeshCoordinate& coord, bool blocking = false) {
    (void)blocking;
    tt::tt_metal::detail::write_buffer(*buffer->get_device_buffer(coord), src.data(), src.size() * sizeof(T), "WriteShard");
}

template <typename T>
void ReadShard(MeshCommandQueue&, std::vector<T>& dst, const std::shared_ptr<MeshBuffer>& buffer,
               const MeshCoordinate& coord, bool blocking = true) {
    (void)blocking;
    Buffer* shard = buffer->get_device_buffer(coord);
    dst.resize(static_cast<std::size_t>(shard->size() / sizeof(T)));
    tt::tt_metal::detail::read_buffer(*shard, dst.data(), dst.size() * sizeof(T), "ReadShard");
}

void EnqueueMeshWorkload(MeshCommandQueue& cq, MeshWorkload& workload, bool blocking);
void Finish(MeshCommandQueue& cq);

}  // namespace tt::tt_metal::distributed
