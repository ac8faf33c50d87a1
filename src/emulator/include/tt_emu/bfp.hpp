// tt_emu: block-float tiles (Bfp8_b, Bfp4_b, Bfp2_b), shared by the emulator's packer and unpacker (tile.cpp) and
// the host's pack_as_bfp*_tiles / unpack_bfp*_tiles_into_float_vec (tt-metalium/bfloat8.hpp, bfloat4.hpp,
// bfloat2.hpp). The layout is tt-metal's (tech_reports/data_formats; tt_metal/impl/data_format/
// blockfloat_common.cpp): a 32x32 tile is four 16x16 faces; each face row of 16 values shares one 8-bit exponent
// (the largest of its values' bf16/fp32 exponents). A page holds the 64 exponents (face 0 rows 0..15, then faces
// 1, 2, 3), then the 1024 values in the same face-row order, each a sign bit and a mantissa of 7, 3 or 1 bits
// (the leading one explicit) packed little-endian into 32-bit words, value 0 in the lowest bits. A value's
// mantissa is its 24-bit significand shifted right by (shared exponent - its exponent), rounded to nearest-even
// to the format's width and saturated; a zero mantissa drops the sign. Only the _b formats (8-bit exponents).
#pragma once

#include <cstdint>

namespace tt_emu::bfp {

// Mantissa bits of a block-float format given by its tt::DataFormat value (Bfp8_b 6, Bfp4_b 7, Bfp2_b 15): 7, 3
// or 1; 0 for any other format.
uint32_t mantissa_bits(uint32_t format);
// Bytes of one 32x32 tile: 64 exponents + 1024 values of (mantissa_bits + 1) bits (1088, 576, 320).
uint32_t tile_bytes(uint32_t format);
// A tile given in face order (1024 fp32 values: face 0 row-major, then faces 1, 2, 3) -> one page.
void pack_faces(const float* faces, uint32_t format, uint8_t* page);
// One page -> the tile's 1024 fp32 values in face order.
void unpack_faces(const uint8_t* page, uint32_t format, float* faces);

}  // namespace tt_emu::bfp
