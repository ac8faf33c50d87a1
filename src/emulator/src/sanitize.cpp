// Sanitizer: CB pages written since reserve, and the operand CBs of tile math (see sanitize.hpp).
#include <algorithm>
#include <cstring>
#include <string>

#include "cb_fresh.hpp"  // hold_for_l1_acc
#include "sanitize.hpp"
#include "tt_emu/device_facts.hpp"

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
           op == FpuOp::AddBcastRows || op == FpuOp::MulBcastRows || op == FpuOp::AddBcastScalar ||
           op == FpuOp::SubBcastScalar || op == FpuOp::MulBcastScalar;
}

// a happened before b: every entry of a is at most b's.
bool ordered(const Clock& a, const Clock& b) {
    for (size_t i = 0; i < a.v.size(); ++i) {
        if (a.v[i] > (i < b.v.size() ? b.v[i] : 0)) return false;
    }
    return true;
}

}  // namespace

void need_noc_alignment(Session& s, bool dram, bool read, uint32_t l1, uint64_t remote) {
    const uint32_t align = dram ? (read ? dev().noc_dram_read_alignment : dev().noc_dram_write_alignment)
                                : (read ? dev().noc_l1_read_alignment : dev().noc_l1_write_alignment);
    if ((l1 & (align - 1)) == (remote & (align - 1))) return;
    const std::string where = dram ? std::string("DRAM ") + (read ? "source" : "destination") + " (offset " +
                                         hex(remote) + " in its page)"
                                   : std::string("remote L1 ") + (read ? "source " : "destination ") + hex(remote);
    fail(s, std::string("NoC alignment: the L1 ") + (read ? "destination " : "source ") + hex(l1) + " and the " +
                where + " differ modulo " + std::to_string(align) + " B (a NoC " + (read ? "read from " : "write to ") +
                (dram ? "DRAM" : "L1") + " needs both addresses equal modulo " + std::to_string(align) +
                " B; tt-metal's watcher stops the kernel, the hardware moves misaligned data)");
}

std::string semaphore_write_race(Core& core, uint32_t id, const KernelThread& writer, bool overwrite) {
    Semaphore& sem = core.sems[id];
    const Clock& earlier = overwrite ? sem.clock : sem.last_set;
    std::string error;
    if (!ordered(earlier, writer.clock)) {
        error = std::string(overwrite ? "noc_semaphore_set" : "noc_semaphore_inc") + " of semaphore " +
                std::to_string(id) + " of core " + core_name(core.coord) + " races with " +
                (overwrite ? "an earlier write (an increment or set)" : "its last set") +
                " by a kernel this one has not synchronised with (no semaphore wait or CB handshake orders them): "
                "the schedule decides whether " + (overwrite ? "this set" : "the set") +
                " overwrites an increment (a lost increment: the waiter hangs or goes early)";
    }
    if (overwrite) sem.last_set = writer.clock;
    return error;
}

void pages_reserved(Core& core, Cb& cb, uint32_t first, uint32_t count) {
    if (cb.written.size() != cb.capacity) cb.written.assign(cb.capacity, 0);
    hold_for_l1_acc(core, cb, first, count);
    for (uint32_t p = first; p < first + count; ++p) {
        cb.written[p] = 0;
        std::memset(&core.l1[cb.page_addr(p)], kPoison, cb.page_bytes);
    }
}

void l1_written(Core& core, uint32_t addr, uint32_t size, uint8_t content, uint32_t source_page_bytes,
                uint32_t source_offset) {
    for (Cb& cb : core.cbs) {
        if (!cb.configured || cb.reserved == 0 || cb.written.size() != cb.capacity) continue;
        for (uint32_t p = cb.wr_page(); p < cb.wr_page() + cb.reserved; ++p) {
            const uint32_t start = cb.page_addr(p);
            if (addr < start + cb.page_bytes && start < addr + size) {
                // A part-page write is a run of row-major rows when its source page is smaller than the CB's, or
                // when it lands elsewhere in the page than it lay in its source (T.im2col's zero runs, taken from a
                // constant tile); a tile read in pieces lands each piece where it lay. A page once given rows stays
                // rows; a page written whole holds a tile.
                const bool part = size < cb.page_bytes;
                const bool moved = addr < start || addr - start != source_offset;
                const bool rows = part && (source_page_bytes < cb.page_bytes || moved || cb.written[p] == 2);
                cb.written[p] = content ? content : rows ? 2 : 1;
            }
        }
    }
}

