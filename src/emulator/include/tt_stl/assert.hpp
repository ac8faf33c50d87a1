// tt_emu: tt_stl's assertions (tt_stl/assert.hpp) as host programs use them. TT_THROW(fmt, args...) and a failed
// TT_FATAL(condition, fmt, args...) throw std::runtime_error with the formatted message, the condition and the
// place; TT_ASSERT checks only in debug builds (DEBUG defined), as in tt-metal.
#pragma once

#include <stdexcept>
#include <string>

#include "fmt/format.h"

namespace tt::assert {
[[noreturn]] inline void tt_throw(const char* file, int line, const char* condition, const std::string& message) {
    std::string what = std::string("TT_THROW @ ") + file + ":" + std::to_string(line);
    if (condition != nullptr) what += ": " + std::string(condition);
    if (!message.empty()) what += "\ninfo:\n" + message;
    throw std::runtime_error(what);
}
inline std::string message() { return {}; }
template <typename... Args>
std::string message(std::string_view f, const Args&... args) {
    return fmt::format(f, args...);
}
}  // namespace tt::assert

#define TT_THROW(...) ::tt::assert::tt_throw(__FILE__, __LINE__, nullptr, ::tt::assert::message(__VA_ARGS__))
#define TT_FATAL(condition, ...)                                                                              \
    do {                                                                                                      \
        if (!(condition)) [[unlikely]] {                                                                      \
            ::tt::assert::tt_throw(__FILE__, __LINE__, #condition, ::tt::assert::message(__VA_ARGS__));       \
        }                                                                                                     \
    } while (0)
#ifdef DEBUG
#define TT_ASSERT(condition, ...) TT_FATAL(condition, __VA_ARGS__)
#else
#define TT_ASSERT(condition, ...) ((void)sizeof(condition))
#endif
