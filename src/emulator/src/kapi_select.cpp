// Kernel API: the SFPU selection of three DST tiles (where_tile, api/compute/eltwise_unary/where.h), as tt-llk's
// ckernel_sfpu_where.h computes it: the second operand where the condition is not zero (SFPSETCC on zero), the third
// elsewhere; the operands are read before the result is written, so odst may be any of them. Float32 and Int32 load
// with the same INT32 mode, and SFPSETCC's EQ0 tests the 32 bits (tt-isa-documentation SFPSETCC.md: LReg[VC].i32 ==
// 0), so a condition of -0.0 selects the second operand: the selection is a bitwise one in both formats.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {
namespace kapi {

void where_tile_init() {
    Session s = enter("where_tile_init", {});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    c.sfpu = 0;
    c.cumsum_init = false;
    c.typecast_init = false;
    c.where_init = true;
}

namespace detail {

void where(uint32_t format, uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    Session s = enter("where_tile", {format, idst0, idst1, idst2, odst});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    if (!c.where_init) fail(s, "missing math init: where_tile needs where_tile_init since the last SFPU init");
    const auto f = static_cast<tt::DataFormat>(format);
    if (f != tt::DataFormat::Float32 && f != tt::DataFormat::Int32) {
        fail(s, std::string("where_tile in format ") + format_name(f) + " is not emulated (Float32 and Int32 are)");
    }
    if (!c.fp32_acc) {
        fail(s, std::string("where_tile<") + format_name(f) + "> reads 32-bit values: it needs 32-bit DST "
                "(fp32_dest_acc_en)");
    }
    std::vector<float> operands(3 * kTileElems);
    const uint32_t ins[3] = {idst0, idst1, idst2};
    for (uint32_t k = 0; k < 3; ++k) {
        if (ins[k] < c.capacity && !((c.written >> ins[k]) & 1u)) {
            fail(s, "where_tile reads DST tile " + std::to_string(ins[k]) +
                        ", which no math call wrote since tile_regs_acquire (copy_tile or fill_tile it first)");
        }
        const float* src = math_dst(s, c, ins[k], false);
        std::copy(src, src + kTileElems, operands.begin() + k * kTileElems);
    }
    float* d = math_dst(s, c, odst, false);
    c.computed = true;
    c.cumsum_carried = false;
    for (uint32_t i = 0; i < kTileElems; ++i) {
        uint32_t cond;
        std::memcpy(&cond, &operands[i], 4);
        d[i] = cond != 0 ? operands[kTileElems + i] : operands[2 * kTileElems + i];
    }
    finish_math(c, d);
    s.core.counters[kSfpuTiles] += 1;
}

}  // namespace detail

void where_int32_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    detail::where(static_cast<uint32_t>(tt::DataFormat::Int32), idst0, idst1, idst2, odst);
}

void where_fp32_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    detail::where(static_cast<uint32_t>(tt::DataFormat::Float32), idst0, idst1, idst2, odst);
}

}  // namespace kapi
}  // namespace tt_emu
