// tt-metal's LLK API (hw/ckernels/<arch>/metal/llk_api/, tt-llk's llk_lib/) as compute kernels reach it below the
// kernel API: ttnn's kernel_lib names some of its calls in helpers that run only on paths the emulator does not take
// (reduce_helpers_compute.inl's reduce_init_short_with_dt, for a reduction that reloads an accumulator). The emulator
// models the kernel API, not the LLK's unpacker and math-thread halves of it: each call is declared with the LLK's
// name (a template taking the real call's template and function arguments) and, where a kernel calls it, fails to
// compile naming the call and its header. Included by api/compute/common_globals.h.
#pragma once

#include "llk_defs.h"
#include "tt_emu/not_emulated.hpp"

// The LLK headers of a compute build (llk_io_pack.h, chlkc_list.h) bring ckernel's names to the global scope.
using namespace ckernel;

// tt-llk llk_lib/llk_unpack_common.h
enum class p_dim_stride_target { IGNORE, FACE_ROW_MAJOR };

#define TT_EMU_LLK_NOT_EMULATED(name, header)                                                                \
    template <auto... tt_emu_flags, typename... TtEmuArgs>                                                   \
    inline void name(TtEmuArgs...) {                                                                         \
        static_assert(::tt_emu::kapi::detail::not_emulated<TtEmuArgs...>,                                   \
                      #name " (" header ") is an LLK call the emulator does not model (it models the kernel " \
                      "API: call the api/compute function that wraps it)");                                  \
    }

TT_EMU_LLK_NOT_EMULATED(llk_unpack_reconfig_data_format_srca, "llk_api/llk_unpack_common_api.h")
TT_EMU_LLK_NOT_EMULATED(llk_math_reconfig_data_format_srca, "llk_api/llk_math_common_api.h")
TT_EMU_LLK_NOT_EMULATED(llk_unpack_AB_reduce_init, "llk_api/llk_unpack_AB_reduce_api.h")
TT_EMU_LLK_NOT_EMULATED(llk_math_reduce_init, "llk_api/llk_math_reduce_api.h")
TT_EMU_LLK_NOT_EMULATED(llk_pack_reduce_mask_config, "llk_api/llk_pack_api.h")
TT_EMU_LLK_NOT_EMULATED(llk_pack_reduce_mask_clear, "llk_api/llk_pack_api.h")

// The binary FPU init's two halves (llk_api/llk_math_binary_api.h, llk_api/llk_unpack_AB_api.h), which kernel_lib's
// eltwise chain calls for a broadcast operand instead of `{op}_bcast_{dim}_init` (tt-metal's bcast.h is
// state_configure, then these two). The emulator's FPU init configures math and unpacker together: the math half
// makes the init of its operation and broadcast (the broadcast tile call then checks it); the unpacker half, whose
// broadcast the math half has set, adds nothing. An operation or broadcast the emulator has no init for does not
// compile, naming itself.
namespace tt_emu::kapi::detail {
template <ckernel::EltwiseBinaryType et, ckernel::BroadcastType bt>
inline constexpr bool no_binary_init = false;
}  // namespace tt_emu::kapi::detail

template <ckernel::EltwiseBinaryType et, ckernel::BroadcastType bt, ckernel::MathFidelity math_fidelity,
          ckernel::EltwiseBinaryReuseDestType binary_reuse_dest = ckernel::EltwiseBinaryReuseDestType::NONE>
inline void llk_math_eltwise_binary_init(std::uint32_t icb0, std::uint32_t icb1, std::uint32_t acc_to_dest = 0) {
    using E = ckernel::EltwiseBinaryType;
    using B = ckernel::BroadcastType;
    namespace k = ::tt_emu::kapi;
    if constexpr (bt == B::NONE && et == E::ELWADD) k::add_init(icb0, icb1, acc_to_dest != 0);
    else if constexpr (bt == B::NONE && et == E::ELWSUB) k::sub_init(icb0, icb1, acc_to_dest != 0);
    else if constexpr (bt == B::NONE && et == E::ELWMUL) k::mul_init(icb0, icb1);  // its MOP takes no accumulation
    else if constexpr (bt == B::COL && et == E::ELWADD) k::add_bcast_cols_init(icb0, icb1);
    else if constexpr (bt == B::COL && et == E::ELWSUB) k::sub_bcast_cols_init(icb0, icb1);
    else if constexpr (bt == B::COL && et == E::ELWMUL) k::mul_bcast_cols_init(icb0, icb1);
    else if constexpr (bt == B::ROW && et == E::ELWADD) k::add_bcast_rows_init(icb0, icb1);
    else if constexpr (bt == B::ROW && et == E::ELWMUL) k::mul_bcast_rows_init(icb0, icb1);
    else if constexpr (bt == B::SCALAR && et == E::ELWADD) k::add_bcast_scalar_init(icb0, icb1);
    else if constexpr (bt == B::SCALAR && et == E::ELWSUB) k::sub_bcast_scalar_init(icb0, icb1);
    else if constexpr (bt == B::SCALAR && et == E::ELWMUL) k::mul_bcast_scalar_init(icb0, icb1);
    else static_assert(k::detail::no_binary_init<et, bt>, "llk_math_eltwise_binary_init: the emulator has no init "
                                                           "of this operation and broadcast");
    static_assert(binary_reuse_dest == ckernel::EltwiseBinaryReuseDestType::NONE,
                  "llk_math_eltwise_binary_init: DST as an operand (binary_reuse_dest) is not emulated");
    if constexpr (bt != B::NONE) {
        if (acc_to_dest != 0) k::add_init(icb0, icb1, true);  // refused: accumulation is not emulated
    }
}

template <ckernel::BroadcastType bt>
inline void llk_unpack_AB_init(std::uint32_t icb0, std::uint32_t icb1) {
    (void)icb0, (void)icb1;
}
