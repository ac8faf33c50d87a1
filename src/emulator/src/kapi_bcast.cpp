// Kernel API: broadcast binary operations (bcast.h): BroadcastType::COL, DST[h, w] = A[h, w] op B[h, 0] (the column
// vector B, column 0 of its tile, broadcast across A's columns), ROW, DST[h, w] = A[h, w] op B[0, w] (row 0
// broadcast down the rows), and SCALAR, DST[h, w] = A[h, w] op B[0, 0] (tt-llk's unpacker reads element 0 of B's
// first face into SrcB and the math repeats it); the hardware reads nothing else of B.
#include <string>

#include "compute.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {
namespace {

void bcast_init(const char* name, FpuOp op, uint32_t icb0, uint32_t icb1) {
    Session s = enter(name, {icb0, icb1});
    init_fpu(s, op, icb0, icb1, false);
}

bool is_rows(FpuOp op) { return op == FpuOp::AddBcastRows || op == FpuOp::MulBcastRows; }
bool is_scalar(FpuOp op) {
    return op == FpuOp::AddBcastScalar || op == FpuOp::SubBcastScalar || op == FpuOp::MulBcastScalar;
}

// A tile laid out as the other kind of vector: given to a column broadcast, a row vector (a 1-D tensor's tile: row
// 0 holds values beyond column 0, every other row is zero); given to a row broadcast, a column vector (a reduction's
// tile: column 0 holds values below row 0, every other column is zero). The hardware reads only column (row) 0, so it
// would broadcast one value and zeros.
void need_vector(Session& s, bool rows, uint32_t cb, uint32_t tile, const float* b) {
    bool rest_zero = true, line_values = false;
    for (uint32_t i = 0; i < kTileElems; ++i) {
        const uint32_t r = i / 32, col = i % 32;
        const bool on_line = rows ? col == 0 : r == 0;  // the line the other kind of vector lies on
        if (!on_line) rest_zero = rest_zero && b[i] == 0.0f;
        if (on_line && i != 0) line_values = line_values || b[i] != 0.0f;
    }
    if (rest_zero && line_values) {
        fail(s, std::string(s.t.call.name) + " broadcasts " + (rows ? "row" : "column") + " 0 of tile " +
                    std::to_string(tile) + " of CB " + std::to_string(cb) + ", but the tile is a " +
                    (rows ? "column" : "row") + " vector (its values lie in " + (rows ? "column" : "row") +
                    " 0, everything else is zero): a " + (rows ? "column" : "row") + " vector needs a " +
                    (rows ? "column" : "row") + " broadcast");
    }
}

float apply(FpuOp op, float a, float v) {
    switch (op) {
        case FpuOp::AddBcastCols:
        case FpuOp::AddBcastRows:
        case FpuOp::AddBcastScalar: return a + v;
        case FpuOp::SubBcastCols:
        case FpuOp::SubBcastScalar: return a - v;
        default: return a * v;
    }
}

void bcast(const char* name, FpuOp op, uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    Session s = enter(name, {icb0, icb1, itile0, itile1, idst});
    ComputeState& c = compute_of(s);
    need_fpu(s, c, op, icb0, icb1);
    need_unpack_formats(s, c, icb0, icb1);
    float* d = math_dst(s, c, idst);
    float a[kTileElems], b[kTileElems];
    unpack_operand(s, icb0, itile0, a);
    unpack_operand(s, icb1, itile1, b);
    const bool rows = is_rows(op), scalar = is_scalar(op);
    if (!scalar) need_vector(s, rows, icb1, itile1, b);
    for (uint32_t i = 0; i < kTileElems; ++i) {
        d[i] = apply(op, a[i], scalar ? b[0] : rows ? b[i % 32] : b[(i / 32) * 32]);
    }
    finish_math(c, d);
    s.core.counters[kEltwiseTiles] += 1;
}

}  // namespace

