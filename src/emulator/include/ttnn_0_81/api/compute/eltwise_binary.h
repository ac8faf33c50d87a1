// Emulator version of tt-metal's <api/compute/eltwise_binary.h> (ttnn 0.81.1): the binary calls the intrinsic specs
// place in it are rendered into the generated header of the same name, included next; the binary ops whose one
// operand is DST (`{add,sub,mul}_reuse_dest_{init,tiles}`, kernel_lib's DestReuseBinary) are declared with tt-metal's
// names and refused where a kernel calls them (tt_emu/not_emulated.hpp).
#pragma once

#include_next "api/compute/eltwise_binary.h"
#include "tt_emu/not_emulated.hpp"

TT_EMU_NOT_EMULATED(binary_reuse_dest_init, "api/compute/eltwise_binary.h")
TT_EMU_NOT_EMULATED(binary_reuse_dest_tiles, "api/compute/eltwise_binary.h")
TT_EMU_NOT_EMULATED(add_reuse_dest_init, "api/compute/eltwise_binary.h")
TT_EMU_NOT_EMULATED(add_reuse_dest_tiles, "api/compute/eltwise_binary.h")
TT_EMU_NOT_EMULATED(sub_reuse_dest_init, "api/compute/eltwise_binary.h")
TT_EMU_NOT_EMULATED(sub_reuse_dest_tiles, "api/compute/eltwise_binary.h")
TT_EMU_NOT_EMULATED(mul_reuse_dest_init, "api/compute/eltwise_binary.h")
TT_EMU_NOT_EMULATED(mul_reuse_dest_tiles, "api/compute/eltwise_binary.h")
