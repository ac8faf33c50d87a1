// Kernel API: semaphores, NoC addresses of cores, and multicast (and unicast) writes between cores (landing:
// noc_landing.cpp).
//
// Calls that touch another core take that core's lock after releasing their own (with_core). A multicast is
// pending until it lands, in issue order, at the kernel's next noc_async_write_barrier or just before its
// next semaphore write to other cores (one kernel's writes on one NoC arrive in order, which the sender
// idiom "multicast data, then multicast VALID" relies on). At landing, every destination must have reserved
// the range in a CB and told the sender so (happens-before, see Clock): a sender that skips the handshake is
// reported whatever the schedule.
#include <cstring>
#include <string>

#include "emu.hpp"
#include "noc_endpoints.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

namespace {

// 64-bit NoC address: a tag naming the encoder (bits 60..63), 6-bit node fields from bit 36 (unicast: x, y;
// multicast: x_end, y_end, x_start, y_start, as tt-metal's NOC_MULTICAST_ADDR), the L1 address below.
constexpr int kLocalBits = 36;
constexpr int kNodeBits = 6;
constexpr int kTagShift = 60;
constexpr uint64_t kUnicastTag = 1;
constexpr uint64_t kMulticastTag = 2;

uint64_t node_field(uint32_t value, int index) { return uint64_t{value} << (kLocalBits + index * kNodeBits); }
uint32_t node_of(uint64_t addr, int index) {
    return static_cast<uint32_t>(addr >> (kLocalBits + index * kNodeBits)) & 63u;
}

// A decoded NoC address; a unicast address has start == end.
struct NocRange {
    uint32_t x_start = 0, y_start = 0, x_end = 0, y_end = 0;
    uint32_t addr = 0;
};

bool decode(uint64_t noc_addr, uint64_t tag, NocRange& out) {
    if (noc_addr >> kTagShift != tag || ((noc_addr >> 32) & 0xf) != 0) return false;
    out.addr = static_cast<uint32_t>(noc_addr);
    if (tag == kUnicastTag) {
        if (node_of(noc_addr, 2) || node_of(noc_addr, 3)) return false;
        out.x_start = out.x_end = node_of(noc_addr, 0);
        out.y_start = out.y_end = node_of(noc_addr, 1);
    } else {
        out.x_end = node_of(noc_addr, 0);
        out.y_end = node_of(noc_addr, 1);
        out.x_start = node_of(noc_addr, 2);
        out.y_start = node_of(noc_addr, 3);
    }
    return true;
}

int64_t as_arg(uint64_t value) { return static_cast<int64_t>(value); }

std::string noc_name(uint32_t x, uint32_t y) { return "NoC (" + std::to_string(x) + "," + std::to_string(y) + ")"; }

std::string rect_name(const NocRange& r) {
    return noc_name(r.x_start, r.y_start) + ".." + "(" + std::to_string(r.x_end) + "," + std::to_string(r.y_end) + ")";
}

void check_node(Session& s, uint32_t x, uint32_t y) {
    if (x > 63 || y > 63) fail(s, "NoC coordinates are 6-bit fields (0..63)");
}

uint32_t semaphore_address(uint32_t id) { return semaphore_base() + id * kSemaphoreStride; }

// The id of the semaphore at L1 address `addr` of `core`, or -1.
int semaphore_at(const Core& core, uint64_t addr) {
    if (addr < semaphore_base() || addr >= l1_total_bytes() || (addr - semaphore_base()) % kSemaphoreStride) return -1;
    const uint32_t id = static_cast<uint32_t>((addr - semaphore_base()) / kSemaphoreStride);
    return core.sems[id].exists ? static_cast<int>(id) : -1;
}

std::string semaphores_text(const Core& core) {
    std::string out;
    for (uint32_t id = 0; id < kNumSemaphores; ++id) {
        if (core.sems[id].exists) out += (out.empty() ? "" : ", ") + std::to_string(id) + " at " + hex(semaphore_address(id));
    }
    return out.empty() ? "it has no semaphores" : "its semaphores: " + out;
}

// This core's semaphore behind a pointer from get_semaphore.
uint32_t own_semaphore(Session& s, const volatile uint32_t* ptr) {
    const uint32_t addr = l1_offset(s, reinterpret_cast<uintptr_t>(ptr), 0);
    const int id = semaphore_at(s.core, addr);
    if (id < 0) {
        fail(s, hex(addr) + " is not a semaphore of this core (" + semaphores_text(s.core) +
                    "; take the address from get_semaphore)");
    }
    return static_cast<uint32_t>(id);
}

// A semaphore write: the value, the writer's history (acquired by waiters), and the waiters it releases; the
// diagnosis of a race with an earlier write it is not ordered after (sanitize.cpp), else empty.
std::string write_semaphore(Core& core, uint32_t id, uint32_t value, const KernelThread& writer, bool overwrite) {
    std::string race = semaphore_write_race(core, id, writer, overwrite);
    if (!race.empty()) return race;
    core.set_sem_value(id, value);
    core.sems[id].clock.join(writer.clock);
    wake_waiters(core);
    return race;
}

std::string not_a_semaphore(const Core& core, uint32_t addr) {
    return "L1 " + hex(addr) + " of core " + core_name(core.coord) + " is not a semaphore (" + semaphores_text(core) + ")";
}

// The core of this program at NoC (x, y).
Core& core_at(Session& s, uint32_t x, uint32_t y) {
    CoreCoord logical;
    if (!logical_of_noc(x, y, logical)) {
        fail(s, noc_name(x, y) + " is not a worker core (worker NoC x: 1..4, 6..9; y: 1..5, 7..9; the host maps "
                                 "logical cores with worker_core_from_logical_core)");
    }
    Core* core = s.core.run->core_at_noc(x, y);
    if (!core) fail(s, "core " + core_name(logical) + " at " + noc_name(x, y) + " runs no kernel of this program");
    return *core;
}

NocRange decode_or_fail(Session& s, uint64_t noc_addr, uint64_t tag) {
    NocRange r;
    if (!decode(noc_addr, tag, r)) {
        fail(s, hex(noc_addr) + " is not a NoC address from " +
                    (tag == kUnicastTag ? "get_noc_addr(x, y, addr)" : "get_noc_multicast_addr(...)"));
    }
    return r;
}

}  // namespace

