// The fp32 product of two row-major 32x32 tiles, accumulated into DST: the emulator's hottest loop (a GEMM is
// one call per tile product). Built at -O3 with -ffp-contract=off (CMakeLists.txt) and cloned per x86 ISA, so
// it runs 8- or 16-wide where the CPU allows. Each element still sums its products in k order, with a rounded
// multiply and a rounded add (no fused multiply-add), so every clone gives the same bits as the scalar loop.
#include "tile.hpp"

namespace tt_emu {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void tile_matmul_acc(const float* a, const float* b, float* d) {
    float p[kTileElems] = {};
    for (uint32_t i = 0; i < 32; ++i) {
        for (uint32_t k = 0; k < 32; ++k) {
            const float aik = a[i * 32 + k];
            for (uint32_t j = 0; j < 32; ++j) p[i * 32 + j] += aik * b[k * 32 + j];
        }
    }
    for (uint32_t i = 0; i < kTileElems; ++i) d[i] += p[i];  // DST accumulates
}

}  // namespace tt_emu
