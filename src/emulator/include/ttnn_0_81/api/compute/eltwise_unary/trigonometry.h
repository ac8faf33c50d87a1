// Emulator version of tt-metal's <api/compute/eltwise_unary/trigonometry.h> (ttnn 0.81.1): the emulator has none
// of its operations; each call is declared with tt-metal's name and refused when a kernel calls it
// (tt_emu/not_emulated.hpp).
#pragma once

#include "tt_emu/kernel_api.hpp"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(sin_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(sin_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(cos_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(cos_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(acosh_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(acosh_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(tan_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(tan_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(asinh_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(asinh_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(atanh_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(atanh_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(asin_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(asin_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(atan_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(atan_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(acos_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(acos_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(cosh_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(cosh_tile, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(sinh_tile_init, "api/compute/eltwise_unary/trigonometry.h")
TT_EMU_NOT_EMULATED(sinh_tile, "api/compute/eltwise_unary/trigonometry.h")
