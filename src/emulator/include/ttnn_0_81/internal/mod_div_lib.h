// Emulator version of tt-metal's hw/inc/internal/mod_div_lib.h (ttnn 0.81.1): the integer helpers RISC-V kernels use
// where the core has no fast multiply or divide. `mulsi3(a, b)` is the 32-bit product; `udivsi3_const_divisor<d>` and
// `umodsi3_const_divisor<d>` the quotient and remainder by a constant. tt-metal computes some divisors (7, 12, 20, ...,
// 140) by a multiply with a magic number and a shift (its fast_udiv_<d>); the emulator divides. The fast_udiv_<d>
// functions themselves are not declared: a kernel that calls one does not compile, naming it.
#pragma once

#include <cstdint>

inline __attribute__((always_inline)) unsigned int mulsi3(unsigned int a, unsigned int b) { return a * b; }

template <uint32_t d>
inline __attribute__((always_inline)) uint32_t udivsi3_const_divisor(uint32_t n) {
    static_assert(d != 0, "udivsi3_const_divisor: division by zero");
    return n / d;
}

template <uint32_t d>
inline __attribute__((always_inline)) uint32_t umodsi3_const_divisor(uint32_t a) {
    static_assert(d != 0, "umodsi3_const_divisor: division by zero");
    return a % d;
}
