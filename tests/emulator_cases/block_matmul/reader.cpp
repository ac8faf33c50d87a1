// Reads A (2 x 4 tiles) and B (4 x 2 tiles) in two K blocks of 2 tiles: in0 gets A's 2 x 2 block row by row, in1 B's.
// Tiles lie in L1 at the DRAM-aligned stride (noc_parameters.h's DRAM_ALIGNMENT, as ttnn's matmul readers lay them);
// page ids use mod_div_lib.h's mulsi3 and udivsi3_const_divisor; after each block's barrier the last word read is
// loaded back with ckernel::load_blocking (ttnn's pad_tile.hpp orders its stores that way).
#include <cstdint>

#include "api/dataflow/dataflow_buffer.h"
#include "api/debug/assert.h"
#include "api/tensor/noc_traits.h"
#include "ckernel.h"
#include "experimental/kernel_args.h"
#include "internal/mod_div_lib.h"

void kernel_main() {
    constexpr uint32_t tile = 2048, stride = (tile + DRAM_ALIGNMENT - 1) & ~(DRAM_ALIGNMENT - 1);
    static_assert(DRAM_ALIGNMENT == 32 && L1_ALIGNMENT == 16 && stride == tile, "Wormhole's alignments");
    const auto a = TensorAccessor(tensor::a), b = TensorAccessor(tensor::b);
    Noc noc;
    DataflowBuffer in0(dfb::in0), in1(dfb::in1);
    for (uint32_t block = 0; block < 2; ++block) {
        in0.reserve_back(4);
        in1.reserve_back(4);
        for (uint32_t i = 0; i < 4; ++i) {
            const uint32_t h = udivsi3_const_divisor<2>(i), w = umodsi3_const_divisor<2>(i);
            noc.async_read(a, in0, tile, {.page_id = mulsi3(h, 4) + 2 * block + w}, {.offset_bytes = i * stride});
            noc.async_read(b, in1, tile, {.page_id = mulsi3(2 * block + h, 2) + w}, {.offset_bytes = i * stride});
        }
        noc.async_read_barrier();
        auto* last = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(in1.get_write_ptr() + 4 * tile - 4);
        ASSERT(ckernel::load_blocking(last) == *last);
        in0.push_back(4);
        in1.push_back(4);
    }
}
