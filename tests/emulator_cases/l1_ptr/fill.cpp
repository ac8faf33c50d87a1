// Zeroes CB c_0's reserved page (Noc::async_write_zeros, as kernel_lib's prepare_reduce_scaler does), then fills its
// first half through pointers: word i = (core id << 16) | i, words 1 and 2 through CoreLocalMem; and word 0 of the L1
// buffer at the address of runtime argument 1.
#include <cstdint>

#include "api/core_local_mem.h"
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t id = get_arg_val<uint32_t>(0);
    cb_reserve_back(tt::CBIndex::c_0, 1);
    const uint32_t addr = get_write_ptr(tt::CBIndex::c_0);
#ifdef FAULT_OFFSET
    // The L1 offset, not this core's address of it: a raw L1 address as a host would print it.
    auto* page = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(addr & 0x1fffffu);
#else
    auto* page = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(addr);
#endif
    CoreLocalMem<uint32_t> mem(addr);
    Noc noc;
    noc.async_write_zeros(mem, 2048);
#ifndef FAULT_NO_ZERO_BARRIER
    noc.write_zeros_l1_barrier();
#endif
    for (uint32_t i = 0; i < 256; ++i) page[i] = (id << 16) | i;
    mem[1] = 0xa000u + id;
    *(mem + 2) = 0xb000u + id;
    *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_arg_val<uint32_t>(1)) = 0xc000u + id;
#ifndef FAULT_UNWRITTEN
    cb_push_back(tt::CBIndex::c_0, 1);
#else
    cb_push_back(tt::CBIndex::c_0, 1);  // pushed twice: the second page was never reserved
    cb_push_back(tt::CBIndex::c_0, 1);
#endif
}
