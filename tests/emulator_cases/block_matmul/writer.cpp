// Writes the 2 x 2 output block: DST tile r * 2 + c is C's page r * 2 + c.
#include <cstdint>

#include "api/dataflow/dataflow_buffer.h"
#include "api/tensor/noc_traits.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    const auto c = TensorAccessor(tensor::c);
    Noc noc;
    DataflowBuffer out(dfb::out);
    out.wait_front(4);
    for (uint32_t i = 0; i < 4; ++i) noc.async_write(out, c, 2048, {.offset_bytes = i * 2048}, {.page_id = i});
    noc.async_write_barrier();
    out.pop_front(4);
}
