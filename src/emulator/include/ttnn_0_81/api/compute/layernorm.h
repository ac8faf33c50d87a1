// Emulator version of tt-metal's <api/compute/layernorm.h> (ttnn 0.81.1): like tt-metal's, it declares nothing of its
// own and brings in the compute API and the reciprocal square root that layernorm kernels call.
#pragma once

#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_unary/rsqrt.h"