namespace {

// A page reserved and pushed, but never written since its cb_reserve_back (still the reserve's poison).
bool pushed_unwritten(const Core& core, const Cb& cb, uint32_t page) {
    return cb.written[page] == 0 && still_poisoned(core, cb, page);
}

[[noreturn]] void read_unwritten(Session& s, const std::string& what, const Cb& cb, uint32_t i) {
    fail(s, what + " page " + std::to_string(i) + " of CB " + std::to_string(cb.index) + ", which its producer " +
                "pushed without writing it since cb_reserve_back: no NoC read or multicast landed in it, no pack_tile " +
                "wrote it and no store through get_write_ptr changed it (stale data; pushing such a page is legal, " +
                "as ttnn's layernorm pushes the unused tail of a block, reading it is not)");
}

}  // namespace

void need_page_content(Session& s, const Cb& cb, uint32_t first, uint32_t count, bool rows) {
    if (cb.written.size() != cb.capacity) return;
    for (uint32_t i = first; i < first + count; ++i) {
        const uint32_t page = (cb.rd_page() + i) % cb.capacity;
        if (pushed_unwritten(s.core, cb, page)) read_unwritten(s, std::string(s.t.call.name) + " reads", cb, i);
        const uint8_t held = cb.written[page];
        if (held == 0 || (held == 2) == rows) continue;
        fail(s, std::string(s.t.call.name) + " reads page " + std::to_string(i) + " of CB " + std::to_string(cb.index) +
                    (rows ? ", which holds a tile, not row-major rows: tilize_block's input is 32 rows of the block's "
                            "width per tile row (read by rows from a row-major tensor)"
                          : ", which holds row-major rows (read by rows from a row-major tensor, or untilized), not a "
                            "tile: tilize them first (tilize_block)"));
    }
}

void need_written_source(Session& s, uint32_t addr, uint32_t size) {
    for (const Cb& cb : s.core.cbs) {
        if (!cb.configured || cb.written.size() != cb.capacity) continue;
        for (uint32_t i = 0; i < cb.waited; ++i) {
            const uint32_t page = (cb.rd_page() + i) % cb.capacity, start = cb.page_addr(page);
            if (addr < start + cb.page_bytes && start < addr + size && pushed_unwritten(s.core, cb, page)) {
                read_unwritten(s, "the NoC write's source " + hex(addr) + ".." + hex(addr + size) + " is waited", cb,
                               i);
            }
        }
    }
}

void pages_pushed(Cb& cb, uint32_t count) {
    if (cb.push_end.size() != cb.capacity) cb.push_end.assign(cb.capacity, 0);
    for (uint32_t i = 0; i < count; ++i) cb.push_end[(cb.wr_page() + i) % cb.capacity] = cb.received + count;
}

void need_known_pages(Session& s, const Cb& cb, uint32_t count) {
    const uint64_t known = cb.waited == 0 || cb.push_end.size() != cb.capacity
                               ? cb.waited
                               : cb.push_end[(cb.rd_page() + cb.waited - 1) % cb.capacity] - cb.acked;
    if (count <= known) return;
    fail(s, "popping " + std::to_string(count) + " page" + (count == 1 ? "" : "s") + " but only " +
                std::to_string(cb.waited) + " waited on CB " + std::to_string(cb.index) +
                (known > cb.waited ? " and " + std::to_string(known - cb.waited) + " more pushed with them"
                                   : std::string()) +
                " (cb_wait_front must cover every popped page, or the cb_push_back that delivered it)");
}

void need_init_operands(Session& s, const ComputeState& c, FpuOp op, uint32_t cb0, uint32_t cb1) {
    if (!math_with_operands(op) || (cb0 == c.fpu_cb[0] && cb1 == c.fpu_cb[1])) return;
    fail(s, std::string(s.t.call.name) + " reads CBs " + std::to_string(cb0) + " and " + std::to_string(cb1) +
                ", but its last init configured the unpacker for CBs " + std::to_string(c.fpu_cb[0]) + " and " +
                std::to_string(c.fpu_cb[1]) + " (operands swapped, or an init for other CBs is missing)");
}

}  // namespace tt_emu
