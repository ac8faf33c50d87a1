// tt_emu: tt-metal's <hostdevcommon/common_values.hpp> (tt_metal/hostdevcommon/api), the values both host and
// kernels see that ttnn's multicast kernels and program factories use: a receiver's flag semaphore is INVALID until
// its sender multicasts VALID.
#pragma once

#include <cstdint>

constexpr static std::uint32_t INVALID = 0;
constexpr static std::uint32_t VALID = 1;
