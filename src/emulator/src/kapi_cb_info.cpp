// Kernel API: what a kernel reads about its CBs (data format, page size, the CB interface of tt-metal's
// internal/circular_buffer_interface.h that ttnn's kernels read the page size from).
#include "emu.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {
namespace kapi {

ktypes::DataFormat get_dataformat(int32_t cb_id) {
    Session s = enter("get_dataformat", {cb_id});
    return ktypes::DataFormat(static_cast<uint32_t>(cb_of(s, cb_id).format));
}

int32_t get_tile_size(int32_t cb_id) {
    Session s = enter("get_tile_size", {cb_id});
    return static_cast<int32_t>(cb_of(s, cb_id).page_bytes);
}

namespace detail {

// fifo_size, fifo_limit, fifo_page_size, fifo_num_pages, fifo_rd_ptr, fifo_wr_ptr of tt-metal's LocalCBInterface
// (the limit is the ring's end, its start plus its size, as tt-metal's CB set-up writes it; the pointers are where
// the next read and write begin).
void cb_interface(uint32_t cb_id, uint32_t out[6]) {
    Session s = enter("get_local_cb_interface", {cb_id});
    const Cb& cb = cb_of(s, cb_id);
    const uint32_t size = cb.capacity * cb.page_bytes;
    out[0] = size;
    out[1] = cb.base + size;
    out[2] = cb.page_bytes;
    out[3] = cb.capacity;
    out[4] = cb.page_addr(cb.rd_page());
    out[5] = cb.page_addr(cb.wr_page());
}

}  // namespace detail
}  // namespace kapi
}  // namespace tt_emu
