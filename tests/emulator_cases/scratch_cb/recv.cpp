// Receiver of send.cpp on core (0,1): reserves its c_0 page, tells the sender (core (0,0)) on its semaphore, waits
// for the sender's increment of its own semaphore and pushes the page the sender's unicast write filled.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t send_x = get_arg_val<uint32_t>(0);
    const uint32_t send_y = get_arg_val<uint32_t>(1);
    const uint32_t sem = get_semaphore(get_arg_val<uint32_t>(2));
    cb_reserve_back(tt::CBIndex::c_0, 1);
    noc_semaphore_inc(get_noc_addr(send_x, send_y, sem), 1);
    noc_async_atomic_barrier();
    noc_semaphore_wait(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem), VALID);
    cb_push_back(tt::CBIndex::c_0, 1);
}
