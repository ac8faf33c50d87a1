// Emulator version of tt-metal's <api/compute/eltwise_unary/log1p.h> (ttnn 0.81.1): the SFPU log(1 + x) (kernel_lib's
// eltwise chain includes it). Each call is declared with tt-metal's name and refused when a kernel calls it
// (tt_emu/not_emulated.hpp).
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(log1p_tile_init, "api/compute/eltwise_unary/log1p.h")
TT_EMU_NOT_EMULATED(log1p_tile, "api/compute/eltwise_unary/log1p.h")