namespace kapi {

void add_bcast_cols_init(uint32_t a, uint32_t b) { bcast_init("add_bcast_cols_init", FpuOp::AddBcastCols, a, b); }
void sub_bcast_cols_init(uint32_t a, uint32_t b) { bcast_init("sub_bcast_cols_init", FpuOp::SubBcastCols, a, b); }
void mul_bcast_cols_init(uint32_t a, uint32_t b) { bcast_init("mul_bcast_cols_init", FpuOp::MulBcastCols, a, b); }
void add_bcast_cols_init_short(uint32_t a, uint32_t b) {
    bcast_init("add_bcast_cols_init_short", FpuOp::AddBcastCols, a, b);
}
void sub_bcast_cols_init_short(uint32_t a, uint32_t b) {
    bcast_init("sub_bcast_cols_init_short", FpuOp::SubBcastCols, a, b);
}
void mul_bcast_cols_init_short(uint32_t a, uint32_t b) {
    bcast_init("mul_bcast_cols_init_short", FpuOp::MulBcastCols, a, b);
}
void add_tiles_bcast_cols(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("add_tiles_bcast_cols", FpuOp::AddBcastCols, a, b, i, j, d);
}
void sub_tiles_bcast_cols(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("sub_tiles_bcast_cols", FpuOp::SubBcastCols, a, b, i, j, d);
}
void mul_tiles_bcast_cols(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("mul_tiles_bcast_cols", FpuOp::MulBcastCols, a, b, i, j, d);
}
void add_bcast_rows_init(uint32_t a, uint32_t b) { bcast_init("add_bcast_rows_init", FpuOp::AddBcastRows, a, b); }
void mul_bcast_rows_init(uint32_t a, uint32_t b) { bcast_init("mul_bcast_rows_init", FpuOp::MulBcastRows, a, b); }
void add_bcast_rows_init_short(uint32_t a, uint32_t b) {
    bcast_init("add_bcast_rows_init_short", FpuOp::AddBcastRows, a, b);
}
void mul_bcast_rows_init_short(uint32_t a, uint32_t b) {
    bcast_init("mul_bcast_rows_init_short", FpuOp::MulBcastRows, a, b);
}
void add_tiles_bcast_rows(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("add_tiles_bcast_rows", FpuOp::AddBcastRows, a, b, i, j, d);
}
void mul_tiles_bcast_rows(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("mul_tiles_bcast_rows", FpuOp::MulBcastRows, a, b, i, j, d);
}

void add_bcast_scalar_init(uint32_t a, uint32_t b) { bcast_init("add_bcast_scalar_init", FpuOp::AddBcastScalar, a, b); }
void sub_bcast_scalar_init(uint32_t a, uint32_t b) { bcast_init("sub_bcast_scalar_init", FpuOp::SubBcastScalar, a, b); }
void mul_bcast_scalar_init(uint32_t a, uint32_t b) { bcast_init("mul_bcast_scalar_init", FpuOp::MulBcastScalar, a, b); }
void add_bcast_scalar_init_short(uint32_t a, uint32_t b) {
    bcast_init("add_bcast_scalar_init_short", FpuOp::AddBcastScalar, a, b);
}
void sub_tiles_bcast_scalar_init_short(uint32_t a, uint32_t b) {
    bcast_init("sub_tiles_bcast_scalar_init_short", FpuOp::SubBcastScalar, a, b);
}
void mul_tiles_bcast_scalar_init_short(uint32_t a, uint32_t b) {
    bcast_init("mul_tiles_bcast_scalar_init_short", FpuOp::MulBcastScalar, a, b);
}
void add_tiles_bcast_scalar(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("add_tiles_bcast_scalar", FpuOp::AddBcastScalar, a, b, i, j, d);
}
void sub_tiles_bcast_scalar(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("sub_tiles_bcast_scalar", FpuOp::SubBcastScalar, a, b, i, j, d);
}
void mul_tiles_bcast_scalar(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) {
    bcast("mul_tiles_bcast_scalar", FpuOp::MulBcastScalar, a, b, i, j, d);
}

}  // namespace kapi
}  // namespace tt_emu
