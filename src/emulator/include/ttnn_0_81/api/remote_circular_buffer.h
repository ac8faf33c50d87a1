// Emulator version of tt-metal's <api/remote_circular_buffer.h> (ttnn 0.81.1): the global (remote) circular buffers
// of ttnn's prefetcher (ENABLE_GLOBAL_CB in the matmul readers) are not emulated; their calls are declared and
// refused where a kernel calls them, so that a kernel including the header for another path compiles.
#pragma once

#include <cstdint>

namespace experimental {
namespace tt_emu_detail {
template <typename... T>
inline constexpr bool no_remote_cb = false;  // dependent: false only where a kernel calls one
}  // namespace tt_emu_detail

template <typename... Args>
inline void remote_cb_wait_front(Args...) {
    static_assert(tt_emu_detail::no_remote_cb<Args...>, "remote_cb_wait_front (remote_circular_buffer.h) is not "
                                                        "emulated: the emulator has no global circular buffers");
}
template <typename... Args>
inline void remote_cb_pop_front(Args...) {
    static_assert(tt_emu_detail::no_remote_cb<Args...>, "remote_cb_pop_front (remote_circular_buffer.h) is not "
                                                        "emulated: the emulator has no global circular buffers");
}
template <typename... Args>
inline void update_remote_cb_config_in_l1(Args...) {
    static_assert(tt_emu_detail::no_remote_cb<Args...>, "update_remote_cb_config_in_l1 (remote_circular_buffer.h) "
                                                        "is not emulated: the emulator has no global circular buffers");
}
}  // namespace experimental
