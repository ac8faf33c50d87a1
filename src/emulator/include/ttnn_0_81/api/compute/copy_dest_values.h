// Emulator version of tt-metal's <api/compute/copy_dest_values.h> (ttnn 0.81.1): the SFPU copy between DST tiles
// (kernel_lib's eltwise chain includes it). Each call is declared with tt-metal's name and refused when a kernel calls
// it (tt_emu/not_emulated.hpp).
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(copy_dest_values_init, "api/compute/copy_dest_values.h")
TT_EMU_NOT_EMULATED(copy_dest_values, "api/compute/copy_dest_values.h")
