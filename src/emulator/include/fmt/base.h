// tt_emu: {fmt} 11's <fmt/base.h> (fmt::print, fmt::format_to and the core of the format API) is part of the
// emulator's one fmt header (tt-metal's examples include it since fmt 11).
#pragma once

#include "fmt/format.h"
