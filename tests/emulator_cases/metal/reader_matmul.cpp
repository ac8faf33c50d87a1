// Matmul reader (profile metal_d5f9bc4a): for each output tile of this core, the Kt tiles of its A row and
// B column, one tile per CB page (tt-metal's matmul_multi_core reader). FAULT_* blocks seed bugs for tests.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Mt = get_arg_val<uint32_t>(2);
    const uint32_t Kt = get_arg_val<uint32_t>(3);
    const uint32_t Nt = get_arg_val<uint32_t>(4);
    const uint32_t start = get_arg_val<uint32_t>(5);
    const uint32_t count = get_arg_val<uint32_t>(6);
    [[maybe_unused]] const uint32_t core = get_arg_val<uint32_t>(7);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, 2048);
    const auto b = TensorAccessor(b_args, b_addr, 2048);
    constexpr int32_t cb_a = 0;
    constexpr int32_t cb_b = 1;
    (void)Mt;

#ifdef FAULT_PUSH_WITHOUT_RESERVE
    if (core == FAULT_PUSH_WITHOUT_RESERVE) cb_push_back(cb_a, 1);
#endif
#ifdef FAULT_SPIN_WITHOUT_API_CALLS
    if (core == FAULT_SPIN_WITHOUT_API_CALLS) {
        for (volatile uint32_t spin = 0;; spin = spin + 1) {
        }
    }
#endif
#ifdef FAULT_RESERVE_BEYOND_CAPACITY
    if (core == FAULT_RESERVE_BEYOND_CAPACITY) cb_reserve_back(cb_a, 3);
#endif
#ifdef FAULT_WRITE_PTR_OUTSIDE_RESERVATION
    if (core == FAULT_WRITE_PTR_OUTSIDE_RESERVATION) noc_async_read_page(0, a, get_write_ptr(cb_a));
#endif
    for (uint32_t t = start; t < start + count; ++t) {
        const uint32_t row = t / Nt;
        const uint32_t col = t % Nt;
        for (uint32_t k = 0; k < Kt; ++k) {
            uint32_t a_page = row * Kt + k;
#ifdef FAULT_OUT_OF_BOUNDS_PAGE
            if (core == FAULT_OUT_OF_BOUNDS_PAGE) a_page += Mt * Kt;
#endif
            cb_reserve_back(cb_a, 1);
            cb_reserve_back(cb_b, 1);
            uint32_t a_l1 = get_write_ptr(cb_a);
#ifdef FAULT_READ_OUTSIDE_RESERVATION
            if (core == FAULT_READ_OUTSIDE_RESERVATION) a_l1 += 2048;  // the next page is not reserved
#endif
            noc_async_read_page(a_page, a, a_l1);
            noc_async_read_page(k * Nt + col, b, get_write_ptr(cb_b));
#ifdef FAULT_MISSING_READ_BARRIER
            if (core != FAULT_MISSING_READ_BARRIER)
#endif
                noc_async_read_barrier();
            cb_push_back(cb_a, 1);
            cb_push_back(cb_b, 1);
        }
    }
#ifdef FAULT_PENDING_READ_AT_END
    if (core == FAULT_PENDING_READ_AT_END) {
        cb_reserve_back(cb_a, 1);
        noc_async_read_page(0, a, get_write_ptr(cb_a));  // and no barrier before returning
    }
#endif
}
