// Compile-time arguments arrive as -DKERNEL_COMPILE_TIME_ARGS=a,b,c (possibly empty), as in tt-metal's JIT. tt-metal's
// api/compile_time_args.h (ttnn 0.65.0, 0.77.0 and 0.81.1 alike) also makes them the array kernel_compile_time_args,
// which kernels index directly (ttnn's pad reader, which tt-metal's pad_multi_core example runs, reads [13] to [17]).
#pragma once

#include <array>
#include <cstdint>

#ifndef KERNEL_COMPILE_TIME_ARGS
#define KERNEL_COMPILE_TIME_ARGS
#endif

namespace tt_emu::ct_args {
template <class... Ts>
constexpr std::array<std::uint32_t, sizeof...(Ts)> make_array(Ts... values) {
    return {static_cast<std::uint32_t>(values)...};
}
}  // namespace tt_emu::ct_args

inline constexpr auto kernel_compile_time_args = tt_emu::ct_args::make_array(KERNEL_COMPILE_TIME_ARGS);
