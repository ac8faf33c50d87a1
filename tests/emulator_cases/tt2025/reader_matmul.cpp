// Matmul reader (profile tilelang_tt_2025): InterleavedAddrGenFast + noc_async_read_tile.
#include <cstdint>

#include "dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Kt = get_arg_val<uint32_t>(3);
    const uint32_t Nt = get_arg_val<uint32_t>(4);
    const uint32_t start = get_arg_val<uint32_t>(5);
    const uint32_t count = get_arg_val<uint32_t>(6);
    constexpr int32_t cb_a = 0;
    constexpr int32_t cb_b = 1;
    const uint32_t a_format = get_dataformat(cb_a);
    const auto a = InterleavedAddrGenFast<true>{a_addr, 2048, a_format};
    const auto b = InterleavedAddrGenFast<true>{b_addr, 2048, get_dataformat(cb_b)};
    for (uint32_t t = start; t < start + count; ++t) {
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_reserve_back(cb_a, 1);
            cb_reserve_back(cb_b, 1);
            noc_async_read_tile((t / Nt) * Kt + k, a, get_write_ptr(cb_a));
            noc_async_read_tile(k * Nt + t % Nt, b, get_write_ptr(cb_b));
            noc_async_read_barrier();
            cb_push_back(cb_a, 1);
            cb_push_back(cb_b, 1);
        }
    }
}
