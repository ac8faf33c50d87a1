// TSLICE (api/debug/dprint_tile.h): a slice of one tile of a CB, printed as tt-metal's debug print server prints a
// TileSlice: the values of a row separated by spaces (floats as an ostream prints them), each row ending the line
// when endl_rows, truncated after max_bytes of data with its message; the math TRISC gets tt-metal's warning.
#include <cstdint>
#include <sstream>
#include <string>

#include "api/debug/dprint_tile.h"
#include "emu.hpp"
#include "tile.hpp"

namespace tt_emu::kapi::detail {
namespace {

uint32_t datum_bytes(tt::DataFormat format) {  // what tt-metal's TileSlice stores per value
    switch (format) {
        case tt::DataFormat::Float32: return 4;
        case tt::DataFormat::Float16_b:
        case tt::DataFormat::Bfp8_b:
        case tt::DataFormat::Bfp4_b: return 2;  // bfp: the mantissa byte and the shared exponent
        default: return 0;                      // not printed by tt-metal's TileSlice either
    }
}

// Row-major index of the value at memory position h * 32 + w of a tiled page (four 16x16 faces in order).
uint32_t tiled_position(uint32_t h, uint32_t w) {
    const uint32_t p = h * 32 + w, face = p / 256, in_face = p % 256;
    return (face / 2 * 16 + in_face / 16) * 32 + face % 2 * 16 + in_face % 16;
}

void emit(const std::string& text) {  // a "\n" ends the DPRINT line, as on tt-metal's prefixed output
    size_t start = 0;
    for (size_t nl = text.find('\n'); nl != std::string::npos; start = nl + 1, nl = text.find('\n', start)) {
        dprint_text(text.substr(start, nl - start).c_str());
        dprint_end();
    }
    dprint_text(text.substr(start).c_str());
}

}  // namespace

std::string tile_slice_text(uint32_t cb_id, int tile, const SliceRange& range, int ptr, bool endl_rows, bool untilized,
                            uint32_t max_bytes) {
    std::ostringstream out;
    {
        Session s = enter("TSLICE", {cb_id, tile});
        const int risc = s.t.dprint_risc;
        if (s.t.spec->kind == KernelKind::Compute && risc == 3) {
            out << "Warning: MATH core does not support TileSlice printing, omitting print...\n";
        } else {
            Cb& cb = cb_of(s, cb_id);
            const bool write_side = ptr == 1 || (ptr == -1 && risc == 4);  // PACK sees the back, UNPACK the front
            const uint32_t page = (write_side ? cb.wr_page() : cb.rd_page()) + static_cast<uint32_t>(tile);
            const uint32_t bytes = datum_bytes(cb.format);
            if (tile < 0 || page >= cb.capacity) {
                out << "Tried printing CB " << cb_id << ": BAD TILE POINTER (tile " << tile << " of "
                    << cb.capacity << " pages)\n";
            } else if (bytes == 0) {
                out << "Tried printing CB " << cb_id << ": Unsupported data format (" << format_name(cb.format)
                    << ")\n";
            } else {
                float values[32 * 32];
                unpack_tile(&s.core.l1[cb.page_addr(page)], cb.format, values);
                const uint32_t count = max_bytes / bytes;
                uint32_t i = 0;
                for (uint32_t h = range.h0; h < range.h1; h += range.hs) {
                    bool truncated = false;
                    for (uint32_t w = range.w0; w < range.w1; w += range.ws, ++i) {
                        if (i >= count) {
                            truncated = true;
                            break;
                        }
                        out << values[untilized ? h * 32 + w : tiled_position(h, w)];
                        if (w + range.ws < range.w1) out << ' ';
                    }
                    if (truncated) {
                        out << "<TileSlice data truncated due to exceeding max count (" << count << ")>\n";
                        break;
                    }
                    if (endl_rows) out << '\n';
                }
            }
        }
    }
    return out.str();
}

void dprint_tile_slice(uint32_t cb_id, int tile, const SliceRange& range, int ptr, bool endl_rows, bool untilized,
                       uint32_t max_bytes) {
    emit(tile_slice_text(cb_id, tile, range, ptr, endl_rows, untilized, max_bytes));
}

}  // namespace tt_emu::kapi::detail
