// Element-wise reader, one input (profile metal_d5f9bc4a): tiles [start, start + count) of A.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t start = get_arg_val<uint32_t>(1);
    const uint32_t count = get_arg_val<uint32_t>(2);
    constexpr auto a_args = TensorAccessorArgs<0>();
    const auto a = TensorAccessor(a_args, a_addr, 2048);
    for (uint32_t t = start; t < start + count; ++t) {
        cb_reserve_back(0, 1);
        // The raw NoC-address form (not in the intrinsic specs, hence tt_emu::kapi): page t via get_noc_addr.
        ::tt_emu::kapi::noc_async_read(a.get_noc_addr(t), get_write_ptr(0), 2048);
        noc_async_read_barrier();
        cb_push_back(0, 1);
    }
}
