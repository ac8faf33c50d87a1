// Writer with the Device 2.0 dataflow objects of ttnn 0.77.0 (profile metal_d5f9bc4a): output tiles
// [start, start + count) from a CircularBuffer to C's TensorAccessor pages by Noc::async_write. The transfer size is
// read from kernel_compile_time_args, the array tt-metal's compile_time_args.h makes of the compile-time arguments
// (here C's TensorAccessorArgs: its config, then its aligned page size), as ttnn's pad reader indexes it.
#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t start = get_arg_val<uint32_t>(1);
    const uint32_t count = get_arg_val<uint32_t>(2);
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr);
    static_assert(kernel_compile_time_args.size() == 2, "C's TensorAccessorArgs: config and page size");
    constexpr uint32_t page_size = kernel_compile_time_args[1];
    Noc noc;
    CircularBuffer cb_out(tt::CBIndex::c_16);
    for (uint32_t t = start; t < start + count; ++t) {
        cb_out.wait_front(1);
        noc.async_write(cb_out, c, page_size, {}, {.page_id = t});
        noc.async_write_barrier();
        cb_out.pop_front(1);
    }
}
