// Sanitizer: CB pages written since reserve, and the operand CBs of tile math (see sanitize.hpp).
#include <algorithm>
#include <cstring>
#include <string>

#include "sanitize.hpp"

namespace tt_emu {

namespace {

// What a freshly reserved page holds until something writes it. 0xA5 bytes are a small negative number in every
// tile format (bf16 -2.9e-16, fp32 -2.9e-16), so a page pushed unwritten also spoils results visibly.
constexpr uint8_t kPoison = 0xA5;

bool still_poisoned(const Core& core, const Cb& cb, uint32_t page) {
    const uint8_t* bytes = &core.l1[cb.page_addr(page)];
    return std::all_of(bytes, bytes + cb.page_bytes, [](uint8_t b) { return b == kPoison; });
}

bool math_with_operands(FpuOp op) {
    return op == FpuOp::Matmul || op == FpuOp::Add || op == FpuOp::Sub || op == FpuOp::Mul ||
           op == FpuOp::AddBcastCols || op == FpuOp::SubBcastCols || op == FpuOp::MulBcastCols ||
           op == FpuOp::AddBcastRows || op == FpuOp::MulBcastRows;
}

}  // namespace

void pages_reserved(Core& core, Cb& cb, uint32_t first, uint32_t count) {
    if (cb.written.size() != cb.capacity) cb.written.assign(cb.capacity, 0);
    for (uint32_t p = first; p < first + count; ++p) {
        cb.written[p] = 0;
        std::memset(&core.l1[cb.page_addr(p)], kPoison, cb.page_bytes);
    }
}

void l1_written(Core& core, uint32_t addr, uint32_t size, uint8_t content, uint32_t source_page_bytes) {
    for (Cb& cb : core.cbs) {
        if (!cb.configured || cb.reserved == 0 || cb.written.size() != cb.capacity) continue;
        for (uint32_t p = cb.wr_page(); p < cb.wr_page() + cb.reserved; ++p) {
            const uint32_t start = cb.page_addr(p);
            if (addr < start + cb.page_bytes && start < addr + size) {
                const bool rows = size < cb.page_bytes && source_page_bytes < cb.page_bytes;
                cb.written[p] = content ? content : rows ? 2 : 1;
            }
        }
    }
}

void need_page_content(Session& s, const Cb& cb, uint32_t first, uint32_t count, bool rows) {
    if (cb.written.size() != cb.capacity) return;
    for (uint32_t i = first; i < first + count; ++i) {
        const uint8_t held = cb.written[(cb.rd_page() + i) % cb.capacity];
        if (held == 0 || (held == 2) == rows) continue;
        fail(s, std::string(s.t.call.name) + " reads page " + std::to_string(i) + " of CB " + std::to_string(cb.index) +
                    (rows ? ", which holds a tile, not row-major rows: tilize_block's input is 32 rows of the block's "
                            "width per tile row (read by rows from a row-major tensor)"
                          : ", which holds row-major rows (read by rows from a row-major tensor, or untilized), not a "
                            "tile: tilize them first (tilize_block)"));
    }
}

void need_written_pages(Session& s, const Cb& cb, uint32_t count) {
    if (cb.written.size() != cb.capacity) return;  // nothing reserved through cb_reserve_back yet
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t p = cb.wr_page() + i;
        if (cb.written[p] || !still_poisoned(s.core, cb, p)) continue;
        fail(s, "page " + std::to_string(i) + " of the " + std::to_string(count) + " pushed pages of CB " +
                    std::to_string(cb.index) + " was not written since cb_reserve_back: no NoC read or multicast "
                    "landed in it, no pack_tile wrote it and no store through get_write_ptr changed it (the "
                    "consumer would read stale data)");
    }
}

void need_init_operands(Session& s, const ComputeState& c, FpuOp op, uint32_t cb0, uint32_t cb1) {
    if (!math_with_operands(op) || (cb0 == c.fpu_cb[0] && cb1 == c.fpu_cb[1])) return;
    fail(s, std::string(s.t.call.name) + " reads CBs " + std::to_string(cb0) + " and " + std::to_string(cb1) +
                ", but its last init configured the unpacker for CBs " + std::to_string(c.fpu_cb[0]) + " and " +
                std::to_string(c.fpu_cb[1]) + " (operands swapped, or an init for other CBs is missing)");
}

}  // namespace tt_emu
