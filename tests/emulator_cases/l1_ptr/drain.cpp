// Reads CB c_0's page through get_read_ptr's address, sets its semaphore and reads it back through the pointer
// get_semaphore gives, stores it into word 0 (word 510: the L1 buffer's word at runtime argument 3, which the fill
// kernel stored before its push; word 511: the sum of the low halves of words 3..509), and writes the page to DRAM
// page <core id>.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t id = get_arg_val<uint32_t>(0);
    const uint32_t out = get_arg_val<uint32_t>(1);
    auto* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(get_arg_val<uint32_t>(2)));
    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto accessor = TensorAccessor(out_args, out, 2048);
    cb_wait_front(tt::CBIndex::c_0, 1);
    auto* page = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_read_ptr(tt::CBIndex::c_0));
    uint32_t sum = 0;
    for (uint32_t i = 3; i < 510; ++i) sum += page[i] & 0xffffu;
    noc_semaphore_set(sem, 40 + id);
    page[0] = *sem;
    page[510] = *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_arg_val<uint32_t>(3));
    page[511] = sum;
    noc_async_write_page(id, accessor, get_read_ptr(tt::CBIndex::c_0));
    noc_async_write_barrier();
    cb_pop_front(tt::CBIndex::c_0, 1);
}