// A unicast NoC address at a DRAM endpoint as the address of its bank (noc_async_read/write take that form).
uint64_t dram_bank_form(uint64_t noc_addr) {
    NocRange r;
    uint32_t bank_addr = 0;
    if (!decode(noc_addr, kUnicastTag, r)) return noc_addr;
    const int bank = dram_bank_at_endpoint(r.x_start, r.y_start, r.addr, bank_addr);
    return bank < 0 ? noc_addr : kapi::detail::dram_noc_addr(bank_addr, 0, static_cast<uint32_t>(bank), 0);
}

namespace {

// The destinations of a multicast: this program's cores in the rectangle but this one. The corner order
// follows the kernel's NoC (tt-metal: NoC 0 runs start -> end increasing, NoC 1 decreasing).
std::vector<Core*> multicast_dests(Session& s, const NocRange& r, uint32_t num_dests) {
    const int noc = s.t.spec->noc;
    const bool ordered = noc == 0 ? r.x_start <= r.x_end && r.y_start <= r.y_end
                                  : r.x_start >= r.x_end && r.y_start >= r.y_end;
    if (!ordered) {
        fail(s, "the multicast rectangle " + rect_name(r) + " has its corners in the wrong order for NoC " +
                    std::to_string(noc) + " (this kernel's DataMovementConfig noc): on NoC 0 the start corner is the "
                    "smaller one (x_start <= x_end, y_start <= y_end), on NoC 1 the larger one");
    }
    const uint32_t x0 = std::min(r.x_start, r.x_end), x1 = std::max(r.x_start, r.x_end);
    const uint32_t y0 = std::min(r.y_start, r.y_end), y1 = std::max(r.y_start, r.y_end);
    std::vector<Core*> dests;
    for (auto& core : s.core.run->cores) {
        if (core.get() == &s.core || core->noc.x < x0 || core->noc.x > x1 || core->noc.y < y0 || core->noc.y > y1) {
            continue;
        }
        dests.push_back(core.get());
    }
    if (dests.empty()) {
        fail(s, "the multicast rectangle " + rect_name(r) + " holds no core of this program other than this one");
    }
    if (num_dests != dests.size()) {
        std::string names;  // only for the message: a multicast is no place for string building
        for (const Core* core : dests) names += (names.empty() ? "" : " ") + core_name(core->coord);
        fail(s, "num_dests is " + std::to_string(num_dests) + " but the rectangle " + rect_name(r) + " holds " +
                    std::to_string(dests.size()) + " destination core(s) of this program (this core excluded): " + names);
    }
    return dests;
}

void check_l1_range(Session& s, const char* what, uint32_t addr, uint32_t size) {
    if (size == 0) fail(s, "the transfer size must be positive");
    if (uint64_t{addr} + size > l1_total_bytes()) {
        fail(s, std::string(what) + " L1 " + hex(addr) + ".." + hex(uint64_t{addr} + size) + " is outside L1 (0.." +
                    hex(l1_total_bytes()) + ")");
    }
}

}  // namespace

