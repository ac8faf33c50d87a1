// Math fidelity (tt-metal tech_reports/matrix_engine/matrix_engine.md, "Math Fidelity"): the matrix unit's multipliers
// are 5 x 7 bits. A product takes up to four phases: SrcA's hidden bit and 4 most significant mantissa bits (its
// "hi" part) or its next 4 bits ("lo"), times SrcB's hidden bit and 6 most significant mantissa bits ("hi") or its
// next 6 ("lo"). LoFi runs A.hi x B.hi; HiFi2 adds A.lo x B.hi; HiFi3 adds A.hi x B.lo; HiFi4 adds A.lo x B.lo. A
// part is the operand with its significand truncated, so a phase sum is a product of truncated operands. Matmul,
// element-wise multiplication and sum reductions use it (add, sub and max reductions do not). HiFi4 covers the
// 8-bit significands of bf16 whole, and the emulator keeps its exact product for it.
#include <cstring>
#include <vector>

#include "tile.hpp"

namespace tt_emu {

namespace {

// `x` with only the top `bits` significand bits (the hidden bit included) kept, the rest truncated.
float keep_bits(float x, int bits) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    u &= ~((1u << (24 - bits)) - 1u);
    std::memcpy(&x, &u, 4);
    return x;
}

constexpr int kAHi = 5, kA = 9, kBHi = 7, kB = 13;  // significand bits of SrcA's and SrcB's phase parts

void keep_tile(const float* in, int bits, float* out) {
    for (uint32_t i = 0; i < kTileElems; ++i) out[i] = keep_bits(in[i], bits);
}

}  // namespace

float fidelity_product(float srca, float srcb, int fidelity) {
    const float a_hi = keep_bits(srca, kAHi), a = keep_bits(srca, kA), b_hi = keep_bits(srcb, kBHi);
    switch (fidelity) {
        case 0: return a_hi * b_hi;
        case 2: return a * b_hi;
        case 3: return a * b_hi + a_hi * (keep_bits(srcb, kB) - b_hi);
        default: return srca * srcb;
    }
}

void fidelity_matmul_acc(const float* srcb, const float* srca, float* d, int fidelity) {
    std::vector<float> x(kTileElems), y(kTileElems), z(kTileElems);
    keep_tile(srcb, kBHi, x.data());
    keep_tile(srca, fidelity == 0 ? kAHi : kA, y.data());
    tile_matmul_acc(x.data(), y.data(), d, false);  // A.hi (LoFi) or A.hi + A.lo, times B.hi
    if (fidelity != 3) return;
    keep_tile(srcb, kB, z.data());
    for (uint32_t i = 0; i < kTileElems; ++i) z[i] -= x[i];  // B.lo
    keep_tile(srca, kAHi, y.data());
    tile_matmul_acc(z.data(), y.data(), d, false);  // + A.hi x B.lo
}

}  // namespace tt_emu
