// Writes the first page of each c_16 block to tile i of C and pops the block after waiting for that page
// (MODE_WRITE_TAIL: waits for both and writes the second). MODE_ZERO first waits for and pops 0 pages (a no-op on
// hardware: ttnn's matmul writers pop their 0 padding pages so) and checks at compile time that the CB descriptors
// give get_tile_size and get_dataformat as constants (ttnn 0.81.1's dataflow_api.h: constexpr, from the JIT's
// chlkc_descriptors.h); MODE_WRITE_IFACE writes the CB's interface snapshot, which moves nothing in the emulator.
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
#ifdef MODE_ZERO
    static_assert(get_tile_size(tt::CBIndex::c_16) == 2048);
    static_assert(get_dataformat(tt::CBIndex::c_16) == DataFormat::Float16_b);
    dfb.wait_front(0);
    dfb.pop_front(0);
#endif
#ifdef MODE_WRITE_IFACE
    get_local_cb_interface(tt::CBIndex::c_16).fifo_rd_ptr = 0;
    (void)get_local_cb_interface(tt::CBIndex::c_16).fifo_page_size;
#endif
    for (uint32_t i = 0; i < tiles; ++i) {
        dfb.wait_front(page + 1);
        noc.async_write(dfb, c, dfb.get_entry_size(), {.offset_bytes = page * dfb.get_entry_size()}, {.page_id = i});
        noc.async_write_barrier();
        dfb.pop_front(2);
    }
}
