// Matmul compute (profile metal_d5f9bc4a): one output tile at a time, the K loop accumulating in DST[0].
#include <cstdint>

#include "api/compute/cb_api.h"
#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/matmul.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"

#ifdef FAULT_COMPILE_ERROR
this line is not C++;
#endif

void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    const uint32_t Kt = get_arg_val<uint32_t>(1);
    [[maybe_unused]] const uint32_t core = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_a = 0, cb_b = 1, cb_out = 16;
    uint32_t dst = 0;
#ifdef FAULT_DST_INDEX_BEYOND_CAPACITY
    if (core == FAULT_DST_INDEX_BEYOND_CAPACITY) dst = 8;
#endif

#ifdef FAULT_MISSING_HW_STARTUP
    if (core != FAULT_MISSING_HW_STARTUP)
#endif
        compute_kernel_hw_startup<SrcOrder::Reverse>(cb_a, cb_b, cb_out);
#ifdef FAULT_MISSING_MATMUL_INIT
    if (core != FAULT_MISSING_MATMUL_INIT)
#endif
        matmul_init(cb_a, cb_b);
    for (uint32_t t = 0; t < count; ++t) {
#ifdef FAULT_MATH_WITHOUT_ACQUIRE
        if (core != FAULT_MATH_WITHOUT_ACQUIRE)
#endif
            tile_regs_acquire();
#ifdef FAULT_ACQUIRE_TWICE
        if (core == FAULT_ACQUIRE_TWICE) tile_regs_acquire();
#endif
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_wait_front(cb_a, 1);
            cb_wait_front(cb_b, 1);
            uint32_t a_tile = 0;
#ifdef FAULT_OPERAND_NOT_WAITED
            if (core == FAULT_OPERAND_NOT_WAITED) a_tile = 1;  // only 1 page of CB 0 is waited
#endif
            matmul_tiles(cb_a, cb_b, a_tile, 0, dst);
#ifdef FAULT_POP_MORE_THAN_WAITED
            if (core == FAULT_POP_MORE_THAN_WAITED) cb_pop_front(cb_a, 2);
#endif
            cb_pop_front(cb_a, 1);
            cb_pop_front(cb_b, 1);
        }
        tile_regs_commit();
#ifdef FAULT_PACK_BEFORE_WAIT
        if (core != FAULT_PACK_BEFORE_WAIT)
#endif
            tile_regs_wait();
        cb_reserve_back(cb_out, 1);
#ifdef FAULT_PACK_UNWRITTEN_DST
        if (core == FAULT_PACK_UNWRITTEN_DST) dst = 1;  // the matmuls above accumulated into DST tile 0
#endif
        pack_tile(dst, cb_out);
        cb_push_back(cb_out, 1);
        tile_regs_release();
    }
}
