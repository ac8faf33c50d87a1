// Tile math of the emulator (tile.cpp, tile_matmul.cpp): supported tile formats, page sizes, bf16 rounding, and the conversion of
// a tiled page (four 16x16 faces) to and from a row-major fp32 tile.
#pragma once

#include <cstring>

#include "emu.hpp"

namespace tt_emu {

bool tile_format_supported(DataFormat format);
// Int32, UInt32, UInt16, UInt8: DST holds an element's bits (an unsigned narrower one zero-extended) in 32-bit DST,
// which copies, transposes and packs move unchanged; the packer writes the low bytes.
bool integer_format(DataFormat format);
// Bfp8_b, Bfp4_b, Bfp2_b: tiles of face rows sharing an exponent (tt_emu/bfp.hpp); DST holds their values as fp32.
bool block_float(DataFormat format);
uint32_t datum_bytes(DataFormat format);
uint32_t tile_bytes(DataFormat format);
// Round-to-nearest-even to bf16 (a NaN stays a quiet NaN), as packing to Float16_b and reading back would; branch-free
// and inline so that the loops over a tile that call it vectorise.
inline float round_to_bf16(float value) {
    uint32_t u;
    std::memcpy(&u, &value, 4);
    const uint32_t nan = (u & 0xffff0000u) | 0x00400000u;
    const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    const uint32_t bits = (u & 0x7fffffffu) > 0x7f800000u ? nan : rounded;
    std::memcpy(&value, &bits, 4);
    return value;
}
// Round-to-nearest-even to IEEE fp16 (subnormals kept, overflow to infinity), as a 16-bit DST in FP16 mode holds a
// math result (tt-isa-documentation WormholeB0 ELWADD/MVMUL functional model: Dst16b = RoundToFP16(Result) when
// SrcA is FP16-style; tt-metal jit_build/data_format.cpp unpacks a Float16 CB to a Float16 DST).
float round_to_fp16(float value);
// What unpack_tile saw of a tile's fp32 values, for the tile product's choice of loop (tile_matmul.cpp): the OR of
// their bits (low bits set for Float32 tiles, whose values are not looked at), the largest absolute value's bits and
// the smallest nonzero one's minus one (UINT32_MAX when every value is zero).
struct TileBits {
    uint32_t any = 0, max_abs = 0, min_abs_m1 = UINT32_MAX;
};
TileBits unpack_tile(const uint8_t* page, DataFormat format, float* out);  // tiled page -> row-major fp32
// The same, into a small cache of the calling OS thread keyed by the page's host address and checked against a
// copy of its bytes (so exact whatever wrote the page since); returns the cached tile, valid until the next call,
// which never evicts `keep` (a tile an earlier call returned and the caller still reads).
const float* unpack_tile_cached(const uint8_t* page, DataFormat format, TileBits& seen, const float* keep);
void pack_tile_data(const float* in, DataFormat format, uint8_t* page);  // row-major fp32 -> tiled page
// Row-major data (32 rows of `width` elements, `format`) <-> a row-major fp32 tile: columns [col0, col0 + 32).
void unpack_rows(const uint8_t* rows, DataFormat format, uint32_t width, uint32_t col0, float* out);
void pack_rows(const float* in, DataFormat format, uint32_t width, uint32_t col0, uint8_t* rows);
// Math fidelity (fidelity.cpp; MathFidelity values LoFi 0, HiFi2 2, HiFi3 3, HiFi4 4): a product of a SrcA and a
// SrcB value as the fidelity's phases sum it, and d += srcb @ srca of row-major tiles so (below HiFi4 only).
float fidelity_product(float srca, float srcb, int fidelity);
void fidelity_matmul_acc(const float* srcb, const float* srca, float* d, int fidelity);
// Whether every product of a value of tile a and one of tile b is exact in fp32 (tile_matmul.cpp).
bool products_exact(const TileBits& a, const TileBits& b);
// d += a @ b for row-major fp32 tiles (tile_matmul.cpp); `exact`: products_exact of the two.
void tile_matmul_acc(const float* a, const float* b, float* d, bool exact);

}  // namespace tt_emu
