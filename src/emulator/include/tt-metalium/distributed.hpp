// tt_emu: the mesh-device host API subset (tt_metal/api/tt-metalium/distributed.hpp). A unit mesh is one
// emulated device; a MeshBuffer is one interleaved DRAM buffer; a workload runs its programs in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "tt-metalium/host_api.hpp"

namespace tt::tt_metal::distributed {

struct MeshShape {
    uint32_t rows = 1;
    uint32_t cols = 1;
    std::size_t mesh_size() const { return std::size_t{rows} * cols; }
};

class MeshCoordinateRange {
public:
    explicit MeshCoordinateRange(const MeshShape& shape) : shape_(shape) {}
    const MeshShape& shape() const { return shape_; }

private:
    MeshShape shape_;
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
    explicit MeshDevice(chip_id_t id) : device_(id), cq_(this) {}
    static std::shared_ptr<MeshDevice> create_unit_mesh(chip_id_t device_id, std::size_t l1_small_size = 0,
                                                        std::size_t trace_region_size = 0);
    MeshCommandQueue& mesh_command_queue(std::size_t cq_id = 0);
    MeshShape shape() const { return MeshShape{1, 1}; }
    std::size_t num_devices() const { return 1; }
    CoreCoord compute_with_storage_grid_size() const { return device_.compute_with_storage_grid_size(); }
    CoreCoord worker_core_from_logical_core(const CoreCoord& logical_core) const;
    IDevice* get_device(std::size_t) { return &device_; }
    bool close();
    bool is_closed() const { return closed_; }

private:
    IDevice device_;
    MeshCommandQueue cq_;
    bool closed_ = false;
};

struct DeviceLocalBufferConfig {
    DeviceAddr page_size = 0;
    BufferType buffer_type = BufferType::DRAM;
    std::optional<bool> bottom_up = std::nullopt;
};

struct ReplicatedBufferConfig {
    DeviceAddr size = 0;
};

class MeshBuffer {
public:
    MeshBuffer(std::shared_ptr<Buffer> buffer, MeshDevice* device) : buffer_(std::move(buffer)), device_(device) {}
    static std::shared_ptr<MeshBuffer> create(const ReplicatedBufferConfig& config,
                                              const DeviceLocalBufferConfig& local, MeshDevice* device);
    uint32_t address() const { return buffer_->address(); }
    DeviceAddr size() const { return buffer_->size(); }
    DeviceAddr page_size() const { return buffer_->page_size(); }
    MeshDevice* device() const { return device_; }
    Buffer* get_reference_buffer() const { return buffer_.get(); }
    Buffer* get_backing_buffer() const { return buffer_.get(); }

private:
    std::shared_ptr<Buffer> buffer_;
    MeshDevice* device_;
};

class MeshWorkload {
public:
    void add_program(const MeshCoordinateRange& range, Program&& program);
    std::vector<Program>& get_programs() { return programs_; }

private:
    std::vector<Program> programs_;
};

void AddProgramToMeshWorkload(MeshWorkload& workload, Program&& program, const MeshCoordinateRange& range);

template <typename T>
void EnqueueWriteMeshBuffer(MeshCommandQueue&, const std::shared_ptr<MeshBuffer>& buffer, const std::vector<T>& src,
                            bool blocking = false) {
    (void)blocking;
    detail::write_buffer(*buffer->get_reference_buffer(), src.data(), src.size() * sizeof(T),
                         "EnqueueWriteMeshBuffer");
}

// Resizes `dst` to the buffer's size (in elements of T).
template <typename T>
void EnqueueReadMeshBuffer(MeshCommandQueue&, std::vector<T>& dst, const std::shared_ptr<MeshBuffer>& buffer,
                           bool blocking = true) {
    (void)blocking;
    dst.resize(static_cast<std::size_t>(buffer->size() / sizeof(T)));
    detail::read_buffer(*buffer->get_reference_buffer(), dst.data(), dst.size() * sizeof(T),
                        "EnqueueReadMeshBuffer");
}

void EnqueueMeshWorkload(MeshCommandQueue& cq, MeshWorkload& workload, bool blocking);
void Finish(MeshCommandQueue& cq);

}  // namespace tt::tt_metal::distributed
