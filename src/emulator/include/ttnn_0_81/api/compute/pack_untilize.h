// Emulator version of tt-metal's <api/compute/pack_untilize.h> (ttnn 0.81.1): the calls the intrinsic specs place in
// it are rendered into the generated header of the same name, included next. The DST forms, pack_untilize_dest_init
// and pack_untilize_dest (untilize straight from DST; ttnn's matmul compute kernel names them on its untilize_out
// path), are declared with tt-metal's names and refused where a kernel calls them.
#pragma once

#include_next "api/compute/pack_untilize.h"

namespace tt_emu::kapi::detail {
template <typename... T>
inline constexpr bool no_dest_untilize = false;  // dependent: false only where a kernel calls one
}  // namespace tt_emu::kapi::detail

template <auto... tt_emu_flags, typename... TtEmuArgs>
inline void pack_untilize_dest_init(TtEmuArgs...) {
    static_assert(::tt_emu::kapi::detail::no_dest_untilize<TtEmuArgs...>,
                  "pack_untilize_dest_init (api/compute/pack_untilize.h) is not emulated: untilize from DST");
}

template <auto... tt_emu_flags, typename... TtEmuArgs>
inline void pack_untilize_dest(TtEmuArgs...) {
    static_assert(::tt_emu::kapi::detail::no_dest_untilize<TtEmuArgs...>,
                  "pack_untilize_dest (api/compute/pack_untilize.h) is not emulated: untilize from DST");
}
