// Copies this core's tiles from `dfb::in` to `dfb::out` (the tokens as CB indices, template arguments and
// DataflowBuffers), checks the JIT's descriptors at compile time, and ASSERTs its tile count (FAULT_ASSERT: a bound
// the count breaks). A compute kernel's CB interface holds sizes in 16-byte units (cb_addr_shift), DataflowBuffer's
// entry size is bytes; llk_defs.h names ckernel's enums. FAULT_NOT_EMULATED calls an integer SFPU add;
// FAULT_ALIASED checks that `dfb::scratch` shares `dfb::out`'s L1 (alias_with).
#include <cstdint>
#include "api/compute/add_int_sfpu.h"
#include "api/compute/tile_move_copy.h"
#include "api/dataflow/dataflow_buffer.h"
#include "experimental/kernel_args.h"

template <uint32_t cb>
constexpr uint32_t format_of() { return unpack_src_format[cb]; }

void kernel_main() {
    static_assert(format_of<dfb::in>() == 5 && pack_dst_format[dfb::out] == 5, "both DFBs are Float16_b");
    static_assert(unpack_tile_size[dfb::in] == 2048 && !DST_ACCUM_MODE, "bf16 tiles, 16-bit DST");
    static_assert(cb_addr_shift == 4 && ckernel::PoolType::MIN != ckernel::PoolType::MAX, "TRISC units, llk_defs.h");
    const uint32_t tiles = get_arg(args::tiles);
    ASSERT((get_local_cb_interface(dfb::in).fifo_page_size << cb_addr_shift) == 2048);
    ASSERT(get_local_cb_interface(dfb::in).fifo_size == 2 * 2048 / 16);
#ifdef FAULT_ASSERT
    ASSERT(tiles > 2);
#else
    ASSERT(tiles > 0);
#endif
    compute_kernel_hw_startup(dfb::in, dfb::out);
    copy_init(dfb::in);
    DataflowBuffer in(dfb::in), out(dfb::out);
    ASSERT(in.get_entry_size() == 2048 && in.get_total_size_bytes() == 2 * 2048);
#ifdef FAULT_ALIASED  // alias_with: scratch is out's L1 block (its own FIFO, at the same place and size)
    ASSERT(get_local_cb_interface(dfb::scratch).fifo_limit == get_local_cb_interface(dfb::out).fifo_limit);
    ASSERT(get_local_cb_interface(dfb::scratch).fifo_size == get_local_cb_interface(dfb::out).fifo_size);
    ASSERT(get_local_cb_interface(dfb::in).fifo_limit != get_local_cb_interface(dfb::out).fifo_limit);
#endif
#ifdef FAULT_NOT_EMULATED
    add_int_tile<DataFormat::Int32>(0, 1, 0);
#endif
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
