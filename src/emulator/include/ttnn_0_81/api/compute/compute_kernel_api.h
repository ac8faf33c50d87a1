// Emulator version of tt-metal's <api/compute/compute_kernel_api.h> (ttnn 0.81.1): the calls the intrinsic specs
// place in it are rendered into the generated header of the same name, included next; the SFPU reductions
// (sfpu_reduce_init, sfpu_reduce: kernel_lib's reduce takes them for Int32 data, bf16 MIN and accurate fp32) and the
// unary SFPU calls kernel_lib's eltwise chain names (square, abs, sign, power) are declared with tt-metal's names and
// refused where a kernel calls them (tt_emu/not_emulated.hpp).
#pragma once

#include_next "api/compute/compute_kernel_api.h"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(sfpu_reduce_init, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(sfpu_reduce, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(square_tile_init, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(square_tile, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(abs_tile_init, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(abs_tile, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(abs_tile_int32, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(sign_tile_init, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(sign_tile, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(power_tile_init, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(power_tile, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(power_iterative_tile_init, "api/compute/compute_kernel_api.h")
TT_EMU_NOT_EMULATED(power_iterative_tile, "api/compute/compute_kernel_api.h")
