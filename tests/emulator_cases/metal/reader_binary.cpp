// Element-wise reader, two inputs (profile metal_d5f9bc4a): tiles [start, start + count) of A and B.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t start = get_arg_val<uint32_t>(2);
    const uint32_t count = get_arg_val<uint32_t>(3);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, 2048);
    const auto b = TensorAccessor(b_args, b_addr, 2048);
    for (uint32_t t = start; t < start + count; ++t) {
        cb_reserve_back(0, 1);
        cb_reserve_back(1, 1);
        noc_async_read_page(t, a, get_write_ptr(0));
        noc_async_read_page(t, b, get_write_ptr(1));
        noc_async_read_barrier();
        cb_push_back(0, 1);
        cb_push_back(1, 1);
    }
}
