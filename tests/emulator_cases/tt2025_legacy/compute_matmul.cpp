// Matmul compute (profile tilelang_tt_2025) in the deprecated one-call DST section, as tt-metal's 2025 matmul
// examples write it: acquire_dst, the K loop, then pack and release_dst. FAULT_MATH_AFTER_PACK multiplies once more
// after the pack (on hardware the packer waits for release_dst, so it would pack that product too);
// FAULT_RELEASE_TWICE releases a section it no longer holds.
#include <cstdint>

#include "compute_kernel_api/matmul.h"
#include "compute_kernel_api/tile_move_copy.h"

namespace NAMESPACE {
void MAIN {
    const uint32_t count = get_arg_val<uint32_t>(0);
    const uint32_t Kt = get_arg_val<uint32_t>(1);
    mm_init(0, 1, 16);
    for (uint32_t t = 0; t < count; ++t) {
        acquire_dst();
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_wait_front(0, 1);
            cb_wait_front(1, 1);
            matmul_tiles(0, 1, 0, 0, 0, false);
#ifndef FAULT_MATH_AFTER_PACK
            cb_pop_front(0, 1);
            cb_pop_front(1, 1);
#endif
        }
        cb_reserve_back(16, 1);
        pack_tile(0, 16);
        cb_push_back(16, 1);
#ifdef FAULT_MATH_AFTER_PACK
        matmul_tiles(0, 1, 0, 0, 0, false);
#endif
        release_dst();
#ifdef FAULT_RELEASE_TWICE
        release_dst();
#endif
    }
}
}  // namespace NAMESPACE
