// Emulator version of tt-metal's <internal/circular_buffer_interface.h> (ttnn 0.81.1, tt-1xx): the fields of a
// CB's local interface that kernels read (`get_local_cb_interface(cb).fifo_page_size`). The emulator's CBs live in
// libtt_emu, so the interface is a copy taken at the call (the real one is a reference into the core's CB table;
// kernels read it, and the emulator refuses what only writes to it would do, by not offering a reference).
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

namespace tt_emu::kapi::detail {
// The CB's size, limit, page size, page count and current read and write pointers (kapi_metal2.cpp).
void cb_interface(uint32_t cb_id, uint32_t out[6]);
}  // namespace tt_emu::kapi::detail

inline LocalCBInterface get_local_cb_interface(uint32_t cb_id) {
    uint32_t f[6];
    ::tt_emu::kapi::detail::cb_interface(cb_id, f);
    return LocalCBInterface{f[0], f[1], f[2], f[3], f[4], f[5]};
}
