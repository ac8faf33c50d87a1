// Emulator version of tt-metal's <internal/circular_buffer_interface.h> (ttnn 0.81.1, tt-1xx): the fields of a
// CB's local interface that kernels read (`get_local_cb_interface(cb).fifo_page_size`, `auto& cb =
// get_local_cb_interface(id)` in ttnn's kernel_lib). The emulator's CBs live in libtt_emu: the reference is to a
// snapshot of the CB, per kernel and CB, taken at each call (the real one is the core's live CB table). A kernel may
// write it (ttnn's matmul aligns an aliased CB's read pointer so, on a path the emulator does not take), but a write
// moves no CB: the kernel's next call for that CB reports it. In a compute kernel the sizes and
// addresses are in 16-byte units, as on Wormhole (below).
#pragma once

#include "tt_emu/kernel_api.hpp"

struct LocalCBInterface {
    uint32_t fifo_size;
    uint32_t fifo_limit;  // the start plus the size (the real header calls the range inclusive of it)
    uint32_t fifo_page_size;
    uint32_t fifo_num_pages;
    uint32_t fifo_rd_ptr;
    uint32_t fifo_wr_ptr;
};

// tt-1xx keeps a compute kernel's (TRISC's) CB sizes and addresses in 16-byte units (CIRCULAR_BUFFER_COMPUTE_ADDR_SHIFT)
// and a data-movement kernel's in bytes: `fifo_page_size << cb_addr_shift` is bytes in either.
constexpr uint32_t kCbComputeAddrShift = 4;
#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
constexpr uint32_t cb_addr_shift = 0;
#else
constexpr uint32_t cb_addr_shift = kCbComputeAddrShift;
#endif

namespace tt_emu::kapi::detail {
// The CB's size, limit, page size, page count and current read and write pointers (kapi_cb_info.cpp).
LocalCBInterface& cb_interface(uint32_t cb_id);
}  // namespace tt_emu::kapi::detail

inline LocalCBInterface& get_local_cb_interface(uint32_t cb_id) {
    return ::tt_emu::kapi::detail::cb_interface(cb_id);
}
