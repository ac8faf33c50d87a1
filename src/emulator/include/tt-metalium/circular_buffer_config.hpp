// tt_emu: tt-metal's <tt-metalium/circular_buffer_config.hpp>; its declarations are in the emulator's host_api.hpp.
#pragma once

#include "tt-metalium/host_api.hpp"
