// Element-wise exp (profile metal_d5f9bc4a): copy a tile to DST, exp in place on the SFPU, pack.
#include <cstdint>

#include "api/compute/binary_max_min.h"
#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    init_sfpu(0, 16);
#ifndef FAULT_MISSING_SFPU_INIT
    exp_tile_init();
#endif
    for (uint32_t t = 0; t < count; ++t) {
        tile_regs_acquire();
        cb_wait_front(0, 1);
        copy_tile(0, 0, 0);
        exp_tile(0);
#ifdef FAULT_SFPU_READS_UNWRITTEN_DST
        binary_max_tile_init();
        binary_max_tile(0, 1, 0);  // DST tile 1: nothing was copied there
#endif
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(16, 1);
        pack_tile(0, 16);
        cb_pop_front(0, 1);
        tile_regs_release();
        cb_push_back(16, 1);
    }
}
