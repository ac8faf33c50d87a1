// Landing of NoC writes into other cores' L1 (multicasts, and unicast writes to another core): each lands, in issue
// order, at its kernel's next noc_async_write_barrier or just before its next semaphore write to other cores, into
// pages a CB producer of the destination reserved and made known to the writer (happens-before, see Clock).
#include <cstring>
#include <string>

#include "emu.hpp"
#include "sanitize.hpp"

namespace tt_emu {
namespace {

// Empty if `m` may land on `dest`: its range lies in pages a CB's producer reserved, and the issuer learnt
// of that reservation (through semaphores or CBs) before issuing; else the diagnosis.
std::string check_reserved(const Core& dest, const Multicast& m) {
    const Cb* named = nullptr;  // the CB whose memory holds the range
    for (const Cb& cb : dest.cbs) {
        if (!cb.configured || m.dst < cb.base || m.dst + m.size > cb.base + cb.capacity * cb.page_bytes) continue;
        if (!named) named = &cb;
        const uint32_t window = cb.page_addr(cb.wr_page());
        if (!cb.producer || !cb.reserved || m.dst < window || m.dst + m.size > window + cb.reserved * cb.page_bytes) {
            continue;
        }
        uint32_t stamp = 0;
        for (uint32_t p = (m.dst - cb.base) / cb.page_bytes; p <= (m.dst + m.size - 1 - cb.base) / cb.page_bytes; ++p) {
            stamp = std::max(stamp, cb.reserved_at[p]);
        }
        if (cb.producer->index < m.clock.v.size() && m.clock.v[cb.producer->index] >= stamp) return "";
    }
    std::string where = named ? "CB " + std::to_string(named->index) + " at L1 " + hex(named->base) + ".." +
                                    hex(named->base + named->capacity * named->page_bytes) +
                                    " there: its producer must cb_reserve_back these pages and then signal this "
                                    "kernel, e.g. with noc_semaphore_inc, before the multicast"
                              : "no CB of that core holds this range";
    return "multicast into L1 " + hex(m.dst) + ".." + hex(m.dst + m.size) + " of core " + core_name(dest.coord) +
           ", which it has not reserved (" + where + ")";
}

}  // namespace

std::string Multicast::describe() const {
    std::string names;
    for (const Core* c : dests) names += " " + core_name(c->coord);
    return "multicast L1 " + hex(src) + " (" + std::to_string(size) + " B) -> L1 " + hex(dst) + " of" + names;
}

void land_multicasts(Session& s) {
    const Call at = s.t.call;
    for (const Multicast& m : s.t.mcasts) {
        // The source as it is now, like a DRAM write at its barrier.
        std::vector<uint8_t> data(&s.core.l1[m.src], &s.core.l1[m.src] + m.size);
        s.t.call = m.call;  // a landing error names the multicast
        for (Core* dest : m.dests) {
            with_core(s, *dest, [&](Core& c) {
                std::string error = check_reserved(c, m);
                if (!error.empty()) return error + "; it landed at " + at.name;
                std::memcpy(&c.l1[m.dst], data.data(), m.size);
                l1_written(c, m.dst, m.size);
                return std::string();
            });
        }
    }
    s.t.call = at;
    s.t.mcasts.clear();
}

}  // namespace tt_emu
