// tt_emu: tt-metal's <tt-metalium/buffer.hpp>; its declarations are in the emulator's host_api.hpp.
#pragma once

#include "tt-metalium/host_api.hpp"
