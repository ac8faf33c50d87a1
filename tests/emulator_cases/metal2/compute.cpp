// Copies this core's tiles from `dfb::in` to `dfb::out` (the tokens as CB indices, template arguments and
// DataflowBuffers), checks the JIT's descriptors at compile time, and ASSERTs its tile count (FAULT_ASSERT: a bound
// the count breaks).
#include <cstdint>
#include "api/compute/tile_move_copy.h"
#include "api/dataflow/dataflow_buffer.h"
#include "experimental/kernel_args.h"

template <uint32_t cb>
constexpr uint32_t format_of() { return unpack_src_format[cb]; }

void kernel_main() {
    static_assert(format_of<dfb::in>() == 5 && pack_dst_format[dfb::out] == 5, "both DFBs are Float16_b");
    static_assert(unpack_tile_size[dfb::in] == 2048 && !DST_ACCUM_MODE, "bf16 tiles, 16-bit DST");
    const uint32_t tiles = get_arg(args::tiles);
#ifdef FAULT_ASSERT
    ASSERT(tiles > 2);
#else
    ASSERT(tiles > 0);
#endif
    compute_kernel_hw_startup(dfb::in, dfb::out);
    copy_init(dfb::in);
    DataflowBuffer in(dfb::in), out(dfb::out);
    for (uint32_t i = 0; i < tiles; ++i) {
        in.wait_front(1);
        tile_regs_acquire();
        copy_tile(dfb::in, 0, 0);
        tile_regs_commit();
        out.reserve_back(1);
        tile_regs_wait();
        pack_tile(0, dfb::out);
        tile_regs_release();
        out.push_back(1);
        in.pop_front(1);
    }
}
