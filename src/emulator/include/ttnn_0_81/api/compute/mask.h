// Emulator version of tt-metal's <api/compute/mask.h> (ttnn 0.81.1): the SFPU masks (kernel_lib's eltwise chain
// includes it; softmax's padded-data path calls them). Each call is declared with tt-metal's name and refused when a
// kernel calls it (tt_emu/not_emulated.hpp).
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(mask_tile_init, "api/compute/mask.h")
TT_EMU_NOT_EMULATED(mask_tile, "api/compute/mask.h")
TT_EMU_NOT_EMULATED(mask_posinf_tile, "api/compute/mask.h")
