// Compute calls of ttnn 0.81.1's kernel API beyond the generated kernels' subset: binary_tiles_init<full_init,
// EltwiseBinaryType> (a template: rendered headers bring it in with `using`), the init that ttnn's eltwise binary
// kernel calls with the op type its program factory defines (ELTWISE_OP_TYPE), and the conditional `(old, new)`
// data-format reconfigurations. Included by kernel_api.hpp.
#pragma once

#include <cstdint>

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/kernel_api_addrgen.hpp"  // InterleavedAddrGen<true>, get_noc_addr(id, addrgen)
#include "tt_emu/kernel_api_dm.hpp"  // FORCE_INLINE, noc_index, my_x/my_y

namespace tt_emu::ktypes {
// tt-llk's llk_defs.h (wormhole_b0 and blackhole): the FPU's element-wise operations.
enum class EltwiseBinaryType : std::uint8_t { ELWMUL, ELWDIV, ELWADD, ELWSUB, ELWLESS };
}  // namespace tt_emu::ktypes

namespace tt_emu::kapi {
// A word of a waited CB page, as the compute kernel reads it (api/compute/cb_api.h, ttnn 0.77 and 0.81).
uint32_t read_tile_value(uint32_t cb_id, uint32_t tile_index, uint32_t element_offset);

// The conditional reconfigurations of ttnn 0.81.1's api/compute/reconfig_data_format.h: SrcA (the packer) takes the
// new CB's format only when it differs from the old CB's; equal formats leave the configuration as it is.
void reconfig_data_format_srca(uint32_t old_srca_cb, uint32_t srca_cb);
void pack_reconfig_data_format(uint32_t old_ocb, uint32_t ocb);

// The FPU binary init of api/compute/eltwise_binary.h; `full_init` also configures the unpacker (the emulator's
// inits always do). ELWDIV and ELWLESS have no emulated tile call: they do not compile.
template <bool full_init, ktypes::EltwiseBinaryType eltwise_binary_type>
void binary_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t call_line = __builtin_LINE()) {
    using T = ktypes::EltwiseBinaryType;
    static_assert(eltwise_binary_type == T::ELWADD || eltwise_binary_type == T::ELWSUB ||
                      eltwise_binary_type == T::ELWMUL,
                  "binary_tiles_init: only ELWADD, ELWSUB and ELWMUL are emulated");
    (void)call_line;
    if constexpr (eltwise_binary_type == T::ELWADD) add_init(icb0, icb1, acc_to_dest);
    if constexpr (eltwise_binary_type == T::ELWSUB) sub_init(icb0, icb1, acc_to_dest);
    if constexpr (eltwise_binary_type == T::ELWMUL) mul_init(icb0, icb1);
}

// ttnn 0.81.1's fast tilize (api/compute/tilize.h): on Wormhole the unpacker's fast mode makes the tiles tilize makes,
// so the emulator's are its tilize calls (reported by those names).
inline void fast_tilize_init(uint32_t icb, uint32_t full_dim, uint32_t ocb) { tilize_init(icb, full_dim, ocb); }
inline void fast_tilize_block(uint32_t icb, uint32_t block, uint32_t ocb) { tilize_block(icb, block, ocb); }
inline void fast_tilize_uninit(uint32_t icb, uint32_t ocb, uint32_t) { tilize_uninit(icb, ocb); }

namespace detail {
// A kernel's ASSERT (api/debug/assert.h) that does not hold: a report naming the condition and where it is.
[[noreturn]] void kernel_assert_failed(const char* condition, const char* file, int line);
}  // namespace detail

// The SFPU selection of api/compute/eltwise_unary/where.h (kapi_select.cpp): DST[odst] = DST[idst1] where
// DST[idst0] is not zero, else DST[idst2]; ttnn 0.77+ name the DST format as a template argument, ttnn 0.65 as
// where_fp32_tile / where_int32_tile. Float32 and Int32 (32-bit DST) are emulated.
namespace detail {
void where(uint32_t format, uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst);
}  // namespace detail
void where_tile_init();
template <uint32_t format>
void where_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    detail::where(format, idst0, idst1, idst2, odst);
}
void where_fp32_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst);
void where_int32_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst);

// Int32 SFPU calls (kapi_int32.cpp): fill_tile_int of eltwise_unary/fill.h (ttnn 0.77+ name the format as a template
// argument, ttnn 0.65 fills Int32 bits without one) and the SFPU reduction of compute_kernel_api.h (ttnn 0.77+; the
// signed row maximum of Int32 tiles is emulated). The trailing template flag (fp32 accumulation) is ignored.
namespace detail {
void fill_int(uint32_t format, uint32_t idst, uint32_t bits);
void sfpu_reduce_init(ktypes::PoolType pool, uint32_t format);
void sfpu_reduce(ktypes::PoolType pool, uint32_t format, ktypes::ReduceDim dim, uint32_t idst, uint32_t ct_dim,
                 uint32_t rt_dim);
}  // namespace detail
template <uint32_t format>
void fill_tile_int(uint32_t idst, uint32_t bits) {
    detail::fill_int(format, idst, bits);
}
void fill_tile_int(uint32_t idst, uint32_t bits);
template <ktypes::PoolType pool, uint32_t format, bool flag = false>
void sfpu_reduce_init() {
    detail::sfpu_reduce_init(pool, format);
}
template <ktypes::PoolType pool, uint32_t format, ktypes::ReduceDim dim = ktypes::ReduceDim::REDUCE_COL,
          bool flag = false>
void sfpu_reduce(uint32_t idst, uint32_t ct_dim = 1, uint32_t rt_dim = 1) {
    detail::sfpu_reduce(pool, format, dim, idst, ct_dim, rt_dim);
}

}  // namespace tt_emu::kapi

using ::tt_emu::ktypes::EltwiseBinaryType;

#include "tt_emu/kernel_api_block.hpp"  // matmul_block, copy_block, pack_block
