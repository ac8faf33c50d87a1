// The block forms of matmul, copy and pack of ttnn 0.81.1's compute API (api/compute/matmul.h, tile_move_copy.h,
// pack.h), as ttnn's matmul kernels call them. On hardware the LLK's MOP loops issue one tile operation per tile of
// the block; the emulator runs its tile calls in the same order (so they are checked, and reported, as matmul_tiles,
// copy_tile and pack_tile): matmul_block multiplies the rt_dim x kt_dim block of A at `in0_tile_index` (row r's tile
// at in0_tile_index + r * kt_dim) by the kt_dim x ct_dim block of B at `in1_tile_index` (column c's tile at
// in1_tile_index + c) for one step of the inner dimension, accumulating tile (r, c) into DST[idst + r * ct_dim + c]
// (tt-llk's llk_unpack_AB_matmul: A is SrcB, B is SrcA); copy_block unpacks `ntiles` consecutive tiles into
// consecutive DST tiles; pack_block packs `ntiles` DST tiles from `ifrom_dst` to the back of `icb` in order.
// Transposed B tiles are not emulated (matmul_init refuses them). Included by kernel_api_ttnn.hpp.
#pragma once

#include <cstdint>

#include "tt_emu/kernel_api.hpp"

namespace tt_emu::kapi {

inline void matmul_block_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t transpose, uint32_t ct_dim,
                              uint32_t rt_dim, uint32_t kt_dim) {
    (void)ct_dim, (void)rt_dim, (void)kt_dim;  // the MOP's shape: each matmul_block call gives its own
    matmul_init(in0_cb_id, in1_cb_id, transpose);
}

inline void matmul_block(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                         uint32_t idst, uint32_t transpose, uint32_t ct_dim, uint32_t rt_dim, uint32_t kt_dim) {
    for (uint32_t r = 0; r < rt_dim; ++r) {
        for (uint32_t c = 0; c < ct_dim; ++c) {
            matmul_tiles(in0_cb_id, in1_cb_id, in0_tile_index + r * kt_dim, in1_tile_index + c, idst + r * ct_dim + c,
                         transpose);
        }
    }
}

inline void copy_block(uint32_t in_cb_id, uint32_t start_in_tile_index, uint32_t start_dst_tile_index,
                       uint32_t ntiles) {
    for (uint32_t i = 0; i < ntiles; ++i) copy_tile(in_cb_id, start_in_tile_index + i, start_dst_tile_index + i);
}

inline void pack_block(uint32_t ifrom_dst, uint32_t icb, uint32_t ntiles) {
    for (uint32_t i = 0; i < ntiles; ++i) pack_tile(ifrom_dst + i, icb);
}

}  // namespace tt_emu::kapi
