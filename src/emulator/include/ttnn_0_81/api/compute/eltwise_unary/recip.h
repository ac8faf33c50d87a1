// Emulator version of tt-metal's <api/compute/eltwise_unary/recip.h> (ttnn 0.81.1): recip_tile and its init are the
// op map's SFPU calls (specs/ops/eltwise.yaml), rendered into the generated header of the same name, included next;
// here are the template argument types of their ttnn 0.81.1 form, `recip_tile<ReciprocalDestAcc, ReciprocalApproxMode>`
// (ckernel's, as tt-metal's header declares them). The emulator computes the reciprocal in fp32 whatever the modes.
#pragma once

#include "api/compute/common_globals.h"

namespace ckernel {
enum class ReciprocalDestAcc { BF16, FP32 };
enum class ReciprocalApproxMode { Default, Precise, Approximate };
}  // namespace ckernel

#include_next "api/compute/eltwise_unary/recip.h"
