// C = A x B on a 2 x 2 output block (rt_dim 2, ct_dim 2) in two K blocks of kt_dim 2: per block, matmul_block for
// each inner step (in0 tile k of row 0, stride kt_dim to row 1; in1 tile 2k, columns next to it); the first block's
// sums go to `partial` (pack_block), the second reloads them (copy_block) before its own steps and packs to `out`.
#include <cstdint>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"
#include "api/compute/pack_untilize.h"
#include "api/compute/tile_move_copy.h"
#include "api/dataflow/dataflow_buffer.h"

void kernel_main() {
    constexpr uint32_t rt = 2, ct = 2, kt = 2;
#ifdef FAULT_TRANSPOSE
    constexpr uint32_t transpose = 1;
#else
    constexpr uint32_t transpose = 0;
#endif
    DataflowBuffer in0(dfb::in0), in1(dfb::in1), partial(dfb::partial), out(dfb::out);
    compute_kernel_hw_startup<SrcOrder::Reverse>(dfb::in0, dfb::in1, dfb::partial);
    matmul_block_init(dfb::in0, dfb::in1, transpose, ct, rt, kt);
#ifdef FAULT_MAILBOX
    (void)mailbox_read(ckernel::ThreadId::BriscThreadId);
#endif
#ifdef FAULT_UNTILIZE_DEST
    pack_untilize_dest_init<ct, ct>(dfb::out);
#endif
    for (uint32_t block = 0; block < 2; ++block) {
        in0.wait_front(rt * kt);
        in1.wait_front(kt * ct);
        tile_regs_acquire();
        if (block > 0) {
            copy_init(dfb::partial);
            partial.wait_front(rt * ct);
            copy_block(dfb::partial, 0, 0, rt * ct);
            partial.pop_front(rt * ct);
            matmul_block_init(dfb::in0, dfb::in1, transpose, ct, rt, kt);
        }
        for (uint32_t k = 0; k < kt; ++k) matmul_block(dfb::in0, dfb::in1, k, k * ct, 0, transpose, ct, rt, kt);
        tile_regs_commit();
        DataflowBuffer& target = block + 1 < 2 ? partial : out;
        target.reserve_back(rt * ct);
        tile_regs_wait();
        pack_block(0, block + 1 < 2 ? uint32_t(dfb::partial) : uint32_t(dfb::out), rt * ct);
        tile_regs_release();
        target.push_back(rt * ct);
        in0.pop_front(rt * kt);
        in1.pop_front(kt * ct);
    }
}
