// Emulator version of tt-metal's <api/compute/binary_max_min.h> (ttnn 0.81.1): the float maximum and minimum are the
// op map's SFPU calls (specs/ops/eltwise.yaml), rendered into the generated header of the same name, included next;
// the integer forms (binary_{max,min}_{int32,uint32}_tile, which kernel_lib's reduce names for Int32 data) are
// declared with tt-metal's names and refused where a kernel calls them (tt_emu/not_emulated.hpp).
#pragma once

#include_next "api/compute/binary_max_min.h"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(binary_max_int32_tile, "api/compute/binary_max_min.h")
TT_EMU_NOT_EMULATED(binary_max_int32_tile_init, "api/compute/binary_max_min.h")
TT_EMU_NOT_EMULATED(binary_max_uint32_tile, "api/compute/binary_max_min.h")
TT_EMU_NOT_EMULATED(binary_max_uint32_tile_init, "api/compute/binary_max_min.h")
TT_EMU_NOT_EMULATED(binary_min_int32_tile, "api/compute/binary_max_min.h")
TT_EMU_NOT_EMULATED(binary_min_int32_tile_init, "api/compute/binary_max_min.h")
TT_EMU_NOT_EMULATED(binary_min_uint32_tile, "api/compute/binary_max_min.h")
TT_EMU_NOT_EMULATED(binary_min_uint32_tile_init, "api/compute/binary_max_min.h")
