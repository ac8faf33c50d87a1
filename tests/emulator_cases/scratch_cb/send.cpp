// The unicast half of NoC_tile_transfer: reads a tile into CB c_1 as scratch, waits until the receiver (core (0,1))
// has reserved its c_0 page and said so on this core's semaphore, writes the tile into that page by unicast
// noc_async_write (the same L1 address on both cores: one CB config), then raises the receiver's semaphore.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t in_addr = get_arg_val<uint32_t>(0);
    const uint32_t recv_x = get_arg_val<uint32_t>(1);
    const uint32_t recv_y = get_arg_val<uint32_t>(2);
    const uint32_t sem = get_semaphore(get_arg_val<uint32_t>(3));
    const InterleavedAddrGen<true> in = {.bank_base_address = in_addr, .page_size = 2048};
    const uint32_t tile = get_write_ptr(tt::CBIndex::c_1);
    noc_async_read(get_noc_addr(0, in), tile, 2048);
    noc_async_read_barrier();
    noc_semaphore_wait(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem), 1);
#ifndef FAULT_WRITE_BEFORE_RESERVE
    const uint32_t dest = get_write_ptr(tt::CBIndex::c_0);
#else
    const uint32_t dest = get_write_ptr(tt::CBIndex::c_0) + 2048;  // the receiver's second page, never reserved
#endif
    noc_async_write(tile, get_noc_addr(recv_x, recv_y, dest), 2048);
    noc_async_write_barrier();
    noc_semaphore_inc(get_noc_addr(recv_x, recv_y, sem), VALID);  // VALID: the dataflow API brings it
    noc_async_atomic_barrier();
}
