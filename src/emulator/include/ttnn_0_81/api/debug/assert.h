// Emulator version of tt-metal's <api/debug/assert.h> (ttnn 0.81.1): ASSERT(condition[, type]) in a kernel. tt-metal
// checks it when its watcher is enabled; the emulator always checks it, and a false condition is a report naming
// it, the file and the line.
#pragma once

#include "tt_emu/kernel_api.hpp"

#ifndef ASSERT
#define ASSERT(condition, ...) \
    ((condition) ? (void)0 : ::tt_emu::kapi::detail::kernel_assert_failed(#condition, __FILE__, __LINE__))
#endif
