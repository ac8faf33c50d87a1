// Writes the tiles of CB c_2 to C with the Noc class; each page is popped after noc.async_writes_flushed (its data
// has left L1), the last barrier after the loop, as ttnn's writer_unary_interleaved_start_id does. FAULT_NO_FLUSH
// pops without the flush.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t tiles = get_arg_val<uint32_t>(1);
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr);
    Noc noc;
    DataflowBuffer dfb(tt::CBIndex::c_2);
    for (uint32_t i = 0; i < tiles; ++i) {
        dfb.wait_front(1);
        noc.async_write(dfb, c, dfb.get_entry_size(), {}, {.page_id = i});
#ifndef FAULT_NO_FLUSH
        noc.async_writes_flushed();
#endif
        dfb.pop_front(1);
    }
    noc.async_write_barrier();
}
