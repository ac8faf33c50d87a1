// Emulator version of tt-metal's <api/compute/pack.h> (ttnn 0.81.1): the pack calls the intrinsic specs place in it
// are rendered into the generated header of the same name, included next (pack_reconfig_l1_acc among them); the
// packer's ReLU (pack_relu_config), which kernel_lib's eltwise chain names, is declared with tt-metal's name and
// refused where a kernel calls it (tt_emu/not_emulated.hpp).
#pragma once

#include_next "api/compute/pack.h"
#include "api/compute/common_globals.h"  // as tt-metal's pack.h: MATH / PACK / UNPACK, ALWI, ckernel.h
#include "llk_defs.h"  // ReluConfig
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(pack_relu_config, "api/compute/pack.h")
