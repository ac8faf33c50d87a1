// Reads this core's tiles of `tensor::src` into `dfb::in` through a CoreLocalMem destination (the DFB's write pointer
// plus an offset, in elements), with a named CTA (constexpr), two named RTAs and a named CRTA. The DFB's format and tile
// size are constant expressions (get_dataformat / get_tile_size read the JIT's descriptors); my_x / my_y give the
// core's NoC coordinates on the kernel's NoC (noc_index). `sem::reads` (a SemaphoreSpec with initial value 5 on both
// cores) counts the tiles read, through the Metal 2.0 token form of Semaphore.
#include <cstdint>
#include "api/core_local_mem.h"
#include "api/dataflow/endpoints.h"
#include "api/debug/assert.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc_semaphore.h"
#include "api/tensor/noc_traits.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    constexpr uint32_t tile_bytes = get_arg(args::tile_bytes);  // a CTA is a constant expression
    static_assert(tile_bytes == 2048, "the named CTA");
    static_assert(get_dataformat(dfb::in) == DataFormat::Float16_b && get_tile_size(dfb::in) == 2048, "descriptors");
    static_assert(noc_index == 1, "a reader's NoC");
    // Wormhole's worker NoC coordinates: logical (0,0) and (1,0) are (1,1) and (2,1).
    ASSERT(my_x[noc_index] == get_absolute_logical_x() + 1 && my_y[noc_index] == 1);
    const uint32_t tiles = get_arg(args::tiles), first = get_arg(args::first);
    const uint32_t halves = get_arg(args::halves);  // a CRTA: each tile in this many reads
    const auto src = TensorAccessor(tensor::src);
    Noc noc;
    DataflowBuffer in(dfb::in);
    Semaphore reads(sem::reads);
    ASSERT(reads.value() == 5);
    for (uint32_t i = 0; i < tiles; ++i) {
        in.reserve_back(1);
        CoreLocalMem<uint16_t> dst(in.get_write_ptr());
        const uint32_t part = tile_bytes / halves;
        for (uint32_t h = 0; h < halves; ++h) {
            noc.async_read(src, dst + h * (part / 2), part, {.page_id = first + i, .offset_bytes = h * part},
                           {.offset_bytes = 0});
        }
        noc.async_read_barrier();
        in.push_back(1);
        reads.up(1);
    }
    ASSERT(reads.value() == 5 + tiles);
}
