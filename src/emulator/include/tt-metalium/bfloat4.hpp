// tt_emu: tt-metal's host Bfp4_b conversion (tt-metalium/bfloat4.hpp; ttnn 0.81.1 exports pack_as_bfp4_tiles<T>
// and unpack_bfp4_tiles_into_float_vec in the global namespace): whole 32x32 tiles to pages of 32-bit words, back.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <tt-metalium/tile.hpp>
#include <tt_stl/span.hpp>

#include "tt_emu/bfp_host.hpp"

template <typename T>
std::vector<uint32_t> pack_as_bfp4_tiles(tt::stl::Span<const T> data, bool row_major_input, bool is_exp_a,
                                         const std::optional<tt::tt_metal::Tile>& tile = std::nullopt) {
    return tt_emu::bfp::pack_tiles<T>(7, data, row_major_input, is_exp_a, tile, "pack_as_bfp4_tiles");
}

inline std::vector<float> unpack_bfp4_tiles_into_float_vec(
    tt::stl::Span<const uint32_t> bfp4_tiles, bool row_major_output, bool is_exp_a,
    const std::optional<tt::tt_metal::Tile>& tile = std::nullopt) {
    return tt_emu::bfp::unpack_tiles(7, bfp4_tiles, row_major_output, is_exp_a, tile,
                                     "unpack_bfp4_tiles_into_float_vec");
}
