// Kernel API: SFPU scans and type casts of DST tiles (cumsum_tile, typecast_tile), as tt-metal's LLK does them.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "compute.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {
namespace kapi {

// tt-metal's ckernel_sfpu_cumsum.h: SFPADD (fp32) down the 32 rows of every column, the running row starting at zero
// when `first`, else at the last row of the previous call's result, which the SFPU keeps in LREG 4-7 (the init only
// records the sequence, so cumsum_tile_init between the tiles of a column keeps it; another SFPU tile call
// overwrites it: cumsum_tile(first = false) after one is an error). The result is stored as DST holds it (bf16
// unless fp32_dest_acc_en); the carried row stays fp32, as in the SFPU's registers.
void cumsum_tile_init() {
    Session s = enter("cumsum_tile_init", {});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    c.sfpu = 0;
    c.cumsum_init = true;
    c.typecast_init = false;
    c.where_init = false;
}

void cumsum_tile(uint32_t idst, bool first) {
    Session s = enter("cumsum_tile", {idst, first ? 1u : 0u});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    if (!c.cumsum_init) {
        fail(s, "missing math init: cumsum_tile needs cumsum_tile_init since the last SFPU init of another operation");
    }
    if (!first && !c.cumsum_carried) {
        fail(s, "cumsum_tile(first = false) continues a running row no cumsum_tile left in the SFPU registers (call "
                "it with first = true for the first tile of a column of tiles; another SFPU operation in between "
                "overwrites the carried row)");
    }
    if (idst < c.capacity && !((c.written >> idst) & 1u)) {
        fail(s, "cumsum_tile reads DST tile " + std::to_string(idst) +
                    ", which no math call wrote since tile_regs_acquire (copy_tile the operand first)");
    }
    float* d = math_dst(s, c, idst, false);
    c.computed = true;
    if (first) std::memset(c.cumsum_row, 0, sizeof c.cumsum_row);
    for (uint32_t r = 0; r < 32; ++r) {
        for (uint32_t col = 0; col < 32; ++col) {
            c.cumsum_row[col] += d[r * 32 + col];
            d[r * 32 + col] = c.cumsum_row[col];
        }
    }
    c.cumsum_carried = true;
    finish_math(c, d);
    s.core.counters[kSfpuTiles] += 1;
}

namespace detail {

// typecast_tile<IN, OUT> (ttnn 0.81.1 eltwise_unary/typecast.h, wormhole_b0 ckernel_sfpu_typecast.h) for the pairs
// the backend emits: Int32 -> Float32 (SFPCAST: round to nearest) and Float32 / Float16_b -> Int32 (the mantissa shifted by the exponent: truncation toward zero; beyond the
// int32 range, and for NaN and infinities, INT_MIN for a negative sign and INT_MAX otherwise). Int32 needs 32-bit
// DST. DST holds an integer as its bits (tile.cpp).
void typecast_init(uint32_t in_format, uint32_t out_format) {
    Session s = enter("typecast_tile_init", {in_format, out_format});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    c.sfpu = 0;
    c.cumsum_init = false;
    c.typecast_init = true;
    c.where_init = false;
    c.typecast_from = in_format;
    c.typecast_to = out_format;
}

void typecast(uint32_t in_format, uint32_t out_format, uint32_t idst) {
    Session s = enter("typecast_tile", {in_format, out_format, idst});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    if (!c.typecast_init || c.typecast_from != in_format || c.typecast_to != out_format) {
        fail(s, "missing math init: typecast_tile<" + std::to_string(in_format) + ", " + std::to_string(out_format) +
                    "> needs typecast_tile_init with the same formats since the last SFPU init");
    }
    const auto from = static_cast<tt::DataFormat>(in_format), to = static_cast<tt::DataFormat>(out_format);
    using F = tt::DataFormat;
    const bool to_int = to == F::Int32 && (from == F::Float32 || from == F::Float16_b);
    const bool to_float = from == F::Int32 && to == F::Float32;
    if (!to_int && !to_float) {
        fail(s, std::string("typecast from ") + format_name(from) + " to " + format_name(to) +
                    " is not emulated (Int32 to Float32, and Float32 and Float16_b to Int32, are)");
    }
    if (!c.fp32_acc) fail(s, "typecast_tile to or from Int32 needs 32-bit DST (fp32_dest_acc_en)");
    if (idst < c.capacity && !((c.written >> idst) & 1u)) {
        fail(s, "typecast_tile reads DST tile " + std::to_string(idst) +
                    ", which no math call wrote since tile_regs_acquire (copy_tile the operand first)");
    }
    float* d = math_dst(s, c, idst, false);
    c.computed = true;
    c.cumsum_carried = false;
    for (uint32_t i = 0; i < kTileElems; ++i) {
        if (to_float) {
            int32_t v;
            std::memcpy(&v, &d[i], 4);
            d[i] = static_cast<float>(v);
            continue;
        }
        const float x = d[i];
        int32_t v;
        if (std::isnan(x) || std::fabs(x) >= 2147483648.0f) {
            v = std::signbit(x) ? INT32_MIN : INT32_MAX;
        } else {
            v = static_cast<int32_t>(x);  // truncation toward zero
        }
        std::memcpy(&d[i], &v, 4);
    }
    s.core.counters[kSfpuTiles] += 1;
}

}  // namespace detail
}  // namespace kapi
}  // namespace tt_emu
