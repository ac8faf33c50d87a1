// Matmul compute (profile tilelang_tt_2025): legacy entry namespace NAMESPACE { void MAIN }, mm_init.
#include <cstdint>

#include "compute_kernel_api/cb_api.h"
#include "compute_kernel_api/common.h"
#include "compute_kernel_api/matmul.h"
#include "compute_kernel_api/pack.h"
#include "compute_kernel_api/reg_api.h"

namespace NAMESPACE {
void MAIN {
    const uint32_t count = get_arg_val<uint32_t>(0);
    const uint32_t Kt = get_arg_val<uint32_t>(1);
    mm_init(0, 1, 16);
    for (uint32_t t = 0; t < count; ++t) {
        tile_regs_acquire();
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_wait_front(0, 1);
            cb_wait_front(1, 1);
            matmul_tiles(0, 1, 0, 0, 0, 0);
            cb_pop_front(0, 1);
            cb_pop_front(1, 1);
        }
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(16, 1);
        pack_tile(0, 16);
        cb_push_back(16, 1);
        tile_regs_release();
    }
}
}  // namespace NAMESPACE
