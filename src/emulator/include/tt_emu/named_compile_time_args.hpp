// tt_emu: named compile-time arguments (tt-metal's api/compile_time_args.h). CreateKernel's named_compile_args
// reach the kernel as tt-metal's JIT passes them, -DKERNEL_COMPILE_TIME_ARG_MAP={"name",value},..., and the
// emulator's JIT includes this header for such a kernel: get_named_compile_time_arg_val("name") is the value
// (constexpr). A name the map lacks is a compile error naming named_compile_time_arg_missing in a constant
// expression, a run-time error naming the argument otherwise.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#ifdef KERNEL_COMPILE_TIME_ARG_MAP
namespace tt_emu::kapi::detail {
inline constexpr std::pair<std::string_view, uint32_t> named_compile_time_args[] = {KERNEL_COMPILE_TIME_ARG_MAP};
// Not constexpr on purpose: reaching it in a constant expression is a compile error naming it.
[[noreturn]] void named_compile_time_arg_missing(const char* name, std::size_t length);
}  // namespace tt_emu::kapi::detail

constexpr uint32_t get_named_compile_time_arg_val(std::string_view name) {
    for (const auto& [arg, value] : ::tt_emu::kapi::detail::named_compile_time_args) {
        if (arg == name) return value;
    }
    ::tt_emu::kapi::detail::named_compile_time_arg_missing(name.data(), name.size());
}
#endif
