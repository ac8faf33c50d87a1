// Element-wise reader, two inputs, with the Device 2.0 dataflow objects as ttnn 0.77.0 ships them (profile
// metal_d5f9bc4a; tt-metal's eltwise_fpu_chain example reads so): a Noc transfer from a TensorAccessor page into a
// CircularBuffer, tiles [start, start + count) of A and B.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t start = get_arg_val<uint32_t>(2);
    const uint32_t count = get_arg_val<uint32_t>(3);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr);
    const auto b = TensorAccessor(b_args, b_addr);
    Noc noc;
    CircularBuffer cb_a(tt::CBIndex::c_0);
    CircularBuffer cb_b(tt::CBIndex::c_1);
    for (uint32_t t = start; t < start + count; ++t) {
        cb_a.reserve_back(1);
        cb_b.reserve_back(1);
        noc.async_read(a, cb_a, 2048, {.page_id = t}, {.offset_bytes = 0});
        noc.async_read(b, cb_b, 2048, {.page_id = t}, {.offset_bytes = 0});
        noc.async_read_barrier();
        cb_a.push_back(1);
        cb_b.push_back(1);
    }
}
