// Element-wise add (profile metal_d5f9bc4a): C = A + B tile by tile (tt-metal's eltwise_binary example).
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    binary_op_init_common(0, 1, 16);
    add_tiles_init(0, 1);
    for (uint32_t t = 0; t < count; ++t) {
        cb_wait_front(0, 1);
        cb_wait_front(1, 1);
        tile_regs_acquire();
        add_tiles(0, 1, 0, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(16, 1);
        pack_tile(0, 16);
        cb_push_back(16, 1);
        cb_pop_front(0, 1);
        cb_pop_front(1, 1);
        tile_regs_release();
    }
}
