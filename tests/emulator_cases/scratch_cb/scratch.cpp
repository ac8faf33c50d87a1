// CB c_1 as L1 scratch, as ttnn's pad reader (pad_reader_dims_rm_interleaved.cpp) uses its pad CB: page 0 filled
// with the pad word through get_write_ptr's address, page 1 read from DRAM by the NoC, and that page written to DRAM
// page 1 from get_read_ptr's address, none of it reserved or waited. Then one FIFO page of c_0: word i = in[i] + pad
// (i < 15), word 15 = 1 if get_noc_addr(addr) is this core's NoC address of addr (and of c_2's read pointer, the
// pad reader's alignment CB).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t in_addr = get_arg_val<uint32_t>(0);
    const uint32_t out_addr = get_arg_val<uint32_t>(1);
    const uint32_t pad = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_scratch = tt::CBIndex::c_1, cb_align = tt::CBIndex::c_2, cb_out = tt::CBIndex::c_0;
    const InterleavedAddrGen<true> in = {.bank_base_address = in_addr, .page_size = 64};
    const InterleavedAddrGen<true> out = {.bank_base_address = out_addr, .page_size = 64};

    auto* scratch = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_scratch));
    for (uint32_t i = 0; i < 16; ++i) scratch[i] = pad;
    const uint32_t loaded = get_write_ptr(cb_scratch) + 64;
    noc_async_read(get_noc_addr(0, in), loaded, 64);
    noc_async_read_barrier();
    noc_async_write(get_read_ptr(cb_scratch) + 64, get_noc_addr(1, out), 64);
    noc_async_write_barrier();
#ifdef FAULT_FIFO_AFTER_SCRATCH
    cb_reserve_back(cb_scratch, 1);
#endif

    const uint32_t align = get_read_ptr(cb_align);
    const bool own = get_noc_addr(loaded) == get_noc_addr(my_x[noc_index], my_y[noc_index], loaded) &&
                     get_noc_addr(align) == get_noc_addr(my_x[0], my_y[0], align, 0);
    cb_reserve_back(cb_out, 1);
    auto* page = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(cb_out));
    const auto* data = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(loaded);
    for (uint32_t i = 0; i < 15; ++i) page[i] = data[i] + scratch[i];
    page[15] = own ? 1 : 0;
    cb_push_back(cb_out, 1);
}
