// CBs backed by an L1 buffer: tt-metal's dynamic CBs (CircularBufferConfig::set_globally_allocated_address, as its
// sharded matmul makes the output CB the sharded output, so the packer writes the shard and the writer copies
// nothing). tt-metal's rules (circular_buffer_config.cpp): only an L1 buffer, and the CB's total size at most the
// buffer's bytes per bank. What hardware does not check and the emulator does: each core of the CB holds a bank of
// the buffer at that address (a sharded buffer: one of its shards), else the CB's pages would be L1 no buffer owns.
#include "emu.hpp"

namespace tt::tt_metal {

CircularBufferConfig& CircularBufferConfig::set_total_size(uint32_t total_size) {
    if (global_address_ && total_size > max_size_) {
        detail::host_error("CircularBufferConfig::set_total_size",
                           "Cannot set circular buffer size to " + std::to_string(total_size) + ". This is larger "
                           "than the associated dynamically allocated L1 buffer bank size of " +
                           std::to_string(max_size_) + " B");
    }
    total_size_ = total_size;
    return *this;
}

CircularBufferConfig& CircularBufferConfig::set_globally_allocated_address(const Buffer& buffer) {
    if (buffer.buffer_type() != BufferType::L1) {
        detail::host_error("CircularBufferConfig::set_globally_allocated_address",
                           "Only L1 buffers can have an associated circular buffer (" + buffer.dram().describe() + ")");
    }
    global_address_ = buffer.address();
    max_size_ = buffer.dram().bank_bytes;
    global_buffer_ = &buffer;
    return set_total_size(total_size_);
}

}  // namespace tt::tt_metal

namespace tt_emu {

uint32_t global_cb_address(const tt::tt_metal::CircularBufferConfig& config, const std::vector<CoreCoord>& cores,
                           const char* call) {
    const tt::tt_metal::Buffer* buffer = config.shadow_global_buffer();
    const DramBuffer& d = buffer->dram();
    const uint32_t address = *config.globally_allocated_address();
    if (address % dev().l1_alignment != 0) {
        tt::tt_metal::detail::host_error(call, "a CB backed by " + d.describe() + " starts at " +
                                                   std::to_string(address) + ", not aligned to the L1's " +
                                                   std::to_string(dev().l1_alignment) + " B");
    }
    if (!d.shards) return address;  // an interleaved L1 buffer has a bank on every worker core
    for (const CoreCoord& c : cores) {
        if (std::find(d.shards->cores.begin(), d.shards->cores.end(), c) == d.shards->cores.end()) {
            tt::tt_metal::detail::host_error(
                call, "sanitizer: the CB backed by " + d.describe() + " is on core " + core_name(c) +
                          ", which holds no shard of it: its pages would be L1 that no buffer owns there (create the "
                          "CB on the buffer's shard cores only)");
        }
    }
    return address;
}

}  // namespace tt_emu
