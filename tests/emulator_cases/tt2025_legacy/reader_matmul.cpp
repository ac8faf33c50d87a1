// Matmul reader (profile tilelang_tt_2025): two TensorAccessors, the second's args after the first's
// (next_compile_time_args_offset), + noc_async_read_tile.
#include <cstdint>

#include "dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Kt = get_arg_val<uint32_t>(3);
    const uint32_t Nt = get_arg_val<uint32_t>(4);
    const uint32_t start = get_arg_val<uint32_t>(5);
    const uint32_t count = get_arg_val<uint32_t>(6);
    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(0));
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(1));
    for (uint32_t t = start; t < start + count; ++t) {
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_reserve_back(0, 1);
            cb_reserve_back(1, 1);
            noc_async_read_tile((t / Nt) * Kt + k, a, get_write_ptr(0));
            noc_async_read_tile(k * Nt + t % Nt, b, get_write_ptr(1));
            noc_async_read_barrier();
            cb_push_back(0, 1);
            cb_push_back(1, 1);
        }
    }
}
