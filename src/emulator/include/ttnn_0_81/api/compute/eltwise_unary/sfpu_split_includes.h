// Emulator version of tt-metal's <api/compute/eltwise_unary/sfpu_split_includes.h> (ttnn 0.81.1): a program factory
// defines SFPU_OP_<FAMILY>_INCLUDE for the SFPU operations a kernel's SFPU_OP_CHAIN_0 calls, and this header includes
// that family's API header. The families whose header the emulator renders (from specs/intrinsics) are included as
// the real header includes them; a family it lacks is a compile error naming it (the emulator has no such ops).
#pragma once

#ifdef SFPU_OP_EXP_INCLUDE
#include "api/compute/eltwise_unary/exp.h"
#endif

#ifdef SFPU_OP_SQRT_INCLUDE
#include "api/compute/eltwise_unary/sqrt.h"
#endif

#ifdef SFPU_OP_RSQRT_INCLUDE
#include "api/compute/eltwise_unary/rsqrt.h"
#endif

#ifdef SFPU_OP_RECIP_INCLUDE
#include "api/compute/eltwise_unary/recip.h"
#endif

#ifdef SFPU_OP_RELU_FAMILY_INCLUDE
#include "api/compute/eltwise_unary/relu.h"
#endif

#ifdef SFPU_OP_TYPECAST_INCLUDE
#include "api/compute/eltwise_unary/typecast.h"
#endif

#ifdef SFPU_OP_BINOP_WITH_SCALAR_INCLUDE
#include "api/compute/eltwise_unary/binop_with_scalar.h"
#endif

#ifdef SFPU_OP_FILL_INCLUDE
#include "api/compute/eltwise_unary/fill.h"
#endif

#ifdef SFPU_OP_COMPUTE_KERNEL_API_INCLUDE
#include "api/compute/compute_kernel_api.h"
#endif

#ifdef SFPU_OP_BINARY_MAX_MIN_INCLUDE
#include "api/compute/binary_max_min.h"
#endif

#if defined(SFPU_OP_ISINF_ISNAN_INCLUDE) || \
    defined(SFPU_OP_ERF_ERFC_INCLUDE) || \
    defined(SFPU_OP_LOGICAL_NOT_INCLUDE) || \
    defined(SFPU_OP_GELU_INCLUDE) || \
    defined(SFPU_OP_CBRT_INCLUDE) || \
    defined(SFPU_OP_ELU_INCLUDE) || \
    defined(SFPU_OP_I0_INCLUDE) || \
    defined(SFPU_OP_I1_INCLUDE) || \
    defined(SFPU_OP_ERFINV_INCLUDE) || \
    defined(SFPU_OP_NEG_INCLUDE) || \
    defined(SFPU_OP_TRIG_FAMILY_INCLUDE) || \
    defined(SFPU_OP_RSUB_INCLUDE) || \
    defined(SFPU_OP_IDENTITY_INCLUDE) || \
    defined(SFPU_OP_BITWISE_INCLUDE) || \
    defined(SFPU_OP_BITWISE_NOT_INCLUDE) || \
    defined(SFPU_OP_SHIFT_INCLUDE) || \
    defined(SFPU_OP_ROUND_FAMILY_INCLUDE) || \
    defined(SFPU_OP_REMAINDER_INCLUDE) || \
    defined(SFPU_OP_FMOD_INCLUDE) || \
    defined(SFPU_OP_SOFTPLUS_INCLUDE) || \
    defined(SFPU_OP_XIELU_INCLUDE) || \
    defined(SFPU_OP_LOGSIGMOID_INCLUDE) || \
    defined(SFPU_OP_SELU_INCLUDE) || \
    defined(SFPU_OP_PRELU_INCLUDE) || \
    defined(SFPU_OP_DROPOUT_INCLUDE) || \
    defined(SFPU_OP_LOG1P_INCLUDE) || \
    defined(SFPU_OP_UNARY_COMP_INCLUDE) || \
    defined(SFPU_OP_ACTIVATIONS_INCLUDE) || \
    defined(SFPU_OP_THRESHOLD_INCLUDE) || \
    defined(SFPU_OP_WHERE_INCLUDE) || \
    defined(SFPU_OP_MAC_INCLUDE) || \
    defined(SFPU_OP_CLAMP_INCLUDE) || \
    defined(SFPU_OP_HARDTANH_INCLUDE) || \
    defined(SFPU_OP_RPOW_INCLUDE) || \
    defined(SFPU_OP_HARDMISH_INCLUDE) || \
    defined(SFPU_OP_SOFTCAP_INCLUDE) || \
    defined(SFPU_OP_LGAMMA_INCLUDE) || \
    defined(SFPU_OP_DIGAMMA_INCLUDE) || \
    defined(SFPU_OP_TANHSHRINK_INCLUDE) || \
    defined(SFPU_OP_POLYGAMMA_INCLUDE) || \
    defined(SFPU_OP_MISH_INCLUDE) || \
    defined(SFPU_OP_RDIV_INCLUDE) || \
    defined(SFPU_OP_TANH_DERIVATIVE_INCLUDE) || \
    defined(SFPU_OP_INT_SUM_INCLUDE) || \
    defined(SFPU_OP_LERP_INCLUDE) || \
    defined(SFPU_OP_ADDCDIV_INCLUDE) || \
    defined(SFPU_OP_ADDCMUL_INCLUDE) || \
    defined(SFPU_OP_SNAKE_BETA_INCLUDE) || \
    defined(SFPU_OP_MASK_INCLUDE) || \
    defined(SFPU_OP_BINARY_DIV_INCLUDE) || \
    defined(SFPU_OP_BINARY_ATAN2_INCLUDE) || \
    defined(SFPU_OP_BINARY_ADD_INT_INCLUDE) || \
    defined(SFPU_OP_BINARY_MUL_INT_INCLUDE) || \
    defined(SFPU_OP_BINARY_GT_INT_INCLUDE) || \
    defined(SFPU_OP_COPY_DEST_INCLUDE) || \
    defined(SFPU_OP_BINARY_ISCLOSE_INCLUDE) || \
    defined(SFPU_OP_BINARY_FMOD_INCLUDE) || \
    defined(SFPU_OP_BINARY_REMAINDER_INCLUDE) || \
    defined(SFPU_OP_BINARY_DIV_INT32_INCLUDE) || \
    defined(SFPU_OP_BINARY_DIV_INT32_FLOOR_INCLUDE) || \
    defined(SFPU_OP_BINARY_BITWISE_INCLUDE) || \
    defined(SFPU_OP_BINARY_SHIFT_INCLUDE) || \
    defined(SFPU_OP_BINARY_SUB_INT_INCLUDE) || \
    defined(SFPU_OP_SITU_GLU_INCLUDE) || \
    defined(SFPU_OP_CLAMPED_SILU_GLU_INCLUDE)
#error "sfpu_split_includes.h: the kernel is compiled with an SFPU_OP_*_INCLUDE family the emulator does not have (it has EXP, SQRT, RSQRT, RECIP, RELU_FAMILY, TYPECAST, BINOP_WITH_SCALAR, FILL, COMPUTE_KERNEL_API, BINARY_MAX_MIN)"
#endif
