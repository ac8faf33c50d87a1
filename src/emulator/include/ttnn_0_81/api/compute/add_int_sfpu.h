// Emulator version of tt-metal's <api/compute/add_int_sfpu.h> (ttnn 0.81.1): the emulator has none of its operations
// (integer SFPU adds; kernel_lib's reduce takes them only for Int32 data); each call is declared with tt-metal's name
// and refused when a kernel calls it (tt_emu/not_emulated.hpp).
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(add_int_tile, "api/compute/add_int_sfpu.h")
TT_EMU_NOT_EMULATED(add_int_tile_init, "api/compute/add_int_sfpu.h")
