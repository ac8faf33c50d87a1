// tt_emu: host side of TensorAccessorArgs (tt_metal/api/tt-metalium/tensor_accessor_args.hpp subset).
// An interleaved DRAM buffer contributes two compile-time arguments: the args-config bits (bit 0 sharded,
// bit 1 DRAM) and the aligned page size; a sharded L1 buffer (ttnn 0.81's layout, all of it compile-time) also its
// rank, bank count, tensor and shard shapes in pages and its banks' NoC coordinates, two to a word; the kernel-side
// TensorAccessorArgs<offset> reads them back.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tt-metalium/host_api.hpp"

namespace tt::tt_metal {

namespace distributed {
class MeshBuffer;
}

class TensorAccessorArgs {
public:
    // No tensor (tt-metal's placeholder, as ttnn's factories append for an unused accessor such as matmul's
    // sparsity): the args config None (not DRAM, not sharded) and page size 0. A kernel may build an accessor from
    // it; a transfer through one is refused (it names no DRAM buffer).
    TensorAccessorArgs() = default;
    explicit TensorAccessorArgs(const Buffer& buffer);
    explicit TensorAccessorArgs(const distributed::MeshBuffer& buffer);
    explicit TensorAccessorArgs(const std::shared_ptr<Buffer>& buffer) : TensorAccessorArgs(*buffer) {}
    void append_to(std::vector<uint32_t>& compile_time_args) const {
        compile_time_args.insert(compile_time_args.end(), args_.begin(), args_.end());
    }
    void append_to(std::vector<uint32_t>& compile_time_args, std::vector<uint32_t>& common_runtime_args) const {
        (void)common_runtime_args;  // every argument is compile-time
        append_to(compile_time_args);
    }
    std::vector<uint32_t> get_compile_time_args() const { return args_; }

private:
    std::vector<uint32_t> args_{0u, 0u};
};

}  // namespace tt::tt_metal
