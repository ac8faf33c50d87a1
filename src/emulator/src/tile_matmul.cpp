// The fp32 product of two row-major 32x32 tiles, accumulated into DST: the emulator's hottest loop (a GEMM is
// one call per tile product). Built at -O3 with -ffp-contract=off (CMakeLists.txt) and cloned per x86 ISA, so
// it runs 8- or 16-wide where the CPU allows. Each element sums its products in k order, with a rounded
// multiply and a rounded add, so every clone gives the same bits as the scalar loop.
// Four output rows are computed per pass over k: their partial sums (8 vectors at AVX-512) stay in registers
// while each row of b is loaded once for the four, instead of a load and store of the partial row per product
// (0.59 us per tile product instead of 1.9 at AVX-512; benchmarks/bench_tt_emulate.py's 2048^3 GEMM).
// An unfused multiply-add is latency-bound on the chains of adds; so is the fused one with 8 chains (4 rows).
//
// Fused multiply-add where it gives the same bits: when every product a[i][k] * b[k][j] is exact in fp32, the
// rounded product is the product itself, so round(round(a * b) + p) == round(a * b + p) == fma(a, b, p). A product
// is exact when both significands have at most 12 bits (bf16 has 8, fp16 11: any tile unpacked from those
// formats) and it is a normal number, neither overflowing nor in the subnormal range: products_exact() checks this
// for the two tiles from what unpack_tile saw of their values (no extra pass over them); Float32 tiles and tiles
// with subnormals, infinities or NaNs take the unfused loop. At AVX-512: 0.30 us per tile product instead of 0.55.
#include "tile.hpp"

namespace tt_emu {

namespace {

template <bool kFused, uint32_t kRows = 4>  // more than 4 rows spill the AVX2 registers (16 ymm)
__attribute__((always_inline)) inline void product(const float* a, const float* b, float* d) {
    for (uint32_t i0 = 0; i0 < 32; i0 += kRows) {
        float p[kRows][32] = {};
        for (uint32_t k = 0; k < 32; ++k) {
            const float* bk = b + k * 32;
            for (uint32_t r = 0; r < kRows; ++r) {
                const float aik = a[(i0 + r) * 32 + k];
                for (uint32_t j = 0; j < 32; ++j) {
                    if constexpr (kFused) {
                        p[r][j] = __builtin_fmaf(aik, bk[j], p[r][j]);
                    } else {
                        p[r][j] += aik * bk[j];
                    }
                }
            }
        }
        for (uint32_t r = 0; r < kRows; ++r) {
            for (uint32_t j = 0; j < 32; ++j) d[(i0 + r) * 32 + j] += p[r][j];  // DST accumulates
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TT_EMU_FUSED 1
__attribute__((target_clones("avx512f", "avx2", "default"))) void unfused(const float* a, const float* b, float* d) {
    product<false>(a, b, d);
}
// At AVX-512, 8 rows per pass: 16 chains of dependent fused multiply-adds keep the FMA units busy (4 rows: 0.33 us
// per tile product, 8: 0.30 us).
__attribute__((target("avx512f"))) void fused_avx512(const float* a, const float* b, float* d) {
    product<true, 8>(a, b, d);
}
__attribute__((target("avx2,fma"))) void fused_avx2(const float* a, const float* b, float* d) {
    product<true, 4>(a, b, d);
}
using Kernel = void (*)(const float*, const float*, float*);
// The fused loop of this CPU, or nullptr where it has no FMA (there fmaf would be a library call).
const Kernel kFusedKernel = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return &fused_avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &fused_avx2;
    return static_cast<Kernel>(nullptr);
}();
#else
void unfused(const float* a, const float* b, float* d) { product<false>(a, b, d); }
#endif

}  // namespace

bool products_exact(const TileBits& a, const TileBits& b) {
    // At most 12 significand bits each (unpack_tile marks Float32 tiles): the product's significand fits in 24.
    if (((a.any | b.any) & 0xfffu) != 0) return false;
    // Exponent fields: of the largest value (255: an infinity or NaN) and of the smallest nonzero one (0: a
    // subnormal, or every value zero).
    const uint32_t amax = a.max_abs >> 23, bmax = b.max_abs >> 23;
    const uint32_t amin = (a.min_abs_m1 + 1u) >> 23, bmin = (b.min_abs_m1 + 1u) >> 23;
    if (amax == 255 || bmax == 255 || amin == 0 || bmin == 0) return false;
    // Nonzero products m * 2^(ea + eb - 254), m in [1, 4): normal (exponent >= -126) and below 2^128.
    return amin + bmin >= 128 && amax + bmax <= 380;
}

void tile_matmul_acc(const float* a, const float* b, float* d, bool exact) {
#ifdef TT_EMU_FUSED
    if (exact && kFusedKernel != nullptr) {
        kFusedKernel(a, b, d);
        return;
    }
#endif
    unfused(a, b, d);
}

}  // namespace tt_emu
