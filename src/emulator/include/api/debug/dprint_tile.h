// tt_emu: tt-metal's api/debug/dprint_tile.h: `DPRINT << TSLICE(cb, tile, SliceRange::h0_32_w0()) << ENDL();`
// (`DPRINT("{}\n", TSLICE(...));` in the profiles whose DPRINT takes a format, as ttnn 0.81.1's dprint_tile.h says)
// prints a slice of tile `tile` of a CB, read at the CB's read pointer (after cb_wait_front) or write pointer
// (after cb_reserve_back): in a compute kernel DPRINT_UNPACK reads the front, DPRINT_PACK the back, and DPRINT_MATH
// prints tt-metal's warning (the math RISC cannot see CBs); a data-movement kernel names the CB's side
// (TSLICE_INPUT_CB / TSLICE_OUTPUT_CB) and the pointer (TSLICE_RD_PTR / TSLICE_WR_PTR; NCRISC defaults to the
// write pointer, BRISC to the read pointer). As tt-metal's print server does, the values of a row are separated
// by spaces and each row ends the line (endl_rows); at most MAX_BYTES of data are printed (TSLICE: 64 bytes, so
// 32 bfloat16 values), then "<TileSlice data truncated due to exceeding max count (N)>".
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "api/debug/dprint.h"
#include "hostdevcommon/dprint_common.h"

using dprint_tslice_ptr_t = bool;
#define TSLICE_RD_PTR true
#define TSLICE_WR_PTR false
using dprint_tslice_cb_t = bool;
#define TSLICE_INPUT_CB true
#define TSLICE_OUTPUT_CB false

namespace tt_emu::kapi::detail {
// ptr: 0 the read pointer, 1 the write pointer, -1 as the calling TRISC sees the CB (compute kernels).
void dprint_tile_slice(uint32_t cb, int tile, const SliceRange& range, int ptr, bool endl_rows, bool untilized,
                       uint32_t max_bytes);
std::string tile_slice_text(uint32_t cb, int tile, const SliceRange& range, int ptr, bool endl_rows, bool untilized,
                            uint32_t max_bytes);  // what dprint_tile_slice prints, its rows ended by '\n'
}  // namespace tt_emu::kapi::detail

template <int MAX_BYTES = 64>
struct TileSlice {
    TileSlice(uint8_t cb_id, int tile_idx, const SliceRange& slice_range,
#if defined(COMPILE_FOR_NCRISC)
              dprint_tslice_cb_t /*cb_type*/, dprint_tslice_ptr_t ptr_type = TSLICE_WR_PTR,
#elif defined(COMPILE_FOR_BRISC)
              dprint_tslice_cb_t /*cb_type*/, dprint_tslice_ptr_t ptr_type = TSLICE_RD_PTR,
#endif
              bool endl_rows_ = true, bool print_untilized_ = true)
        : cb(cb_id), tile(tile_idx), range(slice_range),
#if defined(COMPILE_FOR_NCRISC) || defined(COMPILE_FOR_BRISC)
          ptr(ptr_type == TSLICE_RD_PTR ? 0 : 1),
#else
          ptr(-1),
#endif
          endl_rows(endl_rows_), untilized(print_untilized_) {
    }
    uint8_t cb;
    int tile;
    SliceRange range;
    int ptr;
    bool endl_rows, untilized;
};
using TSLICE = TileSlice<64>;

namespace tt_emu::kapi::detail {
template <int MAX_BYTES>
const DebugPrinter& operator<<(const DebugPrinter& printer, const TileSlice<MAX_BYTES>& slice) {
    dprint_tile_slice(slice.cb, slice.tile, slice.range, slice.ptr, slice.endl_rows, slice.untilized, MAX_BYTES);
    return printer;
}
}  // namespace tt_emu::kapi::detail

template <int MAX_BYTES>  // a DPRINT(format, ...) argument: the slice's text
std::ostream& operator<<(std::ostream& os, const TileSlice<MAX_BYTES>& slice) {
    return os << ::tt_emu::kapi::detail::tile_slice_text(slice.cb, slice.tile, slice.range, slice.ptr,
                                                         slice.endl_rows, slice.untilized, MAX_BYTES);
}
