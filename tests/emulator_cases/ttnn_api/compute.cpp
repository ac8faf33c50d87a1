// C = 1 / (1 / (A - B)) with binary_tiles_init<true, EltwiseBinaryType::ELWSUB> (ttnn 0.81.1's eltwise_binary.h)
// and the SFPU reciprocal spelled as ttnn's SFPU chains spell it (`recip_tile<false>(0)`), then as softmax.cpp spells
// it (`recip_tile<ReciprocalDestAcc::FP32, ReciprocalApproxMode::Precise>(0)`), the CBs as DataflowBuffers.
// The conditional reconfigurations switch SrcA to the Float32 CB c_3 and back. FAULT_STALE_RECONFIG switches back
// from a CB of SrcA's old format (bf16), which the hardware skips: SrcA stays Float32 and sub_tiles misreads c_0.
// FAULT_SIN calls sin_tile, which the emulator declares but does not have (a compile error naming it); so does
// FAULT_MASK with mask_tile (mask.h, which kernel_lib's eltwise chain includes), and FAULT_BCAST_ROW with a row
// broadcast subtraction. SrcB goes to Float32 and back by reconfig_data_format_srcb and the conditional
// reconfig_data_format(old_a, new_a, old_b, new_b); FAULT_STALE_RECONFIG_B switches back from a bf16 CB (skipped).
// FAULT_ELWDIV asks for an FPU division (not emulated: a compile error); FAULT_GELU includes an SFPU family the
// emulator lacks through sfpu_split_includes.h (a compile error).
#ifdef FAULT_GELU
#define SFPU_OP_GELU_INCLUDE 1
#endif
#include <cstdint>
#include "api/compute/bcast.h"
#include "api/compute/eltwise_binary.h"
#define SFPU_OP_RECIP_INCLUDE 1
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
#include "api/dataflow/dataflow_buffer.h"
// Headers whose operations the emulator lacks: including them compiles, calling one (FAULT_SIN) does not.
#include "api/compute/eltwise_unary/trigonometry.h"
#include "api/compute/mul_int_sfpu.h"
#include "api/compute/eltwise_unary/rpow.h"
#include "api/compute/eltwise_unary/rdiv.h"
// What kernel_lib's eltwise chain and softmax.cpp include: softmax.h (exp.h and recip.h), the refused SFPU families.
#include "api/compute/softmax.h"
#include "api/compute/mask.h"
#include "api/compute/copy_dest_values.h"
#include "api/compute/eltwise_unary/cbrt.h"
#include "api/compute/eltwise_unary/identity.h"
#include "api/compute/eltwise_unary/log1p.h"
#include "api/compute/eltwise_unary/negative.h"
#include "api/compute/eltwise_unary/rsqrt.h"

// tt-llk's llk_defs.h types as the chain names them (with and without `ckernel::`), and rsqrt.h's mode.
static_assert(static_cast<int>(ckernel::EltwiseBinaryReuseDestType::DEST_TO_SRCB) == 2, "llk_defs.h");
static_assert(static_cast<int>(BroadcastType::COL) == 1 && static_cast<int>(BroadcastType::SCALAR) == 3, "llk_defs.h");
static_assert(ReluConfig::from_packed(0x00402u).get_mode() == ReluType::MIN_THRESHOLD_RELU, "RELU_MODE, bits 0-1");
static_assert(ReluConfig::from_packed(0x3F800002u).get_threshold() == 0x3F80, "the threshold, bits 16-31");
static_assert(ReluConfig::none().get_mode() == ReluType::NO_RELU && ckernel::RsqrtMode::Fast != RsqrtMode::Default);

void kernel_main() {
    const uint32_t tiles = get_arg_val<uint32_t>(0);
    DataflowBuffer in0(tt::CBIndex::c_0), in1(tt::CBIndex::c_1), out(tt::CBIndex::c_2);
    compute_kernel_hw_startup(in0.get_id(), in1.get_id(), out.get_id());
#ifdef FAULT_ELWDIV
    binary_tiles_init<true, EltwiseBinaryType::ELWDIV>(in0.get_id(), in1.get_id());
#else
    binary_tiles_init<true, EltwiseBinaryType::ELWSUB>(in0.get_id(), in1.get_id());
#endif
    reconfig_data_format_srca(in1.get_id(), tt::CBIndex::c_3);  // bf16 -> Float32: SrcA takes Float32
#ifdef FAULT_STALE_RECONFIG
    reconfig_data_format_srca(in1.get_id(), in0.get_id());  // bf16 -> bf16: the hardware keeps Float32
#else
    reconfig_data_format_srca(tt::CBIndex::c_3, in0.get_id());  // Float32 -> bf16: SrcA takes bf16 again
#endif
    pack_reconfig_data_format(in0.get_id(), out.get_id());  // bf16 -> bf16: nothing to change
    // SrcB alone, then both sources conditionally, as kernel_lib's eltwise chain reconfigures them.
    reconfig_data_format_srcb(tt::CBIndex::c_3);  // SrcB takes Float32
#ifdef FAULT_STALE_RECONFIG_B
    reconfig_data_format(in0.get_id(), in0.get_id(), in1.get_id(), in1.get_id());  // bf16 -> bf16: SrcB stays Float32
#else
    reconfig_data_format(in0.get_id(), in0.get_id(), tt::CBIndex::c_3, in1.get_id());  // SrcB takes bf16 again
#endif
    reconfig_data_format_srcb(in1.get_id(), in1.get_id());  // bf16 -> bf16: nothing to change
    // The inits' full forms (acc_to_dest, the caller's line), then the subtraction's init as kernel_lib's eltwise
    // chain makes it, by its LLK halves; sub_tiles below runs with it.
    sub_init(in0.get_id(), in1.get_id(), false);
    mul_init(in0.get_id(), in1.get_id(), true, __builtin_LINE());  // multiplication takes no accumulation
    llk_math_eltwise_binary_init<EltwiseBinaryType::ELWSUB, BroadcastType::NONE, MathFidelity::LoFi>(
        in0.get_id(), in1.get_id());
    llk_unpack_AB_init<BroadcastType::NONE>(in0.get_id(), in1.get_id());
#ifdef FAULT_BCAST_ROW
    sub_tiles_bcast<BroadcastType::ROW>(in0.get_id(), in1.get_id(), 0, 0, 0);
#endif
    for (uint32_t i = 0; i < tiles; ++i) {
        in0.wait_front(1);
        in1.wait_front(1);
        out.reserve_back(1);
        tile_regs_acquire();
        sub_tiles(in0.get_id(), in1.get_id(), 0, 0, 0);
#ifdef FAULT_SIN
        sin_tile_init();
        sin_tile(0);
#endif
#ifdef FAULT_MASK
        mask_tile(0, 1);
#endif
        recip_tile_init<false>();
        recip_tile<false>(0);
        recip_tile_init<ReciprocalDestAcc::FP32, ReciprocalApproxMode::Precise>();
        recip_tile<ReciprocalDestAcc::FP32, ReciprocalApproxMode::Precise>(0);
        tile_regs_commit();
        tile_regs_wait();
        pack_tile(0, out.get_id());
        tile_regs_release();
        in0.pop_front(1);
        in1.pop_front(1);
        out.push_back(1);
    }
}
