// tt_emu: tt-metal's tt::tt_metal::Tile (tt-metalium/tile.hpp), the tile shape host conversions take: the emulator
// has 32x32 tiles of four 16x16 faces only, which a default Tile is.
#pragma once

#include <array>
#include <cstdint>

namespace tt::tt_metal {

class Tile {
public:
    Tile(std::array<uint32_t, 2> tile_shape = {32, 32}) : tile_shape_(tile_shape) {}
    std::array<uint32_t, 2> get_tile_shape() const { return tile_shape_; }
    std::array<uint32_t, 2> get_face_shape() const { return {16, 16}; }

private:
    std::array<uint32_t, 2> tile_shape_;
};

}  // namespace tt::tt_metal
