// tt_emu: tt-metal's <tt-metalium/mesh_coord.hpp>; its declarations are in the emulator's distributed.hpp.
#pragma once

#include "tt-metalium/distributed.hpp"
