// Reads tile i of A into the first page of a 2-page block of c_0 and pushes the block (MODE_POP_AHEAD: page by page).
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t tiles = get_arg_val<uint32_t>(1);
    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr);
    Noc noc;
    DataflowBuffer dfb(tt::CBIndex::c_0);
    for (uint32_t i = 0; i < tiles; ++i) {
        dfb.reserve_back(2);
        noc.async_read(a, dfb, dfb.get_entry_size(), {.page_id = i}, {.offset_bytes = 0});
        noc.async_read_barrier();
#ifdef MODE_POP_AHEAD
        dfb.push_back(1);
        dfb.push_back(1);
#else
        dfb.push_back(2);
#endif
    }
}
