// Writes this core's tiles from `dfb::out`, taken as a CircularBuffer by its index, to `tensor::dst` at page
// `first + page_offset` (page_offset: a named CRTA, one value for every core).
#include <cstdint>
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/noc_traits.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    const uint32_t tiles = get_arg(args::tiles), first = get_arg(args::first);
    const uint32_t page_offset = get_arg(args::page_offset);
    const auto dst = TensorAccessor(tensor::dst);
    Noc noc;
    CircularBuffer out(dfb::out);
    for (uint32_t i = 0; i < tiles; ++i) {
        out.wait_front(1);
        noc.async_write(out, dst, 2048, {}, {.page_id = page_offset + first + i});
        noc.async_writes_flushed();
        out.pop_front(1);
    }
    noc.async_write_barrier();
}
