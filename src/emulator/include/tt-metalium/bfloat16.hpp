// tt_emu: tt-metal's host bfloat16 (tt_metal/api/tt-metalium/bfloat16.hpp): a 16-bit value, built from any
// arithmetic value with round-to-nearest-even (NaN -> 0x7FC0), widened to float exactly; and the helper functions
// the programming examples use. Header-only here.
#pragma once

#include <bit>
#include <compare>
#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

inline uint16_t fp32_to_bf16_bits_round_to_nearest_even(float val) {
    const uint32_t bits = std::bit_cast<uint32_t>(val);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0) return 0x7FC0;
    const uint32_t rounding_bias = 0x7FFFu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>((bits + rounding_bias) >> 16);
}

class bfloat16 {
private:
    uint16_t uint16_data = 0;

public:
    constexpr bfloat16() = default;
    template <class T>
        requires std::is_arithmetic_v<T>
    bfloat16(T v) noexcept : uint16_data(fp32_to_bf16_bits_round_to_nearest_even(static_cast<float>(v))) {}

    static bfloat16 truncate(float float_num) {
        bfloat16 out;
        out.uint16_data = static_cast<uint16_t>(std::bit_cast<uint32_t>(float_num) >> 16);
        return out;
    }
    static bfloat16 from_bits(uint16_t bits) {
        bfloat16 out;
        out.uint16_data = bits;
        return out;
    }

    operator float() const { return std::bit_cast<float>(uint32_t{uint16_data} << 16); }
    float to_float() const { return static_cast<float>(*this); }
    uint16_t to_uint16() const { return uint16_data; }
    uint16_t to_packed() const { return uint16_data; }

    bool operator==(bfloat16 rhs) const { return static_cast<float>(*this) == static_cast<float>(rhs); }
    std::partial_ordering operator<=>(bfloat16 rhs) const noexcept {
        return static_cast<float>(*this) <=> static_cast<float>(rhs);
    }

    bfloat16& operator+=(bfloat16 rhs) noexcept { return *this = bfloat16(float(*this) + float(rhs)); }
    bfloat16& operator-=(bfloat16 rhs) noexcept { return *this = bfloat16(float(*this) - float(rhs)); }
    bfloat16& operator*=(bfloat16 rhs) noexcept { return *this = bfloat16(float(*this) * float(rhs)); }
    bfloat16& operator/=(bfloat16 rhs) noexcept { return *this = bfloat16(float(*this) / float(rhs)); }
    bfloat16 operator+(bfloat16 rhs) const { return bfloat16(float(*this) + float(rhs)); }
    bfloat16 operator-(bfloat16 rhs) const { return bfloat16(float(*this) - float(rhs)); }
    bfloat16 operator*(bfloat16 rhs) const { return bfloat16(float(*this) * float(rhs)); }
    bfloat16 operator/(bfloat16 rhs) const { return bfloat16(float(*this) / float(rhs)); }
};
static_assert(sizeof(bfloat16) == 2, "bfloat16 is 2 bytes, as device pages hold it");

inline std::ostream& operator<<(std::ostream& os, const bfloat16& value) { return os << static_cast<float>(value); }

inline uint32_t pack_two_bfloat16_into_uint32(std::pair<bfloat16, bfloat16> two_bfloats) {
    return uint32_t{two_bfloats.first.to_uint16()} | (uint32_t{two_bfloats.second.to_uint16()} << 16);
}

inline std::pair<bfloat16, bfloat16> unpack_two_bfloat16_from_uint32(uint32_t value) {
    return {bfloat16::from_bits(uint16_t(value & 0xFFFFu)), bfloat16::from_bits(uint16_t(value >> 16))};
}

inline std::vector<bfloat16> create_random_vector_of_bfloat16_native(size_t num_bytes, float rand_max_float, int seed,
                                                                     float offset = 0.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(0.0f, rand_max_float);
    std::vector<bfloat16> out(num_bytes / sizeof(bfloat16));
    for (auto& v : out) v = bfloat16(dist(rng) + offset);
    return out;
}

inline std::vector<uint32_t> pack_bfloat16_vec_into_uint32_vec(const std::vector<bfloat16>& data) {
    std::vector<uint32_t> out((data.size() + 1) / 2);
    for (size_t i = 0; i < data.size(); ++i) out[i / 2] |= uint32_t{data[i].to_uint16()} << (16 * (i % 2));
    return out;
}

inline std::vector<uint32_t> create_random_vector_of_bfloat16(size_t num_bytes, int rand_max_float, int seed,
                                                              float offset = 0.0f) {
    return pack_bfloat16_vec_into_uint32_vec(
        create_random_vector_of_bfloat16_native(num_bytes, float(rand_max_float), seed, offset));
}

inline std::vector<uint32_t> create_constant_vector_of_bfloat16(size_t num_bytes, float value) {
    return pack_bfloat16_vec_into_uint32_vec(std::vector<bfloat16>(num_bytes / sizeof(bfloat16), bfloat16(value)));
}

inline bfloat16 bfloat16_identity_transform(const bfloat16& input) { return input; }

inline std::vector<bfloat16> unpack_uint32_vec_into_bfloat16_vec(
    const std::vector<uint32_t>& data,
    const std::function<bfloat16(const bfloat16&)>& transform = bfloat16_identity_transform) {
    std::vector<bfloat16> out;
    out.reserve(data.size() * 2);
    for (uint32_t word : data) {
        auto [lo, hi] = unpack_two_bfloat16_from_uint32(word);
        out.push_back(transform(lo));
        out.push_back(transform(hi));
    }
    return out;
}

inline std::vector<bfloat16> create_identity_matrix(int rows, int cols, int num_ones) {
    std::vector<bfloat16> out(size_t(rows) * size_t(cols), bfloat16(0.0f));
    for (int i = 0; i < num_ones && i < rows && i < cols; ++i) out[size_t(i) * size_t(cols) + size_t(i)] = bfloat16(1.0f);
    return out;
}

// numpy's isclose: |a - b| <= atol + rtol * |b|.
inline bool is_close(float a, float b, float rtol = 0.01f, float atol = 0.001f) {
    const float diff = a > b ? a - b : b - a;
    const float mag = b < 0 ? -b : b;
    return diff <= atol + rtol * mag;
}
