// Emulator version of tt-metal's <api/compute/bcast.h> (ttnn 0.81.1): the broadcast calls the intrinsic specs place
// in it are rendered into the generated header of the same name, included next; here are the forms that take the
// broadcast dimension as a template argument, `{add,sub,mul}_tiles_bcast<BroadcastType>` (kernel_lib's eltwise chain
// calls them), each the named call of its dimension, as tt-metal's header defines them. A dimension the emulator has
// no call for (ROW for sub) does not compile, naming itself; nor does a `bcast_row_idx` argument (the
// emulator broadcasts row 0).
#pragma once

#include_next "api/compute/bcast.h"
#include "llk_defs.h"  // ckernel::BroadcastType

namespace tt_emu::kapi::detail {
template <ckernel::BroadcastType dim>
inline constexpr bool no_bcast_call = false;
}  // namespace tt_emu::kapi::detail

template <ckernel::BroadcastType tBcastDim, bool... is_fp32_dest_acc_en>  // DST's format is the kernel's
inline void add_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    if constexpr (tBcastDim == ckernel::BroadcastType::COL) {
        ::tt_emu::kapi::add_tiles_bcast_cols(icb0, icb1, itile0, itile1, idst);
    } else if constexpr (tBcastDim == ckernel::BroadcastType::SCALAR) {
        ::tt_emu::kapi::add_tiles_bcast_scalar(icb0, icb1, itile0, itile1, idst);
    } else if constexpr (tBcastDim == ckernel::BroadcastType::ROW) {
        ::tt_emu::kapi::add_tiles_bcast_rows(icb0, icb1, itile0, itile1, idst);
    } else {
        static_assert(::tt_emu::kapi::detail::no_bcast_call<tBcastDim>,
                      "add_tiles_bcast: only BroadcastType::COL, ROW and SCALAR are emulated");
    }
}

template <ckernel::BroadcastType tBcastDim, bool... is_fp32_dest_acc_en>  // DST's format is the kernel's
inline void sub_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    if constexpr (tBcastDim == ckernel::BroadcastType::COL) {
        ::tt_emu::kapi::sub_tiles_bcast_cols(icb0, icb1, itile0, itile1, idst);
    } else if constexpr (tBcastDim == ckernel::BroadcastType::SCALAR) {
        ::tt_emu::kapi::sub_tiles_bcast_scalar(icb0, icb1, itile0, itile1, idst);
    } else {
        static_assert(::tt_emu::kapi::detail::no_bcast_call<tBcastDim>,
                      "sub_tiles_bcast: only BroadcastType::COL and SCALAR are emulated");
    }
}

template <ckernel::BroadcastType tBcastDim, bool... is_fp32_dest_acc_en>  // DST's format is the kernel's
inline void mul_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    if constexpr (tBcastDim == ckernel::BroadcastType::COL) {
        ::tt_emu::kapi::mul_tiles_bcast_cols(icb0, icb1, itile0, itile1, idst);
    } else if constexpr (tBcastDim == ckernel::BroadcastType::SCALAR) {
        ::tt_emu::kapi::mul_tiles_bcast_scalar(icb0, icb1, itile0, itile1, idst);
    } else if constexpr (tBcastDim == ckernel::BroadcastType::ROW) {
        ::tt_emu::kapi::mul_tiles_bcast_rows(icb0, icb1, itile0, itile1, idst);
    } else {
        static_assert(::tt_emu::kapi::detail::no_bcast_call<tBcastDim>,
                      "mul_tiles_bcast: only BroadcastType::COL, ROW and SCALAR are emulated");
    }
}
