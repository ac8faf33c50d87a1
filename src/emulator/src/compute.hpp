// What the compute API's implementation files share beyond emu.hpp: the data-format state of the unpacker and
// packer (kapi_formats.cpp) and the DST access of math calls (kapi_compute.cpp, used by sfpu_math.cpp).
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

// The compute kernel's state (an error from a data-movement kernel); the start-up every compute call needs; an FPU
// init and the check that a math call follows its init (kapi_reduce.cpp uses them too); DST tile `idst` for a math
// call (acquired, inside the section; marked written); the rounding a math call ends with; tile `tile` of an input
// CB among its waited pages.
ComputeState& compute_of(Session& s);
void need_startup(Session& s, ComputeState& c);
void pack_in_full_section(ComputeState& c);  // acquire_dst's section: the first pack ends its math
std::string math_after_commit(const ComputeState& c);  // why a math call may not write DST now
void init_fpu(Session& s, FpuOp op, uint32_t cb0, uint32_t cb1, bool full);
void need_fpu(Session& s, ComputeState& c, FpuOp op, uint32_t cb0, uint32_t cb1);
float* math_dst(Session& s, ComputeState& c, uint32_t idst, bool fpu = true);  // fpu: clears the reduced bit
void finish_math(const ComputeState& c, float* d);
TileBits unpack_operand(Session& s, uint32_t cb_id, uint32_t tile, float* out);  // what unpack_tile saw
// A CB of whole-tile pages in a format the tile math supports (kapi_compute.cpp).
Cb& tile_cb(Session& s, uint32_t cb_id);
// The set-up of ComputeState::layout (kapi_tilize.cpp): which conversion, its CBs and widths in tiles.
enum class LayoutMode : uint32_t { None, Tilize, Untilize };
enum LayoutField : uint32_t { kLayoutMode, kLayoutIcb, kLayoutOcb, kLayoutBlock, kLayoutFull };
// Unpacking or packing while the other unit is set up for a layout conversion (kapi_tilize.cpp): `unit` "unpack" or
// "pack" fails when tilize_init (unpack) or pack_untilize_init (pack) has not been undone by its uninit.
void need_plain_layout(Session& s, const ComputeState& c, const char* unit);
// pack_tile of DST tile `idst` while reduce_init's packer edge mask is set: the tile must hold a reduction
// (kapi_reduce.cpp; tt-metal's reduce.h: reduce_uninit must come before the next operation's packing).
void need_pack_mode(Session& s, const ComputeState& c, uint32_t idst);

}  // namespace tt_emu
