// Writes scratch.cpp's FIFO page of c_0 to DRAM page 0.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t out_addr = get_arg_val<uint32_t>(0);
    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(out_args, out_addr, 64);
    cb_wait_front(tt::CBIndex::c_0, 1);
    noc_async_write_page(0, out, get_read_ptr(tt::CBIndex::c_0));
    noc_async_write_barrier();
    cb_pop_front(tt::CBIndex::c_0, 1);
}
