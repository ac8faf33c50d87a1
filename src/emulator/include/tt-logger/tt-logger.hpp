// tt_emu: tt-logger's logging calls as tt-metal's host programs use them: log_<level>(tt::Log<Type>, fmt, args...)
// writes one line "<Type> | <LEVEL> | <message>" to stderr. Debug and trace lines appear only with
// TT_LOGGER_LEVEL=debug or trace, as in tt-logger.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fmt/format.h"

namespace tt {

enum LogType : int {
    LogAlways, LogTest, LogMetal, LogDevice, LogLLRuntime, LogLoader, LogOp, LogBuildKernels, LogDispatch, LogVerif,
    LogMetalTrace, LogTimer, LogCore, LogSiliconDriver, LogFabric, LogDistributed, LogInspector, LogEmulationDriver,
    LogType_Count
};

namespace logger_detail {  // not tt::detail: examples name tt::tt_metal::detail after using both namespaces
enum class LogLevel : int { trace, debug, info, warning, error, critical, fatal };

inline LogLevel log_threshold() {
    const char* text = std::getenv("TT_LOGGER_LEVEL");
    const std::string level = text ? text : "";
    if (level == "trace" || level == "TRACE") return LogLevel::trace;
    if (level == "debug" || level == "DEBUG") return LogLevel::debug;
    return LogLevel::info;
}

inline const char* log_type_name(LogType type) {
    static const char* const names[] = {"Always", "Test", "Metal", "Device", "LLRuntime", "Loader", "Op",
                                        "BuildKernels", "Dispatch", "Verif", "MetalTrace", "Timer", "Core",
                                        "SiliconDriver", "Fabric", "Distributed", "Inspector", "EmulationDriver"};
    return type >= 0 && type < LogType_Count ? names[type] : "?";
}

template <typename... Args>
void log(LogLevel level, const char* level_name, LogType type, std::string_view f, const Args&... args) {
    if (level < log_threshold()) return;
    const std::string line = std::string(log_type_name(type)) + " | " + level_name + " | " + fmt::format(f, args...);
    std::fprintf(stderr, "%s\n", line.c_str());
}
}  // namespace logger_detail

}  // namespace tt

#define TT_EMU_LOG_LEVEL_(fn, level, name)                                                                 \
    template <typename... Args>                                                                            \
    inline void fn(tt::LogType type, std::string_view f, const Args&... args) {                            \
        tt::logger_detail::log(tt::logger_detail::LogLevel::level, name, type, f, args...);                \
    }                                                                                                      \
    template <typename... Args>                                                                            \
    inline void fn(std::string_view f, const Args&... args) {                                              \
        tt::logger_detail::log(tt::logger_detail::LogLevel::level, name, tt::LogAlways, f, args...);       \
    }

namespace tt {
TT_EMU_LOG_LEVEL_(log_trace, trace, "TRACE")
TT_EMU_LOG_LEVEL_(log_debug, debug, "DEBUG")
TT_EMU_LOG_LEVEL_(log_info, info, "INFO")
TT_EMU_LOG_LEVEL_(log_warning, warning, "WARNING")
TT_EMU_LOG_LEVEL_(log_error, error, "ERROR")
TT_EMU_LOG_LEVEL_(log_critical, critical, "CRITICAL")
TT_EMU_LOG_LEVEL_(log_fatal, fatal, "FATAL")
}  // namespace tt
// tt-metal's programs also call them unqualified, outside namespace tt.
using tt::log_critical;
using tt::log_debug;
using tt::log_error;
using tt::log_fatal;
using tt::log_info;
using tt::log_trace;
using tt::log_warning;
#undef TT_EMU_LOG_LEVEL_
