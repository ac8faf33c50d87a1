// Emulator version of tt-metal's <api/compute/mul_int_sfpu.h> (ttnn 0.81.1): the emulator has none
// of its operations; each call is declared with tt-metal's name and refused when a kernel calls it
// (tt_emu/not_emulated.hpp).
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(mul_int_tile, "api/compute/mul_int_sfpu.h")
TT_EMU_NOT_EMULATED(mul_int_tile_init, "api/compute/mul_int_sfpu.h")
