// Copies the first page of each c_0 block into the first page of a c_16 block, pushes the whole output block and pops
// the whole input block after waiting for its first page (MODE_READ_TAIL: waits for both and copies the second).
#include "api/compute/compute_kernel_api.h"
#include "api/compute/tile_move_copy.h"
#include "api/dataflow/dataflow_buffer.h"

void kernel_main() {
    const uint32_t tiles = get_arg_val<uint32_t>(0);
    DataflowBuffer in(tt::CBIndex::c_0), out(tt::CBIndex::c_16);
    compute_kernel_hw_startup(in.get_id(), out.get_id());
    copy_init(in.get_id());
#ifdef MODE_READ_TAIL
    constexpr uint32_t page = 1;
#else
    constexpr uint32_t page = 0;
#endif
    for (uint32_t i = 0; i < tiles; ++i) {
        in.wait_front(page + 1);
        out.reserve_back(2);
        tile_regs_acquire();
        copy_tile(in.get_id(), page, 0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, out.get_id());
        tile_regs_release();
        in.pop_front(2);
        out.push_back(2);
    }
}
