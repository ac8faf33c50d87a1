// Emulator version of tt-metal's <api/compute/eltwise_binary.h> (ttnn 0.81.1): the binary calls the intrinsic specs
// place in it are rendered into the generated header of the same name, included next; here are the inits' full
// forms, with `acc_to_dest` and the caller's line, as kernel_lib's eltwise chain calls them; the binary ops whose one
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

// `acc_to_dest`: add and sub accumulate into DST; multiplication's MOP takes no accumulation whatever it says (tt-llk
// wormhole_b0 eltwise_binary_configure_mop_standard). `call_line` serves tt-metal's LLK sanitizer; it is unused here.
inline void add_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest, uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    ::tt_emu::kapi::add_init(icb0, icb1, acc_to_dest);
}
inline void sub_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest, uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    ::tt_emu::kapi::sub_init(icb0, icb1, acc_to_dest);
}
inline void mul_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest, uint32_t call_line = __builtin_LINE()) {
    (void)acc_to_dest, (void)call_line;
    ::tt_emu::kapi::mul_init(icb0, icb1);
}
