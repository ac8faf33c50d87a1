// tt_emu: row-major <-> tiled layout (tt_metal/api/tt-metalium/tilize_utils.hpp subset). A tiled matrix is
// its 32x32 tiles in row-major tile order; each tile is 4 faces of 16x16 (top-left, top-right, bottom-left,
// bottom-right), row-major inside a face.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tt_emu::layout {

// Position, in the tiled vector, of element (r, c) of a matrix with `cols` columns.
inline std::size_t tiled_index(uint32_t r, uint32_t c, uint32_t cols) {
    const std::size_t tile = std::size_t{r / 32} * (cols / 32) + c / 32;
    const uint32_t tr = r % 32, tc = c % 32;
    const uint32_t face = (tr / 16) * 2 + tc / 16;
    return tile * 1024 + face * 256 + (tr % 16) * 16 + tc % 16;
}

inline void check_shape(std::size_t size, uint32_t rows, uint32_t cols, const char* what) {
    if (rows % 32 != 0 || cols % 32 != 0 || size != std::size_t{rows} * cols) {
        throw std::invalid_argument(std::string(what) + ": need a " + std::to_string(rows) + "x" +
                                    std::to_string(cols) + " matrix with both sides multiples of 32, got " +
                                    std::to_string(size) + " elements");
    }
}

}  // namespace tt_emu::layout

template <typename T>
std::vector<T> tilize_nfaces(const std::vector<T>& input, uint32_t rows, uint32_t cols) {
    tt_emu::layout::check_shape(input.size(), rows, cols, "tilize_nfaces");
    std::vector<T> out(input.size());
    for (uint32_t r = 0; r < rows; ++r) {  // a face row (16 elements) is contiguous on both sides
        for (uint32_t c = 0; c < cols; c += 16) {
            std::copy_n(&input[std::size_t{r} * cols + c], 16, &out[tt_emu::layout::tiled_index(r, c, cols)]);
        }
    }
    return out;
}

template <typename T>
std::vector<T> untilize_nfaces(const std::vector<T>& input, uint32_t rows, uint32_t cols) {
    tt_emu::layout::check_shape(input.size(), rows, cols, "untilize_nfaces");
    std::vector<T> out(input.size());
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; c += 16) {
            std::copy_n(&input[tt_emu::layout::tiled_index(r, c, cols)], 16, &out[std::size_t{r} * cols + c]);
        }
    }
    return out;
}
