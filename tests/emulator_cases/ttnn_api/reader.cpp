// Reads tile i of A and of B into CBs c_0 and c_1 with ttnn 0.81.1's Noc class, each CB as a DataflowBuffer and each
// tensor as a TensorAccessor whose page size defaults to its TensorAccessorArgs' aligned page size. Prints the CB
// interface it reads the page size from (TT_METAL_DPRINT_CORES=0,0). FAULT_TXN_ID asks for transaction ids (not
// emulated: a compile error); FAULT_HOME_HELPER includes a helper found only under $TT_METAL_HOME/ttnn/cpp.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/tensor/noc_traits.h"
#include "api/debug/dprint.h"
#ifdef FAULT_HOME_HELPER
#include "emu_home_helper.hpp"
#endif

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t tiles = get_arg_val<uint32_t>(2);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);
    const LocalCBInterface iface = get_local_cb_interface(tt::CBIndex::c_0);
    DPRINT("page {} pages {} size {} span {}\n", iface.fifo_page_size, iface.fifo_num_pages, iface.fifo_size,
           iface.fifo_limit - iface.fifo_rd_ptr);
#ifdef FAULT_HOME_HELPER
    DPRINT("helper {}\n", emu_home_helper_value);
#endif
    Noc noc;
    DataflowBuffer dfb_a(tt::CBIndex::c_0);
    DataflowBuffer dfb_b(tt::CBIndex::c_1);
    DPRINT("entry {} entries {}\n", dfb_a.get_entry_size(), dfb_a.get_total_num_entries());
    for (uint32_t i = 0; i < tiles; ++i) {
        dfb_a.reserve_back(1);
        dfb_b.reserve_back(1);
#ifdef FAULT_TXN_ID
        noc.async_read<NocOptions::TXN_ID>(a, dfb_a, iface.fifo_page_size, {.page_id = i}, {.offset_bytes = 0});
#else
        noc.async_read(a, dfb_a, iface.fifo_page_size, {.page_id = i}, {.offset_bytes = 0});
#endif
        // B in two halves: the page offset on the tensor side and the byte offset on the CB side.
        noc.async_read(b, dfb_b, 1024, {.page_id = i, .offset_bytes = 0}, {.offset_bytes = 0});
        noc.async_read(b, dfb_b, 1024, {.page_id = i, .offset_bytes = 1024}, {.offset_bytes = 1024});
        noc.async_read_barrier();
        dfb_a.push_back(1);
        dfb_b.push_back(1);
    }
}
