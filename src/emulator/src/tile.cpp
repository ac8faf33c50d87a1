// Tile data: the tiled 32x32 / 4-face page layout and conversions between CB data formats and fp32.
// Rounding is round-to-nearest-even everywhere (the packer's default), NaN stays NaN.
#include <algorithm>
#include <cstring>
#include <memory>

#include "tile.hpp"
#include "tt_emu/bfp.hpp"

namespace tt_emu {

namespace {

// The tiled page is four 16x16 faces (top-left, top-right, bottom-left, bottom-right), each row-major: face row
// `fr` of face `f` is 16 contiguous page elements, and 16 contiguous row-major elements of the tile. The
// conversions run over these 64 runs with the format chosen once per tile, so that the compiler vectorises them.
constexpr uint32_t kFaceRows = 16;
constexpr uint32_t kRuns = 4 * kFaceRows;

// Row-major index of the first element of run `n` (= face * 16 + row in face); its page index is n * 16.
constexpr uint32_t run_start(uint32_t n) {
    const uint32_t face = n / kFaceRows, row = n % kFaceRows;
    return ((face / 2) * kFaceRows + row) * 32 + (face % 2) * kFaceRows;
}

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

// Branch-free (a select), so that loops over a tile vectorise.
inline uint16_t to_bf16(float f) {
    const uint32_t u = bits_of(f);
    const uint32_t nan = (u >> 16) | 0x40u;  // quiet NaN
    const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    return static_cast<uint16_t>((u & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
}

inline float from_bf16(uint16_t h) { return float_of(static_cast<uint32_t>(h) << 16); }

// IEEE binary16, with subnormals; overflow rounds to infinity.
uint16_t to_fp16(float f) {
    const uint32_t u = bits_of(f);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    const uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
    const int exp = static_cast<int>(abs >> 23) - 127;
    if (exp >= -14) {  // normal half
        const uint32_t mant = abs & 0x7fffffu;
        uint32_t h = (static_cast<uint32_t>(exp + 15) << 10) | (mant >> 13);
        const uint32_t rest = mant & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    if (exp < -25) return sign;  // below half the smallest subnormal
    // Subnormal half: value = m * 2^-24 with m = (1.mant) * 2^(exp + 24).
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const int shift = -exp - 14 + 13;  // 14..24
    uint32_t h = mant >> shift;
    const uint32_t rest = mant & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
}

float from_fp16(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return float_of(sign | 0x7f800000u | (mant << 13));
    if (exp != 0) return float_of(sign | ((exp + 112) << 23) | (mant << 13));
    const float value = static_cast<float>(mant) * (1.0f / 16777216.0f);  // mant * 2^-24
    return sign ? -value : value;
}

}  // namespace

float round_to_fp16(float value) { return from_fp16(to_fp16(value)); }

const char* format_name(DataFormat format) {
    switch (format) {
        case DataFormat::Float32: return "Float32";
        case DataFormat::Float16: return "Float16";
        case DataFormat::Bfp8: return "Bfp8";
        case DataFormat::Bfp4: return "Bfp4";
        case DataFormat::Tf32: return "Tf32";
        case DataFormat::Float16_b: return "Float16_b";
        case DataFormat::Bfp8_b: return "Bfp8_b";
        case DataFormat::Bfp4_b: return "Bfp4_b";
        case DataFormat::Bfp2_b: return "Bfp2_b";
        case DataFormat::Int32: return "Int32";
        case DataFormat::UInt16: return "UInt16";
        case DataFormat::UInt32: return "UInt32";
        case DataFormat::UInt8: return "UInt8";
        case DataFormat::Int8: return "Int8";
        default: return "Invalid";
    }
}

bool tile_format_supported(DataFormat format) {
    return format == DataFormat::Float32 || format == DataFormat::Float16 || format == DataFormat::Float16_b ||
           integer_format(format) || block_float(format);
}

bool block_float(DataFormat format) { return bfp::mantissa_bits(static_cast<uint32_t>(format)) != 0; }

bool integer_format(DataFormat format) {
    return format == DataFormat::Int32 || format == DataFormat::UInt32 || format == DataFormat::UInt16 ||
           format == DataFormat::UInt8;
}

uint32_t datum_bytes(DataFormat format) {
    switch (format) {
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32: return 4;
        case DataFormat::UInt8: return 1;
        default: return 2;
    }
}

uint32_t tile_bytes(DataFormat format) {
    return block_float(format) ? bfp::tile_bytes(static_cast<uint32_t>(format)) : kTileElems * datum_bytes(format);
}

namespace {

// An integer element as DST holds it (32-bit DST): its bits, an unsigned narrower element zero-extended; and back.
inline float int_to_dst(const uint8_t* from, uint32_t bytes) {
    uint32_t u = 0;
    std::memcpy(&u, from, bytes);  // little-endian, as the device's L1
    return float_of(u);
}

inline void dst_to_int(float value, uint32_t bytes, uint8_t* to) {
    const uint32_t u = bits_of(value);
    std::memcpy(to, &u, bytes);  // the low bytes
}

}  // namespace

// A block-float page: its values in face order, placed row-major; what the tile product's choice of loop needs.
TileBits unpack_bfp_tile(const uint8_t* page, DataFormat format, float* out) {
    float faces[kTileElems];
    bfp::unpack_faces(page, static_cast<uint32_t>(format), faces);
    TileBits seen;
    for (uint32_t n = 0; n < kRuns; ++n) {
        for (uint32_t c = 0; c < kFaceRows; ++c) {
            const uint32_t u = bits_of(faces[n * kFaceRows + c]), abs = u & 0x7fffffffu;
            out[run_start(n) + c] = faces[n * kFaceRows + c];
            seen.any |= u;
            seen.max_abs = std::max(seen.max_abs, abs);
            seen.min_abs_m1 = std::min(seen.min_abs_m1, abs - 1u);
        }
    }
    return seen;
}

// Cloned per x86 ISA like the tile product: a run of 16 bf16 values is a widening shift and a store at AVX-512.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
TileBits unpack_tile(const uint8_t* page, DataFormat format, float* out) {
    if (block_float(format)) return unpack_bfp_tile(page, format, out);
    if (integer_format(format)) {
        const uint32_t bytes = datum_bytes(format);
        for (uint32_t n = 0; n < kRuns; ++n) {
            for (uint32_t c = 0; c < kFaceRows; ++c) out[run_start(n) + c] = int_to_dst(page + (n * kFaceRows + c) * bytes, bytes);
        }
        return TileBits{0xffffffffu, 0, UINT32_MAX};
    }
    if (format == DataFormat::Float32) {
        for (uint32_t n = 0; n < kRuns; ++n) std::memcpy(out + run_start(n), page + n * kFaceRows * 4, kFaceRows * 4);
        return TileBits{0xffffffffu, 0, UINT32_MAX};
    }
    // Per lane of a run, so that the loops stay one vector wide: OR, largest |value|, smallest nonzero |value| - 1.
    uint32_t any[kFaceRows] = {}, max_abs[kFaceRows] = {}, min_abs_m1[kFaceRows];
    for (uint32_t c = 0; c < kFaceRows; ++c) min_abs_m1[c] = UINT32_MAX;
    auto runs = [&](auto bits_of_half) {
        for (uint32_t n = 0; n < kRuns; ++n) {
            float* __restrict__ to = out + run_start(n);
            uint16_t h[kFaceRows];
            std::memcpy(h, page + n * kFaceRows * 2, sizeof h);
            for (uint32_t c = 0; c < kFaceRows; ++c) {
                const uint32_t u = bits_of_half(h[c]);
                const uint32_t abs = u & 0x7fffffffu;
                to[c] = float_of(u);
                any[c] |= u;
                max_abs[c] = std::max(max_abs[c], abs);
                min_abs_m1[c] = std::min(min_abs_m1[c], abs - 1u);  // a zero wraps to UINT32_MAX
            }
        }
    };
    if (format == DataFormat::Float16_b) {
        runs([](uint16_t h) { return static_cast<uint32_t>(h) << 16; });
    } else {
        runs([](uint16_t h) { return bits_of(from_fp16(h)); });
    }
    TileBits seen;
    for (uint32_t c = 0; c < kFaceRows; ++c) {
        seen.any |= any[c];
        seen.max_abs = std::max(seen.max_abs, max_abs[c]);
        seen.min_abs_m1 = std::min(seen.min_abs_m1, min_abs_m1[c]);
    }
    return seen;
}

namespace {

struct Unpacked {
    const uint8_t* page = nullptr;  // host address in a core's L1; nullptr: free
    DataFormat format = DataFormat::Invalid;
    TileBits seen;
    alignas(64) uint8_t bytes[4096];  // the page as unpacked
    alignas(64) float tile[kTileElems];
};
constexpr uint32_t kCached = 4;  // a 2x2 block of tile products reads 4 distinct operand tiles
thread_local std::unique_ptr<Unpacked[]> t_unpacked;
thread_local uint32_t t_victim = 0;

}  // namespace

const float* unpack_tile_cached(const uint8_t* page, DataFormat format, TileBits& seen, const float* keep) {
    if (!t_unpacked) t_unpacked = std::make_unique<Unpacked[]>(kCached);
    const uint32_t bytes = tile_bytes(format);
    for (uint32_t i = 0; i < kCached; ++i) {
        Unpacked& u = t_unpacked[i];
        if (u.page == page && u.format == format && std::memcmp(u.bytes, page, bytes) == 0) {
            seen = u.seen;
            return u.tile;
        }
    }
    Unpacked* u = &t_unpacked[t_victim++ % kCached];
    if (u->tile == keep) u = &t_unpacked[t_victim++ % kCached];
    u->page = page;
    u->format = format;
    std::memcpy(u->bytes, page, bytes);
    u->seen = seen = unpack_tile(page, format, u->tile);
    return u->tile;
}

void pack_tile_data(const float* in, DataFormat format, uint8_t* page) {
    if (block_float(format)) {
        float faces[kTileElems];
        for (uint32_t n = 0; n < kRuns; ++n) std::memcpy(faces + n * kFaceRows, in + run_start(n), kFaceRows * 4);
        bfp::pack_faces(faces, static_cast<uint32_t>(format), page);
        return;
    }
    if (integer_format(format)) {
        const uint32_t bytes = datum_bytes(format);
        for (uint32_t n = 0; n < kRuns; ++n) {
            for (uint32_t c = 0; c < kFaceRows; ++c) dst_to_int(in[run_start(n) + c], bytes, page + (n * kFaceRows + c) * bytes);
        }
        return;
    }
    for (uint32_t n = 0; n < kRuns; ++n) {
        const float* __restrict__ from = in + run_start(n);
        uint8_t* __restrict__ to = page + n * kFaceRows * (format == DataFormat::Float32 ? 4 : 2);
        if (format == DataFormat::Float32) {
            std::memcpy(to, from, kFaceRows * 4);
            continue;
        }
        uint16_t h[kFaceRows];
        if (format == DataFormat::Float16_b) {
            for (uint32_t c = 0; c < kFaceRows; ++c) h[c] = to_bf16(from[c]);
        } else {
            for (uint32_t c = 0; c < kFaceRows; ++c) h[c] = to_fp16(from[c]);
        }
        std::memcpy(to, h, sizeof h);
    }
}

void unpack_rows(const uint8_t* rows, DataFormat format, uint32_t width, uint32_t col0, float* out) {
    const uint32_t bytes = datum_bytes(format);
    for (uint32_t r = 0; r < 32; ++r) {
        const uint8_t* from = rows + (size_t{r} * width + col0) * bytes;
        for (uint32_t c = 0; c < 32; ++c) {
            if (integer_format(format)) {
                out[r * 32 + c] = int_to_dst(from + c * bytes, bytes);
                continue;
            }
            if (format == DataFormat::Float32) {
                std::memcpy(&out[r * 32 + c], from + c * 4, 4);
                continue;
            }
            uint16_t h;
            std::memcpy(&h, from + c * 2, 2);
            out[r * 32 + c] = format == DataFormat::Float16_b ? from_bf16(h) : from_fp16(h);
        }
    }
}

void pack_rows(const float* in, DataFormat format, uint32_t width, uint32_t col0, uint8_t* rows) {
    const uint32_t bytes = datum_bytes(format);
    for (uint32_t r = 0; r < 32; ++r) {
        uint8_t* to = rows + (size_t{r} * width + col0) * bytes;
        for (uint32_t c = 0; c < 32; ++c) {
            if (integer_format(format)) {
                dst_to_int(in[r * 32 + c], bytes, to + c * bytes);
                continue;
            }
            if (format == DataFormat::Float32) {
                std::memcpy(to + c * 4, &in[r * 32 + c], 4);
                continue;
            }
            const uint16_t h = format == DataFormat::Float16_b ? to_bf16(in[r * 32 + c]) : to_fp16(in[r * 32 + c]);
            std::memcpy(to + c * 2, &h, 2);
        }
    }
}

}  // namespace tt_emu
