// Emulator version of tt-metal's <api/compute/eltwise_unary/rsqrt.h> (ttnn 0.81.1): rsqrt_tile and its init are the
// op map's SFPU calls (specs/ops/eltwise.yaml), rendered into the generated header of the same name, included next;
// here is the template argument type of their ttnn 0.81.1 form, `ckernel::RsqrtMode` (the emulator computes in fp32
// whatever the mode).
#pragma once

#include "api/compute/common_globals.h"

namespace ckernel {
enum class RsqrtMode { Default, Fast };
}  // namespace ckernel

#include_next "api/compute/eltwise_unary/rsqrt.h"
