// tt_emu: tt-metal's hostdevcommon/dprint_common.h as kernels use it: SliceRange, the numpy-style slice
// [h0:h1:hs, w0:w1:ws] of a tile that TSLICE (api/debug/dprint_tile.h) prints, with tt-metal's named slices.
#pragma once

#include <cstdint>

struct SliceRange {
    uint8_t h0, h1, hs, w0, w1, ws;
    static SliceRange hw0_32_16() { return SliceRange{0, 32, 16, 0, 32, 16}; }  // [0:32:16, 0:32:16]
    static SliceRange hw0_32_8() { return SliceRange{0, 32, 8, 0, 32, 8}; }     // [0:32:8, 0:32:8]
    static SliceRange hw0_32_4() { return SliceRange{0, 32, 4, 0, 32, 4}; }     // [0:32:4, 0:32:4]
    static SliceRange h0_w0_32() { return SliceRange{0, 1, 1, 0, 32, 1}; }      // [0, 0:32]
    static SliceRange h0_32_w0() { return SliceRange{0, 32, 1, 0, 1, 1}; }      // [0:32, 0]
    static SliceRange h0_32_w1() { return SliceRange{0, 32, 1, 1, 2, 1}; }      // [0:32, 1]
    static SliceRange hw041() { return SliceRange{0, 4, 1, 0, 4, 1}; }          // [0:4, 0:4]
};
