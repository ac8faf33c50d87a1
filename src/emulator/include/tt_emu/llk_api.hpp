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
