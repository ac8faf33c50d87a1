// Emulator version of tt-llk's llk_lib/llk_defs.h (ttnn 0.81.1, wormhole_b0), as kernel_lib includes it: the ckernel
// enums kernels name (`ckernel::PoolType`, `ckernel::ReduceDim`, `ckernel::EltwiseBinaryType`, the
// `MATH_FIDELITY` descriptor's `ckernel::MathFidelity`; ckernel_defs.h's `PackMode`). They are the
// emulator's kernel API types, so a kernel may name them with or without `ckernel::`.
#pragma once

#include "tt_emu/kernel_api.hpp"

namespace ckernel {
using ::tt_emu::ktypes::EltwiseBinaryType;
using ::tt_emu::ktypes::PoolType;
using ::tt_emu::ktypes::ReduceDim;
enum class MathFidelity : std::uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };
// ckernel_defs.h
enum class PackMode : std::uint8_t { Default = 0, Untilize = 1, Tilize = 2 };
}  // namespace ckernel
