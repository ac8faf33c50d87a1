// Emulator version of tt-metal's <api/compute/eltwise_unary/negative.h> (ttnn 0.81.1): the SFPU negation (kernel_lib's
// eltwise chain includes it). Each call is declared with tt-metal's name and refused when a kernel calls it
// (tt_emu/not_emulated.hpp).
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(negative_tile_init, "api/compute/eltwise_unary/negative.h")
TT_EMU_NOT_EMULATED(negative_tile, "api/compute/eltwise_unary/negative.h")
TT_EMU_NOT_EMULATED(negative_tile_int32, "api/compute/eltwise_unary/negative.h")
