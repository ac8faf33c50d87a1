// The fp32 product of two row-major 32x32 tiles, accumulated into DST: the emulator's hottest loop (a GEMM is
// one call per tile product). Built at -O3 with -ffp-contract=off (CMakeLists.txt) and cloned per x86 ISA, so
// it runs 8- or 16-wide where the CPU allows. Each element still sums its products in k order, with a rounded
// multiply and a rounded add (no fused multiply-add), so every clone gives the same bits as the scalar loop.
// Four output rows are computed per pass over k: their partial sums (8 vectors at AVX-512) stay in registers
// while each row of b is loaded once for the four, instead of a load and store of the partial row per product
// (0.59 us per tile product instead of 1.9 at AVX-512; benchmarks/bench_tt_emulate.py's 2048^3 GEMM).
#include "tile.hpp"

namespace tt_emu {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void tile_matmul_acc(const float* a, const float* b, float* d) {
    constexpr uint32_t kRows = 4;  // more rows spill the AVX2 registers (16 ymm)
    for (uint32_t i0 = 0; i0 < 32; i0 += kRows) {
        float p[kRows][32] = {};
        for (uint32_t k = 0; k < 32; ++k) {
            const float* bk = b + k * 32;
            for (uint32_t r = 0; r < kRows; ++r) {
                const float aik = a[(i0 + r) * 32 + k];
                for (uint32_t j = 0; j < 32; ++j) p[r][j] += aik * bk[j];
            }
        }
        for (uint32_t r = 0; r < kRows; ++r) {
            for (uint32_t j = 0; j < 32; ++j) d[(i0 + r) * 32 + j] += p[r][j];  // DST accumulates
        }
    }
}

}  // namespace tt_emu
