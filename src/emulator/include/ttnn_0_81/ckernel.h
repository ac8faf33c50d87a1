// Emulator version of tt-llk's common/inc/ckernel.h (ttnn 0.81.1, wormhole_b0), as far as ttnn's kernels name it:
// `ckernel::load_blocking` (a load that returns once the value has arrived; pad_tile.hpp reads back the last word of
// a tile it padded through an L1 pointer so that the stores are ordered before what follows: the emulator's stores
// are ordered already, so it is the load), the `ckernel::ThreadId` of ckernel_defs.h, and `mailbox_read` and
// `mailbox_write` (the BRISC to TRISC mailbox a sparse matmul's compute kernel reads its batch validity from, its
// readers write): declared, refused where a kernel calls them, as the emulator has no mailbox.
#pragma once

#include <cstdint>
#include <type_traits>

#include "llk_defs.h"

namespace ckernel {

enum ThreadId { BriscThreadId = 0, UnpackThreadId = 1, MathThreadId = 2, PackThreadId = 3 };

template <typename T, typename = std::enable_if_t<std::is_trivially_copyable_v<T>>>
inline T load_blocking(volatile T* ptr) {
    static_assert(sizeof(T) == sizeof(std::uint16_t) || sizeof(T) == sizeof(std::uint32_t),
                  "load_blocking: operand must be 16-bit or 32-bit");
    return *ptr;
}

namespace detail {
template <typename... T>
inline constexpr bool no_mailbox = false;  // dependent: false only where a kernel calls mailbox_read
}  // namespace detail

template <typename Thread>
inline std::uint32_t mailbox_read(Thread) {
    static_assert(detail::no_mailbox<Thread>,
                  "mailbox_read (ckernel.h) is not emulated: the emulator has no BRISC-to-TRISC mailbox");
    return 0;
}

template <typename Thread>
inline void mailbox_write(Thread, std::uint32_t) {
    static_assert(detail::no_mailbox<Thread>,
                  "mailbox_write (ckernel.h) is not emulated: the emulator has no BRISC-to-TRISC mailbox");
}

}  // namespace ckernel
