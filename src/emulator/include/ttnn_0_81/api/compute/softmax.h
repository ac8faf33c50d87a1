// Emulator version of tt-metal's <api/compute/softmax.h> (ttnn 0.81.1): like tt-metal's, it declares nothing of its
// own and brings in the exponential and the reciprocal that softmax kernels call.
#pragma once

#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/recip.h"
