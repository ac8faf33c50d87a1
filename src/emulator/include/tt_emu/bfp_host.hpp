// tt_emu: the host's block-float conversions (tt-metalium/bfloat8.hpp, bfloat4.hpp): whole tiles, given in face
// order (row_major_input false: tilize_nfaces' output) or each tile row-major (true), to pages of 32-bit words and
// back. The _b formats only (is_exp_a must be false) and 32x32 tiles only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <tt-metalium/tile.hpp>
#include <tt_stl/span.hpp>

#include "tt_emu/bfp.hpp"

namespace tt_emu::bfp {

inline void check_call(const char* what, std::size_t size, std::size_t unit, bool is_exp_a,
                       const std::optional<tt::tt_metal::Tile>& tile) {
    if (is_exp_a) {
        throw std::invalid_argument(std::string(what) + ": the emulator has the _b formats only (is_exp_a false)");
    }
    if (tile && (tile->get_tile_shape()[0] != 32 || tile->get_tile_shape()[1] != 32)) {
        throw std::invalid_argument(std::string(what) + ": the emulator packs 32x32 tiles only");
    }
    if (size % unit != 0) {
        throw std::invalid_argument(std::string(what) + ": " + std::to_string(size) +
                                    " is not a whole number of tiles (" + std::to_string(unit) + " a tile)");
    }
}

// Position in face order of element (r, c) of a row-major tile.
inline std::size_t face_index(std::size_t r, std::size_t c) {
    return (r / 16 * 2 + c / 16) * 256 + r % 16 * 16 + c % 16;
}

template <typename T>
std::vector<uint32_t> pack_tiles(uint32_t format, tt::stl::Span<const T> data, bool row_major_input, bool is_exp_a,
                                 const std::optional<tt::tt_metal::Tile>& tile, const char* what) {
    check_call(what, data.size(), 1024, is_exp_a, tile);
    const std::size_t words = tile_bytes(format) / 4;
    std::vector<uint32_t> out(data.size() / 1024 * words);
    std::vector<float> faces(1024);
    for (std::size_t t = 0; t < data.size() / 1024; ++t) {
        for (std::size_t i = 0; i < 1024; ++i) {
            const float value = static_cast<float>(data[t * 1024 + i]);
            faces[row_major_input ? face_index(i / 32, i % 32) : i] = value;
        }
        pack_faces(faces.data(), format, reinterpret_cast<uint8_t*>(out.data() + t * words));
    }
    return out;
}

inline std::vector<float> unpack_tiles(uint32_t format, tt::stl::Span<const uint32_t> pages, bool row_major_output,
                                       bool is_exp_a, const std::optional<tt::tt_metal::Tile>& tile, const char* what) {
    const std::size_t words = tile_bytes(format) / 4;
    check_call(what, pages.size(), words, is_exp_a, tile);
    std::vector<float> out(pages.size() / words * 1024), faces(1024);
    for (std::size_t t = 0; t < pages.size() / words; ++t) {
        unpack_faces(reinterpret_cast<const uint8_t*>(pages.data() + t * words), format, faces.data());
        for (std::size_t i = 0; i < 1024; ++i) {
            out[t * 1024 + i] = faces[row_major_output ? face_index(i / 32, i % 32) : i];
        }
    }
    return out;
}

}  // namespace tt_emu::bfp