std::string open_linked_transaction(const KernelThread& t) {
    NocRange r;
    if (!t.linked_to || !decode(t.linked_to << 32, kMulticastTag, r)) return "";
    return "a linked multicast to " + rect_name(r) + " (noc_async_write_multicast with linked = true) opened a NoC "
           "transaction that only multicasts to the same rectangle may continue, and an unlinked one closes (with "
           "noc_semaphore_set_multicast, as tt-metal's senders do); on hardware any other request of the NIU "
           "meanwhile stops the NoC (NOC_CMD_VC_LINKED, tt-isa-documentation WormholeB0/NoC/MemoryMap.md)";
}

void noc_request(Session& s, uint64_t multicast_dest) {
    if (s.t.linked_to && (!multicast_dest || multicast_dest >> 32 != s.t.linked_to)) {
        fail(s, open_linked_transaction(s.t) + "; this call comes first");
    }
}

// A unicast write into another core's L1 (tt-metal's NoC_tile_transfer) is a multicast to that one core: it lands at
// the write barrier (or a later semaphore write), into pages that core's CB producer reserved and made known.
bool write_to_core_l1(Session& s, uint32_t src, uint64_t dst_noc_addr, uint32_t size) {
    NocRange r;
    Core* dest = decode(dst_noc_addr, kUnicastTag, r) ? s.core.run->core_at_noc(r.x_start, r.y_start) : nullptr;
    if (!dest) return false;  // not a core of this program: the caller names the address
    if (dest == &s.core) fail(s, "a NoC write to this core's own L1 (" + noc_name(r.x_start, r.y_start) + ") is not emulated");
    noc_request(s, 0);
    check_l1_range(s, "source", src, size);
    check_l1_range(s, "destination", r.addr, size);
    need_noc_alignment(s, false, false, src, r.addr);
    need_written_source(s, src, size);
    s.t.mcasts.push_back(Multicast{s.t.call, src, r.addr, size, {dest}, s.t.clock});
    s.t.tick();
    s.core.counters[kNocWrites] += 1;
    return true;
}

namespace kapi {

uint32_t get_semaphore(uint32_t semaphore_id) {
    Session s = enter("get_semaphore", {semaphore_id});
    if (semaphore_id >= kNumSemaphores || !s.core.sems[semaphore_id].exists) {
        const size_t created = s.core.run->program->semaphores.size();
        fail(s, "semaphore " + std::to_string(semaphore_id) + " does not exist on this core (the program created " +
                    (created ? "ids 0.." + std::to_string(created - 1) : std::string("none")) + " with CreateSemaphore; " +
                    semaphores_text(s.core) + ")");
    }
    return l1_address(s.core, semaphore_address(semaphore_id));
}

uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr) {
    Session s = enter("get_noc_addr", {noc_x, noc_y, addr}, 0b100);
    check_node(s, noc_x, noc_y);
    uint32_t bank_addr = 0;
    const int bank = dram_bank_at_endpoint(noc_x, noc_y, addr, bank_addr);  // the device record's DRAM endpoints
    if (bank == -2 || (bank == -1 && is_eth_core(noc_x, noc_y))) {
        fail(s, noc_name(noc_x, noc_y) + (bank == -2 ? " is a DRAM endpoint, but no bank of its channel holds address " +
                                                           hex(addr)
                                                     : std::string(" is an Ethernet core (the emulator does not model "
                                                                   "Ethernet cores' L1), not a DRAM endpoint")) +
                    " (DRAM endpoints of the device: " + dram_endpoints_text() + ")");
    }
    // An address the API gave for L1 (a window address; get_semaphore's, get_write_ptr's) stands for its L1 offset,
    // also at a DRAM endpoint; one inside a live DRAM buffer of the bank is that buffer's (the emulator's ambiguity).
    if (bank < 0 || !find_dram_buffer_in_bank(bank_addr)) addr = l1_offset(s, addr, 2);
    return (kUnicastTag << kTagShift) | node_field(noc_y, 1) | node_field(noc_x, 0) | addr;
}

uint64_t get_noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end, uint32_t addr) {
    Session s = enter("get_noc_multicast_addr", {x_start, y_start, x_end, y_end, addr}, 0b10000);
    addr = l1_offset(s, addr, 4);
    check_node(s, x_start, y_start);
    check_node(s, x_end, y_end);
    return (kMulticastTag << kTagShift) | node_field(y_start, 3) | node_field(x_start, 2) | node_field(y_end, 1) |
           node_field(x_end, 0) | addr;
}

void noc_semaphore_wait(volatile uint32_t* sem_addr, uint32_t val) {
    Session s = enter("noc_semaphore_wait", {as_arg(reinterpret_cast<uintptr_t>(sem_addr)), val}, 0b01);
    const uint32_t id = own_semaphore(s, sem_addr);
    s.core.counters[kSemaphoreWaits] += 1;
    Wait wait;
    wait.kind = WaitKind::Semaphore;
    wait.sem = id;
    wait.value = val;
    block_until(s, wait);
    s.t.clock.join(s.core.sems[id].clock);
}

