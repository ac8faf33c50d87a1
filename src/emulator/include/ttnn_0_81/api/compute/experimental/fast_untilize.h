// Emulator version of tt-metal's <api/compute/experimental/fast_untilize.h> (ttnn 0.81.1): Blackhole's fast untilize
// (ttnn's kernel_lib untilize picks it only under ARCH_BLACKHOLE; the emulator is a Wormhole). Its calls are declared
// with tt-metal's names, so kernel_lib's untilize compiles, and a kernel that calls one does not compile, naming it.
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

#define TT_EMU_BLACKHOLE_ONLY(name)                                                                          \
    template <auto... tt_emu_flags, typename... TtEmuArgs>                                                   \
    inline void name(TtEmuArgs...) {                                                                         \
        static_assert(::tt_emu::kapi::detail::not_emulated<TtEmuArgs...>,                                   \
                      #name " (api/compute/experimental/fast_untilize.h) is Blackhole's; the emulator is a "  \
                      "Wormhole");                                                                           \
    }

TT_EMU_BLACKHOLE_ONLY(fast_untilize_init)
TT_EMU_BLACKHOLE_ONLY(fast_untilize_init_skip_remap)
TT_EMU_BLACKHOLE_ONLY(fast_untilize_block)
TT_EMU_BLACKHOLE_ONLY(fast_untilize_uninit)

#undef TT_EMU_BLACKHOLE_ONLY
