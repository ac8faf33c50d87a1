// tt_emu: tt-metal's <tt-metalium/tt_metal.hpp>, the tt::tt_metal::detail host calls of a single device that the
// programming examples include it for (matmul_multicore_reuse, pad_multi_core; vecadd_sharding and shard_data_rm
// call WriteToBuffer / ReadFromBuffer): a buffer's bytes written and read whole, and a program run at once, as
// tt-metal's slow-dispatch LaunchProgram runs it. The profiler, fabric and device-pool calls are not emulated.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "hostdevcommon/common_values.hpp"  // INVALID, VALID: tt-metal's tt_metal.hpp brings them to hosts
#include "tt-metalium/assert.hpp"
#include "tt-metalium/host_api.hpp"
#include "tt_stl/span.hpp"

namespace tt::tt_metal::detail {

// The host data must be the buffer's size, as tt-metal's WriteToBuffer checks it.
inline void WriteToBuffer(Buffer& buffer, tt::stl::Span<const uint8_t> host_buffer) {
    if (host_buffer.size() != buffer.size()) {
        host_error("WriteToBuffer", "the host data has " + std::to_string(host_buffer.size()) + " B, the buffer " +
                                        std::to_string(buffer.size()) + " B");
    }
    write_buffer(buffer, host_buffer.data(), host_buffer.size(), "WriteToBuffer");
}
template <typename DType>
void WriteToBuffer(Buffer& buffer, const std::vector<DType>& host_buffer) {
    WriteToBuffer(buffer, tt::stl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(host_buffer.data()),
                                                       host_buffer.size() * sizeof(DType)));
}
template <typename DType>
void WriteToBuffer(const std::shared_ptr<Buffer>& buffer, const std::vector<DType>& host_buffer) {
    WriteToBuffer(*buffer, host_buffer);
}

inline void ReadFromBuffer(Buffer& buffer, uint8_t* host_buffer, bool /*shard_order*/ = false) {
    read_buffer(buffer, host_buffer, static_cast<std::size_t>(buffer.size()), "ReadFromBuffer");
}
// Resizes `host_buffer` to the buffer's size, as tt-metal's does.
template <typename DType>
void ReadFromBuffer(Buffer& buffer, std::vector<DType>& host_buffer, bool shard_order = false) {
    TT_FATAL(buffer.size() % sizeof(DType) == 0, "Buffer size is not divisible by dtype size");
    host_buffer.resize(static_cast<std::size_t>(buffer.size() / sizeof(DType)));
    ReadFromBuffer(buffer, reinterpret_cast<uint8_t*>(host_buffer.data()), shard_order);
}
template <typename DType>
void ReadFromBuffer(const std::shared_ptr<Buffer>& buffer, std::vector<DType>& host_buffer, bool shard_order = false) {
    ReadFromBuffer(*buffer, host_buffer, shard_order);
}

// Runs the program on its cores to completion (the emulator has no asynchronous launch).
inline void LaunchProgram(IDevice* /*device*/, Program& program, bool /*wait_until_cores_done*/ = true) {
    run_program(program, "LaunchProgram");
}
inline void LaunchProgram(IDevice* device, const std::shared_ptr<Program>& program, bool wait = true) {
    LaunchProgram(device, *program, wait);
}

}  // namespace tt::tt_metal::detail
