// Writes the tile of c_16 to DRAM page 0 of the buffer at runtime argument 0 (TensorAccessorArgs at 0).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr auto args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(args, get_arg_val<uint32_t>(0), 2048);
    cb_wait_front(tt::CBIndex::c_16, 1);
    noc_async_write_page(0, out, get_read_ptr(tt::CBIndex::c_16));
    noc_async_write_barrier();
    cb_pop_front(tt::CBIndex::c_16, 1);
}
