// Block-float tiles (tt_emu/bfp.hpp): one face row of 16 values at a time, as tt-metal's host conversion
// (blockfloat_common.cpp: get_max_exp, convert_u32_to_bfp with round-to-nearest-even, convert_bfp_to_u32) lays
// them out; the exponents are the _b formats' 8-bit ones (no rebias).
#include "tt_emu/bfp.hpp"

#include <cstring>

namespace tt_emu::bfp {

namespace {

constexpr uint32_t kRowValues = 16;   // values sharing one exponent: a face row
constexpr uint32_t kRows = 64;        // face rows of a tile (4 faces of 16)

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float float_of(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// One value as a sign and `width` mantissa bits under the shared exponent `shared`.
uint32_t encode(uint32_t u, uint32_t shared, uint32_t width) {
    if ((u & 0x7fffffffu) == 0) return 0;
    const uint32_t exp = (u >> 23) & 0xffu;
    uint32_t sign = u >> 31;
    uint32_t mant = (1u << 23) | (u & 0x7fffffu);                        // the significand with its hidden one
    const uint32_t diff = shared - exp;                                  // shared is the row's largest exponent
    mant = diff >= 32 ? 0 : mant >> diff;
    const uint32_t shift = 24 - width, tie = 1u << (shift - 1), max = (1u << width) - 1;
    const uint32_t rest = mant & ((1u << shift) - 1);
    mant >>= shift;
    if (rest > tie || (rest == tie && (mant & 1u))) ++mant;              // to nearest, ties to even
    if (mant > max) mant = max;                                          // saturated
    if (mant == 0) sign = 0;
    return (sign << width) | mant;
}

// One stored value back to fp32: normalised so that its leading one becomes the hidden bit.
uint32_t decode(uint32_t datum, uint32_t shared, uint32_t width) {
    const uint32_t sign = (datum >> width) & 1u, max = (1u << width) - 1;
    uint32_t mant = datum & max;
    if (mant == 0) return sign << 31;
    uint32_t shift = 0;
    while ((mant & (1u << (width - 1))) == 0) {
        mant <<= 1;
        ++shift;
    }
    if (shared < shift) return sign << 31;                               // no exponent left: zero
    mant = (mant << 1) & max;                                            // the leading one is hidden
    return (sign << 31) | ((shared - shift) << 23) | (mant << (23 - width));
}

}  // namespace

uint32_t mantissa_bits(uint32_t format) {
    switch (format) {
        case 6: return 7;   // Bfp8_b
        case 7: return 3;   // Bfp4_b
        case 15: return 1;  // Bfp2_b
        default: return 0;
    }
}

uint32_t tile_bytes(uint32_t format) { return kRows + kRows * kRowValues * (mantissa_bits(format) + 1) / 8; }

void pack_faces(const float* faces, uint32_t format, uint8_t* page) {
    const uint32_t width = mantissa_bits(format), bits = width + 1;
    std::memset(page, 0, tile_bytes(format));
    for (uint32_t row = 0; row < kRows; ++row) {
        uint32_t u[kRowValues], shared = 0;
        for (uint32_t c = 0; c < kRowValues; ++c) {
            u[c] = bits_of(faces[row * kRowValues + c]);
            const uint32_t exp = (u[c] >> 23) & 0xffu;
            if (exp > shared) shared = exp;
        }
        page[row] = static_cast<uint8_t>(shared);
        for (uint32_t c = 0; c < kRowValues; ++c) {
            const uint32_t at = (row * kRowValues + c) * bits;           // bit offset in the value section
            page[kRows + at / 8] |= static_cast<uint8_t>(encode(u[c], shared, width) << (at % 8));
        }
    }
}

void unpack_faces(const uint8_t* page, uint32_t format, float* faces) {
    const uint32_t width = mantissa_bits(format), bits = width + 1, mask = (1u << bits) - 1;
    for (uint32_t row = 0; row < kRows; ++row) {
        const uint32_t shared = page[row];
        for (uint32_t c = 0; c < kRowValues; ++c) {
            const uint32_t at = (row * kRowValues + c) * bits;
            const uint32_t datum = (page[kRows + at / 8] >> (at % 8)) & mask;
            faces[row * kRowValues + c] = float_of(decode(datum, shared, width));
        }
    }
}

}  // namespace tt_emu::bfp
