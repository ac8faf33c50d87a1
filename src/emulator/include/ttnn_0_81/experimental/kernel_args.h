// Emulator version of tt-metal's <experimental/kernel_args.h> (ttnn 0.81.1): the Metal 2.0 named kernel arguments.
// A kernel created from a ProgramSpec (MakeProgramFromSpec) gets `kernel_args_generated.h` included before it, whose
// `args::` constants are RtaArg<uint32_t> (byte offset into the kernel's runtime arguments), CrtaArg<uint32_t> (into
// its common runtime arguments) or CtaVal<uint32_t> (the compile-time value itself); `get_arg(args::name)` reads
// each, and is a constant expression for a CTA, as in the real header.
#pragma once

#include <cstdint>

#include "tt_emu/kernel_api.hpp"

#ifndef TT_KERNEL
#define TT_KERNEL static inline
#endif

namespace experimental {

template <typename T>
struct RtaArg {
    uint32_t byte_offset;
};

template <typename T>
struct CrtaArg {
    uint32_t byte_offset;
};

template <typename T>
struct CtaVal {
    T value;
};

template <typename T>
inline T get_arg(RtaArg<T> arg) {
    static_assert(sizeof(T) == 4, "Only uint32_t args are currently supported.");
    return ::tt_emu::kapi::get_arg_val<T>(static_cast<int>(arg.byte_offset / sizeof(uint32_t)));
}

template <typename T>
inline T get_arg(CrtaArg<T> arg) {
    static_assert(sizeof(T) == 4, "Only uint32_t args are currently supported.");
    return ::tt_emu::kapi::get_common_arg_val<T>(static_cast<int>(arg.byte_offset / sizeof(uint32_t)));
}

template <typename T>
constexpr T get_arg(CtaVal<T> arg) {
    return arg.value;
}

}  // namespace experimental