void noc_semaphore_wait_min(volatile uint32_t* sem_addr, uint32_t val) {
    Session s = enter("noc_semaphore_wait_min", {as_arg(reinterpret_cast<uintptr_t>(sem_addr)), val}, 0b01);
    const uint32_t id = own_semaphore(s, sem_addr);
    s.core.counters[kSemaphoreWaits] += 1;
    Wait wait;
    wait.kind = WaitKind::Semaphore;
    wait.sem = id;
    wait.value = val;
    wait.at_least = true;
    block_until(s, wait);
    s.t.clock.join(s.core.sems[id].clock);
}

void noc_semaphore_set(volatile uint32_t* sem_addr, uint32_t val) {
    Session s = enter("noc_semaphore_set", {as_arg(reinterpret_cast<uintptr_t>(sem_addr)), val}, 0b01);
    const std::string race = write_semaphore(s.core, own_semaphore(s, sem_addr), val, s.t, true);
    if (!race.empty()) fail(s, race);
    s.t.tick();
}

void noc_semaphore_inc(uint64_t addr, uint32_t incr) {
    Session s = enter("noc_semaphore_inc", {as_arg(addr), incr}, 0b01);
    noc_request(s, 0);
    const NocRange r = decode_or_fail(s, addr, kUnicastTag);
    Core& target = core_at(s, r.x_start, r.y_start);
    land_multicasts(s);
    with_core(s, target, [&](Core& c) {
        const int id = semaphore_at(c, r.addr);
        if (id < 0) return not_a_semaphore(c, r.addr);
        return write_semaphore(c, static_cast<uint32_t>(id), c.sem_value(static_cast<uint32_t>(id)) + incr, s.t, false);
    });
    s.t.tick();
    s.core.counters[kSemaphoreIncs] += 1;
}

void noc_async_atomic_barrier() {
    Session s = enter("noc_async_atomic_barrier", {});
    s.t.tick();
}

void noc_async_write_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t size,
                               uint32_t num_dests, bool linked) {
    const int64_t dest = as_arg(dst_noc_addr_multicast);  // the call reads as written: `linked` only when true
    Session s = linked ? enter("noc_async_write_multicast", {src_local_l1_addr, dest, size, num_dests, 1}, 0b011)
                       : enter("noc_async_write_multicast", {src_local_l1_addr, dest, size, num_dests}, 0b011);
    src_local_l1_addr = l1_offset(s, src_local_l1_addr, 0);
    noc_request(s, dst_noc_addr_multicast);
    const NocRange r = decode_or_fail(s, dst_noc_addr_multicast, kMulticastTag);
    std::vector<Core*> dests = multicast_dests(s, r, num_dests);
    check_l1_range(s, "source", src_local_l1_addr, size);
    check_l1_range(s, "destination", r.addr, size);
    need_noc_alignment(s, false, false, src_local_l1_addr, r.addr);
    need_written_source(s, src_local_l1_addr, size);
    s.t.mcasts.push_back(Multicast{s.t.call, src_local_l1_addr, r.addr, size, std::move(dests), s.t.clock});
    s.t.linked_to = linked ? dst_noc_addr_multicast >> 32 : 0;
    s.t.tick();
    s.core.counters[kNocMulticastWrites] += 1;
    s.core.counters[linked ? kNocMulticastLinkedBytes : kNocMulticastBytes] += size;
}

void noc_semaphore_set_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t num_dests) {
    Session s = enter("noc_semaphore_set_multicast",
                      {src_local_l1_addr, as_arg(dst_noc_addr_multicast), num_dests}, 0b011);
    src_local_l1_addr = l1_offset(s, src_local_l1_addr, 0);
    noc_request(s, dst_noc_addr_multicast);
    s.t.linked_to = 0;  // an unlinked request closes the transaction
    const NocRange r = decode_or_fail(s, dst_noc_addr_multicast, kMulticastTag);
    const std::vector<Core*> dests = multicast_dests(s, r, num_dests);
    check_l1_range(s, "source", src_local_l1_addr, 4);
    land_multicasts(s);  // the data multicast before the flag arrive first
    uint32_t value;
    std::memcpy(&value, &s.core.l1[src_local_l1_addr], 4);
    for (Core* dest : dests) {
        with_core(s, *dest, [&](Core& c) {
            const int id = semaphore_at(c, r.addr);
            if (id < 0) return not_a_semaphore(c, r.addr);
            return write_semaphore(c, static_cast<uint32_t>(id), value, s.t, true);
        });
    }
    s.t.tick();
    s.core.counters[kSemaphoreMulticasts] += 1;
}

}  // namespace kapi
}  // namespace tt_emu
