// Writes the first page of each c_16 block to tile i of C and pops the block after waiting for that page
// (MODE_WRITE_TAIL: waits for both and writes the second).
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
    DataflowBuffer dfb(tt::CBIndex::c_16);
#ifdef MODE_WRITE_TAIL
    constexpr uint32_t page = 1;
#else
    constexpr uint32_t page = 0;
#endif
    for (uint32_t i = 0; i < tiles; ++i) {
        dfb.wait_front(page + 1);
        noc.async_write(dfb, c, dfb.get_entry_size(), {.offset_bytes = page * dfb.get_entry_size()}, {.page_id = i});
        noc.async_write_barrier();
        dfb.pop_front(2);
    }
}
