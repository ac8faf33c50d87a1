// Calls of tt-metal's kernel API whose header the emulator mirrors (so that kernels including it, as ttnn's
// eltwise_sfpu.cpp includes trigonometry.h, mul_int_sfpu.h, rpow.h and rdiv.h whatever its op, compile) but whose
// operations it does not have: each is a template that accepts the real call's template and function arguments and,
// when a kernel calls it, fails to compile with a static_assert naming the call and its header. Nothing runs.
#pragma once

namespace tt_emu::kapi::detail {
template <typename... T>
inline constexpr bool not_emulated = false;  // dependent: false only where a kernel calls the function
}  // namespace tt_emu::kapi::detail

#define TT_EMU_NOT_EMULATED(name, header)                                                                    \
    template <auto... tt_emu_flags, typename... TtEmuArgs>                                                   \
    inline void name(TtEmuArgs...) {                                                                         \
        static_assert(::tt_emu::kapi::detail::not_emulated<TtEmuArgs...>,                                   \
                      #name " (" header ") is not emulated: the emulator has no such SFPU operation");       \
    }
