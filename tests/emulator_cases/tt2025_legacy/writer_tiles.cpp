// Writer (profile tilelang_tt_2025): output tiles from CB 16 through a TensorAccessor (ttnn 0.65.0's dataflow_api.h
// includes accessor/tensor_accessor.h; tt-metal's 2025 matmul examples write so), its args the compile-time arguments.
#include <cstdint>

#include "dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t start = get_arg_val<uint32_t>(1);
    const uint32_t count = get_arg_val<uint32_t>(2);
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, get_tile_size(16));
    for (uint32_t t = start; t < start + count; ++t) {
        cb_wait_front(16, 1);
        noc_async_write_tile(t, c, get_read_ptr(16));
        noc_async_write_barrier();
        cb_pop_front(16, 1);
    }
}
