// Copies the received tile of c_0 to c_16 through DST, initialised with copy_tile_to_dst_init_short (0.65.0's name of
// copy_tile_init, which tt-metal's matmul example bmm_large_block_zm.cpp calls).
#include <cstdint>

#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    compute_kernel_hw_startup(tt::CBIndex::c_0, tt::CBIndex::c_16);
    copy_tile_to_dst_init_short(tt::CBIndex::c_0);
    cb_wait_front(tt::CBIndex::c_0, 1);
    tile_regs_acquire();
    copy_tile(tt::CBIndex::c_0, 0, 0);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(tt::CBIndex::c_16, 1);
    pack_tile(0, tt::CBIndex::c_16);
    cb_push_back(tt::CBIndex::c_16, 1);
    cb_pop_front(tt::CBIndex::c_0, 1);
    tile_regs_release();
}
