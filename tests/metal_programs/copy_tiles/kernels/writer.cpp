// The page size from the CB (get_tile_size) and the core from get_absolute_logical_x/y, as tt-metal's examples do.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, get_tile_size(cb));
    DPRINT_DATA0("writer on core {},{}, pages of {} B\n", (uint32_t)get_absolute_logical_x(),
                 (uint32_t)get_relative_logical_y(), get_tile_size(cb));
    for (uint32_t i = 0; i < num_tiles; ++i) {
        cb_wait_front(cb, 1);
        noc_async_write_tile(i, dst, get_read_ptr(cb));
        noc_async_write_barrier();
        cb_pop_front(cb, 1);
    }
}
