// What the compute API's implementation files share beyond emu.hpp: the data-format state of the unpacker and
// packer (kapi_formats.cpp) and the SFPU operation table (sfpu_math.cpp).
#pragma once

#include "emu.hpp"
#include "tile.hpp"

namespace tt_emu {

// Data-format state of the unpacker sources and the packer (kapi_formats.cpp). `full`: a full hardware
// configuration (an error after the first tile math or pack call); a CB of -1 leaves that unit as it is.
void configure_formats(Session& s, ComputeState& c, bool full, int64_t srca_cb, int64_t srcb_cb, int64_t pack_cb);
// A tile math call unpacking `srca_cb` into SrcA and `srcb_cb` (-1: none) into SrcB: their formats must be
// the configured ones.
void need_unpack_formats(Session& s, ComputeState& c, uint32_t srca_cb, int64_t srcb_cb);
// A pack_tile into `cb`: its format must be the packer's.
void need_pack_format(Session& s, ComputeState& c, uint32_t cb);

// The compute helpers of kapi_compute.cpp that kapi_reduce.cpp uses: the kernel's compute state, the start-up
// check, an FPU init and the check that a math call follows its init, a DST tile for math (rounded after it by
// finish_math), and tile `tile` of an input CB among its waited pages.
ComputeState& compute_of(Session& s);
void need_startup(Session& s, ComputeState& c);
void init_fpu(Session& s, FpuOp op, uint32_t cb0, uint32_t cb1, bool full);
void need_fpu(Session& s, ComputeState& c, FpuOp op, uint32_t cb0, uint32_t cb1);
float* math_dst(Session& s, ComputeState& c, uint32_t idst);
void finish_math(const ComputeState& c, float* d);
void unpack_operand(Session& s, uint32_t cb_id, uint32_t tile, float* out);

// An SFPU operation: its tile call, the init it needs (a kapi::kSfpu* code), and its math on one element
// (`v`: the call's scalar) (sfpu_math.cpp).
struct SfpuMath {
    int op;
    const char* call;
    int init;
    float (*apply)(float x, float v);
};
const SfpuMath& sfpu_math(int op);
const char* sfpu_init_name(int op);

}  // namespace tt_emu
