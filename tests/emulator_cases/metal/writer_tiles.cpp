// Writer (profile metal_d5f9bc4a): output tiles [start, start + count) from CB 16 to C, one page at a time.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t start = get_arg_val<uint32_t>(1);
    const uint32_t count = get_arg_val<uint32_t>(2);
    [[maybe_unused]] const uint32_t core = get_arg_val<uint32_t>(3);
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, 2048);
    constexpr int32_t cb_out = 16;
    for (uint32_t t = start; t < start + count; ++t) {
        cb_wait_front(cb_out, 1);
#ifdef FAULT_TWO_PRODUCERS
        if (core == FAULT_TWO_PRODUCERS) cb_reserve_back(0, 1);  // CB 0 belongs to the reader
#endif
        noc_async_write_page(t, c, get_read_ptr(cb_out));
#ifdef FAULT_MISSING_WRITE_BARRIER
        if (core != FAULT_MISSING_WRITE_BARRIER)
#endif
            noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
#ifdef FAULT_DEADLOCK
    if (core == FAULT_DEADLOCK) cb_wait_front(cb_out, 1);  // nobody pushes another tile
#endif
}
