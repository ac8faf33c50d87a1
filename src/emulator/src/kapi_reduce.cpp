// Kernel API: row and column reductions (reduce.h). reduce_tile folds the columns of an input tile into column 0 of
// a DST tile (REDUCE_ROW), or its rows into row 0 (REDUCE_COL), scaled by a scaler tile; reduce_init also sets the
// packer's edge mask (only column 0, or row 0, is packed: tt-llk's _llk_pack_reduce_mask_config_) until
// reduce_uninit clears it. As on hardware, DST holds zero after tile_regs_acquire and a sum accumulates onto what it
// holds; a max takes the maximum with what a math call wrote to the DST tile since tile_regs_acquire, else starts
// from its own values: tt-metal's production reduce (ttnn kernel_lib reduce_helpers_compute.inl: tile_regs_acquire,
// then reduce_tile<MAX>, no fill) and its reduce_max example (rows of U(-10, -1)) take the maxima of negative rows.
#include <algorithm>
#include <string>

#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {
namespace {

using kapi::PoolType;
using kapi::ReduceDim;

std::string cb_name(uint32_t cb) { return "CB " + std::to_string(cb); }
std::string op_name(bool max, bool col) { return std::string(max ? "MAX" : "SUM") + (col ? ", REDUCE_COL" : ""); }

// tt-metal's scaler tile (generate_reduce_scaler.hpp): the first row of each of the four 16x16 faces holds the
// scaler, everything else is zero; in row-major terms rows 0 and 16 hold it in every column. Returns the scaler.
// A MAX reduction (GMPOOL) is only held to rows 0 and 16: tt-metal's own reduce_max programming example feeds it
// an all-ones tile.
float scaler_of(Session& s, uint32_t cb, uint32_t tile, bool max) {
    float t[kTileElems];
    unpack_operand(s, cb, tile, t);
    const float value = t[0];
    for (uint32_t r = 0; r < 32; ++r) {
        for (uint32_t col = 0; col < 32; ++col) {
            const float want = (r == 0 || r == 16) ? value : 0.0f;
            if ((t[r * 32 + col] != want && (!max || r == 0 || r == 16)) || value == 0.0f) {
                fail(s, "the scaler tile (tile " + std::to_string(tile) + " of " + cb_name(cb) +
                            ") does not have tt-metal's scaler layout (rows 0 and 16, the first row of each face, "
                            "hold one non-zero scaler; every other element is zero): element (" + std::to_string(r) +
                            ", " + std::to_string(col) + ") is " + std::to_string(t[r * 32 + col]));
            }
        }
    }
    return value;
}

}  // namespace

void need_pack_mode(Session& s, const ComputeState& c, uint32_t idst) {
    if (!c.reduce.mask || ((c.reduced >> idst) & 1u)) return;
    fail(s, "pack_tile packs DST tile " + std::to_string(idst) + ", which no reduce_tile wrote, while the packer is "
            "still in reduce mode: reduce_init's edge mask (only column 0 of each row is packed) stays set until "
            "reduce_uninit, which tt-metal's reduce.h requires before the next operation (missing reduce_uninit)");
}

namespace kapi {
namespace detail {

void reduce_init(PoolType pool, ReduceDim dim, uint32_t icb, uint32_t icb_scaler, uint32_t ocb) {
    Session s = enter("reduce_init", {icb, icb_scaler, ocb});
    if (dim == ReduceDim::REDUCE_SCALAR) fail(s, "ReduceDim::REDUCE_SCALAR is not emulated (REDUCE_ROW and COL are)");
    if (pool == PoolType::AVG || pool == PoolType::MIN)
        fail(s, "PoolType::AVG and MIN are not emulated (SUM and MAX are)");
    ComputeState& c = compute_of(s);
    cb_of(s, ocb);
    init_fpu(s, FpuOp::Reduce, icb, icb_scaler, false);
    c.reduce = ReduceState{pool == PoolType::MAX, true, dim == ReduceDim::REDUCE_COL, icb, icb_scaler, ocb};
}

void reduce_tile(PoolType pool, ReduceDim dim, uint32_t icb, uint32_t icb_scaler, uint32_t itile,
                 uint32_t itile_scaler, uint32_t idst) {
    Session s = enter("reduce_tile", {icb, icb_scaler, itile, itile_scaler, idst});
    ComputeState& c = compute_of(s);
    need_fpu(s, c, FpuOp::Reduce, icb, icb_scaler);
    const bool max = pool == PoolType::MAX, col = dim == ReduceDim::REDUCE_COL;
    if (col != c.reduce.col || max != c.reduce.max || icb != c.reduce.icb || icb_scaler != c.reduce.scaler) {
        fail(s, "reduce_tile<" + op_name(max, col) + "> reads " + cb_name(icb) + " with scaler " + cb_name(icb_scaler) +
                    ", but the last reduce_init was <" + op_name(c.reduce.max, c.reduce.col) + "> for " +
                    cb_name(c.reduce.icb) + " with scaler " + cb_name(c.reduce.scaler) +
                    " (call reduce_init for these CBs first)");
    }
    need_unpack_formats(s, c, icb, icb_scaler);
    const float scaler = scaler_of(s, icb_scaler, itile_scaler, max);
    const bool fresh = !((c.written >> idst) & 1u);  // no math wrote this DST tile since tile_regs_acquire
    float* d = math_dst(s, c, idst);
    c.reduced |= 1u << idst;
    float a[kTileElems];
    unpack_operand(s, icb, itile, a);
    // Line i (a row for REDUCE_ROW, a column for REDUCE_COL) folds into element i of column 0 (or of row 0).
    const uint32_t along = col ? 32 : 1, across = col ? 1 : 32;
    for (uint32_t i = 0; i < 32; ++i) {
        const float* line = &a[i * across];
        float& out = d[i * across];
        if (!max && c.fidelity < 4) {  // a sum multiplies each input (SrcA) by the scaler (SrcB) at the fidelity
            float folded = 0.0f;
            for (uint32_t k = 0; k < 32; ++k) folded += fidelity_product(line[k * along], scaler, c.fidelity);
            out += folded;
            continue;
        }
        float folded = line[0];
        for (uint32_t k = 1; k < 32; ++k) {
            folded = max ? std::max(folded, line[k * along]) : folded + line[k * along];
        }
        if (max) {
            out = fresh ? scaler * folded : std::max(out, scaler * folded);
        } else {
            out += scaler * folded;
        }
    }
    finish_math(c, d);
    s.core.counters[kEltwiseTiles] += 1;
}

}  // namespace detail

void reduce_uninit(uint32_t icb) {
    Session s = enter("reduce_uninit", {icb});
    compute_of(s).reduce.mask = false;
}

void reduce_uninit() {
    Session s = enter("reduce_uninit", {});
    compute_of(s).reduce.mask = false;
}

}  // namespace kapi
}  // namespace tt_emu
