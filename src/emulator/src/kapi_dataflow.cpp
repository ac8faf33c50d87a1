// Kernel API: arguments, circular buffers and NoC transfers, with the CB contract checked on every call.
#include <cstring>
#include <string>

#include "emu.hpp"
#include "noc_endpoints.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

Call make_call(const char* name, std::initializer_list<int64_t> args, uint8_t hex_mask) {
    Call c;
    c.name = name;
    for (int64_t a : args) c.args[c.argc++] = a;
    c.hex_mask = hex_mask;
    return c;
}

// The kernel's unicast writes land in DRAM, copying L1 as it is now.
static void land_writes(Session& s) {
    noc_request(s, 0);
    std::lock_guard<std::mutex> dram(dram_mutex());
    for (const Transfer& x : s.t.writes) {
        if (land_shard_page(s, x)) continue;
        dram_write_landed(s, x);
        std::memcpy(&x.buffer->data[size_t{x.page} * x.buffer->page_size + x.offset], &s.core.l1[x.l1], x.size);
    }
    s.t.writes.clear();
}

Cb& cb_of(Session& s, int64_t index) {
    if (index < 0 || index >= static_cast<int64_t>(kNumCbs)) {
        fail(s, "CB index " + std::to_string(index) + " is out of range (0.." + std::to_string(kNumCbs - 1) + ")");
    }
    Cb& cb = s.core.cbs[static_cast<size_t>(index)];
    if (!cb.configured) {
        fail(s, "CB " + std::to_string(index) + " is not configured on this core (CreateCircularBuffer)");
    }
    return cb;
}

// The first caller claims the side; a second thread on the same side is an error.
void claim(Session& s, Cb& cb, bool producer) {
    if (cb.scratch) fail(s, "CB " + std::to_string(cb.index) + " is L1 scratch (a kernel took its pointer before any "
                            "cb_reserve_back or cb_wait_front) and now a FIFO: scratch writes would overwrite its pages");
    KernelThread*& owner = producer ? cb.producer : cb.consumer;
    if (owner == nullptr) {
        owner = &s.t;
    } else if (owner != &s.t) {
        fail(s, std::string("two ") + (producer ? "producers" : "consumers") + " on CB " + std::to_string(cb.index) +
                    ": it is already " + (producer ? "produced" : "consumed") + " by " + owner->name() +
                    " (each CB has exactly one producer thread and one consumer thread)");
    }
}

namespace {

std::string pages_of(int64_t n) { return std::to_string(n) + (n == 1 ? " page" : " pages"); }

// A count of 0 is no error: on hardware cb_wait_front / cb_reserve_back of 0 pages return at once and cb_pop_front /
// cb_push_back of 0 move nothing (ttnn's matmul writers wait for and pop 0 padding pages); the callers return.
int64_t page_count(Session& s, int64_t n) {
    if (n < 0) fail(s, "the page count must not be negative, got " + std::to_string(n));
    return n;
}

// A contiguous run of pages [first, first + n) must not wrap: page counts divide the capacity.
void check_no_wrap(Session& s, const Cb& cb, uint32_t first, int64_t n, const char* what) {
    if (first + n > cb.capacity) {
        fail(s, std::string(what) + " of " + pages_of(n) + " starting at page " + std::to_string(first) +
                    " crosses the end of CB " + std::to_string(cb.index) + " (" + pages_of(cb.capacity) +
                    "): the page counts of a CB must divide its capacity");
    }
}

bool overlaps(uint32_t a, uint32_t a_size, uint32_t b, uint32_t b_size) { return a < b + b_size && b < a + a_size; }

// Is [addr, addr + size) inside the reserved (write) or waited (read) pages of some CB?
bool inside_window(const Core& core, uint32_t addr, uint32_t size, bool reserved) {
    for (const Cb& cb : core.cbs) {
        if (!cb.configured) continue;
        const uint32_t pages = reserved ? cb.reserved : cb.waited;
        const uint32_t start = cb.page_addr(reserved ? cb.wr_page() : cb.rd_page());
        if (pages && addr >= start && addr + size <= start + pages * cb.page_bytes) return true;
        if (cb.scratch && addr >= cb.base && addr + size <= cb.page_addr(cb.capacity)) return true;
    }
    return false;
}

std::string windows(const Core& core, bool reserved) {
    std::string out;
    for (const Cb& cb : core.cbs) {
        const uint32_t pages = reserved ? cb.reserved : cb.waited;
        if (!cb.configured || !pages) continue;
        const uint32_t start = cb.page_addr(reserved ? cb.wr_page() : cb.rd_page());
        out += (out.empty() ? "" : ", ") + std::string("CB ") + std::to_string(cb.index) + " " + hex(start) + ".." +
               hex(start + pages * cb.page_bytes);
    }
    return out.empty() ? "none" : out;
}

const char* noc_call_name(kapi::detail::NocCall c) {
    switch (c) {
        case kapi::detail::NocCall::ReadPage: return "noc_async_read_page";
        case kapi::detail::NocCall::WritePage: return "noc_async_write_page";
        case kapi::detail::NocCall::ReadTile: return "noc_async_read_tile";
        case kapi::detail::NocCall::WriteTile: return "noc_async_write_tile";
    }
    return "?";
}

// Records a transfer between DRAM page `page` of `buf` and L1; it lands at the matching barrier. A read without a
// buffer reads zeros (Noc::async_write_zeros: on Wormhole a NoC read of the core's zero region).
void issue(Session& s, bool read, std::shared_ptr<DramBuffer> buf, uint32_t page, uint32_t offset, uint32_t size,
           uint32_t l1) {
    noc_request(s, 0);
    if (buf && page >= buf->num_pages) {
        fail(s, "page " + std::to_string(page) + " is out of bounds of " + buf->describe());
    }
    if (size == 0 || (buf && offset + size > buf->page_size)) {
        fail(s, "transfer of " + std::to_string(size) + " B at offset " + std::to_string(offset) +
                    (buf ? " does not fit in a page of " + buf->describe() : std::string(" is empty")));
    }
    if (!inside_window(s.core, l1, size, read) && !inside_l1_buffer(l1, size)) {
        fail(s, std::string("L1 ") + (read ? "destination " : "source ") + hex(l1) + ".." + hex(l1 + size) +
                    " is outside the " + (read ? "reserved" : "waited") + " pages of every CB (" +
                    (read ? "reserved: " : "waited: ") + windows(s.core, read) + ") and every L1 buffer (" +
                    list_l1_buffers() + ")");
    }
    need_noc_alignment(s, buf != nullptr, read, l1, offset);  // pages start aligned in DRAM; zeros at L1 0
    if (!read) need_written_source(s, l1, size);
    const bool dram = buf != nullptr && !buf->shards;  // a sharded L1 buffer's page moves inside the core's L1
    Transfer x{read, std::move(buf), page, offset, size, l1};
    (read ? s.t.reads : s.t.writes).push_back(std::move(x));
    s.core.counters[read ? kNocReads : kNocWrites] += 1;
    if (dram) s.core.counters[read ? kDramBytesRead : kDramBytesWritten] += size;
}

// Interleaved layout: bank = page % 12, bank address = base + (page / 12) * page_size. The NoC address
// carries the bank in its upper half, like a (noc x, noc y) pair does on hardware.
constexpr uint64_t kBankTag = 0x100;

// A runtime argument holding an address in a live L1 buffer (the host's `buffer->address()`, an L1 offset, as
// tt-metal's add_2_integers_in_riscv and loopback pass it) reaches the kernel as its core's address of that L1, so
// the kernel can dereference it as on hardware. A value that is also inside a DRAM buffer's bank range is ambiguous
// and stays as it is (the NoC calls take either form; a load through it is reported, launch.cpp).
uint32_t l1_buffer_argument(Session& s, uint32_t value) {
    if (value >= dev().l1_bytes || !inside_l1_buffer(value, 1) || find_dram_buffer_in_bank(value)) return value;
    return l1_address(s.core, value);
}

}  // namespace

void issue_transfer(Session& s, bool read, std::shared_ptr<DramBuffer> buf, uint32_t page, uint32_t offset,
                    uint32_t size, uint32_t l1) { issue(s, read, std::move(buf), page, offset, size, l1); }
std::string Transfer::describe() const {
    if (!buffer) return "read of zeros -> L1 " + hex(l1) + " (" + std::to_string(size) + " B)";
    std::string dram = "page " + std::to_string(page) + (offset ? " +" + std::to_string(offset) : "") + " of " +
                       buffer->describe();
    std::string l1s = "L1 " + hex(l1) + " (" + std::to_string(size) + " B)";
    return read ? "read " + dram + " -> " + l1s : "write " + l1s + " -> " + dram;
}

namespace kapi {

namespace detail {

void compile_time_arg_index_out_of_range(uint32_t idx, uint32_t count) {
    Session s = enter("get_compile_time_arg_val", {idx});
    fail(s, "compile-time argument " + std::to_string(idx) + " does not exist (the kernel has " +
                std::to_string(count) + ")");
}

uint32_t runtime_arg(int idx, bool common) {
    Session s = enter(common ? "get_common_arg_val" : "get_arg_val", {idx});
    const std::vector<uint32_t>& args = common ? *s.t.common_args : *s.t.args;
    if (idx < 0 || static_cast<size_t>(idx) >= args.size()) {
        fail(s, std::string(common ? "common " : "") + "runtime argument " + std::to_string(idx) +
                    " is not set (the host set " + std::to_string(args.size()) +
                    (common ? " common arguments" : " for this core") + ")");
    }
    return l1_buffer_argument(s, args[static_cast<size_t>(idx)]);
}

void noc_page(NocCall which, uint32_t id, uint32_t bank_base_address, uint32_t page_size, uint32_t l1_addr,
              uint32_t size, uint32_t offset, int32_t cta_offset) {
    const bool read = which == NocCall::ReadPage || which == NocCall::ReadTile;
    Session s = enter(noc_call_name(which), {id, bank_base_address, l1_addr}, 0b110);
    l1_addr = l1_offset(s, l1_addr, 2);
    std::shared_ptr<DramBuffer> buf = find_dram_buffer(bank_base_address);
    if (!buf) {
        fail(s, "no DRAM buffer at address " + hex(bank_base_address) + " (buffers: " + list_dram_buffers() + ")");
    }
    if (page_size != buf->page_size) {
        fail(s, "the address generator's page size " + std::to_string(page_size) + " B differs from the " +
                    std::to_string(buf->page_size) + " B pages of " + buf->describe());
    }
    need_planned_tensor(s, cta_offset, *buf, id);
    issue(s, read, std::move(buf), id, offset, size ? size : page_size - offset, l1_addr);
}

void noc_write_zeros(uint32_t l1_addr, uint32_t size) {
    Session s = enter("Noc::async_write_zeros", {l1_addr, size}, 0b01);
    issue(s, true, nullptr, 0, 0, size, l1_offset(s, l1_addr, 0));
}

uint64_t dram_noc_addr(uint32_t bank_base_address, uint32_t page_size, uint32_t id, uint32_t offset) {
    const uint64_t bank = id % dev().dram_banks;
    const uint64_t addr = bank_base_address + static_cast<uint64_t>(id / dev().dram_banks) * page_size + offset;
    return ((kBankTag | bank) << 32) | (addr & 0xffffffffu);
}

}  // namespace detail

void noc_async_read(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size) {
    Session s = enter("noc_async_read", {static_cast<int64_t>(src_noc_addr), dst_local_l1_addr, size}, 0b011);
    dst_local_l1_addr = l1_offset(s, dst_local_l1_addr, 1);
    src_noc_addr = dram_bank_form(src_noc_addr);
    const uint64_t tag = src_noc_addr >> 32;
    const uint32_t addr = static_cast<uint32_t>(src_noc_addr);
    std::shared_ptr<DramBuffer> buf = (tag & ~0xffull) == kBankTag ? find_dram_buffer_in_bank(addr) : nullptr;
    if (!buf || (tag & 0xff) >= dev().dram_banks) fail(s, "the source is not a DRAM bank address of any buffer");
    const uint32_t rel = addr - buf->address;
    issue(s, true, buf, (rel / buf->page_stride()) * dev().dram_banks + static_cast<uint32_t>(tag & 0xff),
          rel % buf->page_stride(), size, dst_local_l1_addr);
}

void noc_async_write(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size) {
    Session s = enter("noc_async_write", {src_local_l1_addr, static_cast<int64_t>(dst_noc_addr), size}, 0b011);
    src_local_l1_addr = l1_offset(s, src_local_l1_addr, 0);
    dst_noc_addr = dram_bank_form(dst_noc_addr);
    const uint64_t tag = dst_noc_addr >> 32;
    const uint32_t addr = static_cast<uint32_t>(dst_noc_addr);
    std::shared_ptr<DramBuffer> buf = (tag & ~0xffull) == kBankTag ? find_dram_buffer_in_bank(addr) : nullptr;
    if (!buf && write_to_core_l1(s, src_local_l1_addr, dst_noc_addr, size)) return;
    if (!buf || (tag & 0xff) >= dev().dram_banks) fail(s, "the destination is not a DRAM bank address of any buffer");
    const uint32_t rel = addr - buf->address;
    issue(s, false, buf, (rel / buf->page_stride()) * dev().dram_banks + static_cast<uint32_t>(tag & 0xff),
          rel % buf->page_stride(), size, src_local_l1_addr);
}

// Reads land in L1 now, copying DRAM as it is at the barrier.
void noc_async_read_barrier() {
    Session s = enter("noc_async_read_barrier", {});
    noc_request(s, 0);
    {
        std::lock_guard<std::mutex> dram(dram_mutex());
        for (const Transfer& x : s.t.reads) {
            if (!x.buffer) {
                std::memset(&s.core.l1[x.l1], 0, x.size);
                l1_written(s.core, x.l1, x.size);
                continue;
            }
            if (land_shard_page(s, x)) continue;
            dram_read_landed(s, x);
            std::memcpy(&s.core.l1[x.l1], &x.buffer->data[size_t{x.page} * x.buffer->page_size + x.offset], x.size);
            l1_written(s.core, x.l1, x.size, 0, x.buffer->page_size, x.offset);
        }
    }
    s.t.reads.clear();
    s.core.counters[kReadBarriers] += 1;
}

// Writes land in DRAM now, copying L1 as it is at the barrier; then the multicasts land, in issue order.
void noc_async_write_barrier() {
    Session s = enter("noc_async_write_barrier", {});
    land_writes(s);
    land_multicasts(s);
    s.core.counters[kWriteBarriers] += 1;
}

// The writes have left L1 (on hardware, not yet acknowledged): the emulator lands them, as at a barrier.
void noc_async_writes_flushed() {
    Session s = enter("noc_async_writes_flushed", {});
    land_writes(s);
}

// ------------------------------------------------------------------ circular buffers

void cb_reserve_back(int32_t cb_id, int32_t num_pages) {
    Session s = enter("cb_reserve_back", {cb_id, num_pages});
    Cb& cb = cb_of(s, cb_id);
    const int64_t n = page_count(s, num_pages);
    if (n == 0) return;
    claim(s, cb, true);
    if (n > cb.capacity) {
        fail(s, "reserving " + pages_of(n) + " exceeds the capacity of CB " + std::to_string(cb_id) + " (" +
                    pages_of(cb.capacity) + ")");
    }
    check_no_wrap(s, cb, cb.wr_page(), n, "a reservation");
    block_until(s, Wait{WaitKind::Reserve, cb_id, static_cast<uint32_t>(n)});
    s.t.clock.join(cb.popped);
    if (n > cb.reserved) {
        // The newly reserved pages remember when: a multicast into them must happen after this (see Clock).
        s.t.tick();
        for (uint32_t p = cb.reserved; p < n; ++p) cb.reserved_at[cb.wr_page() + p] = s.t.clock.v[s.t.index];
        pages_reserved(s.core, cb, cb.wr_page() + cb.reserved, static_cast<uint32_t>(n) - cb.reserved);
        cb.reserved = static_cast<uint32_t>(n);
    }
}

void cb_push_back(int32_t cb_id, int32_t num_pages) {
    Session s = enter("cb_push_back", {cb_id, num_pages});
    Cb& cb = cb_of(s, cb_id);
    const int64_t n = page_count(s, num_pages);
    if (n == 0) return;
    claim(s, cb, true);
    if (n > cb.reserved) {
        fail(s, "pushing " + pages_of(n) + " but only " + std::to_string(cb.reserved) + " reserved on CB " +
                    std::to_string(cb_id) + " (cb_reserve_back must cover every pushed page)");
    }
    const uint32_t start = cb.page_addr(cb.wr_page());
    for (auto& t : s.core.threads) {
        for (const Transfer& x : t->reads) {
            if (overlaps(x.l1, x.size, start, static_cast<uint32_t>(n) * cb.page_bytes)) {
                fail(s, "missing read barrier: " + t->name() + "'s NoC " + x.describe() +
                            " is still pending (call noc_async_read_barrier before cb_push_back)");
            }
        }
    }
    pages_pushed(cb, static_cast<uint32_t>(n));
    cb.received += static_cast<uint64_t>(n);
    cb.reserved -= static_cast<uint32_t>(n);
    cb.packed = 0;
    cb.pushed.join(s.t.clock);
    s.t.tick();
    s.core.counters[kCbPushes] += 1;
    s.core.counters[kCbPagesPushed] += static_cast<uint64_t>(n);
    wake_waiters(s.core);
}

void cb_wait_front(int32_t cb_id, int32_t num_pages) {
    Session s = enter("cb_wait_front", {cb_id, num_pages});
    Cb& cb = cb_of(s, cb_id);
    const int64_t n = page_count(s, num_pages);
    if (n == 0) return;
    claim(s, cb, false);
    if (n > cb.capacity) {
        fail(s, "waiting for " + pages_of(n) + " exceeds the capacity of CB " + std::to_string(cb_id) + " (" +
                    pages_of(cb.capacity) + "); waits are cumulative until the next pop");
    }
    check_no_wrap(s, cb, cb.rd_page(), n, "a wait");
    block_until(s, Wait{WaitKind::Front, cb_id, static_cast<uint32_t>(n)});
    s.t.clock.join(cb.pushed);
    if (n > cb.waited) cb.waited = static_cast<uint32_t>(n);
}

void cb_pop_front(int32_t cb_id, int32_t num_pages) {
    Session s = enter("cb_pop_front", {cb_id, num_pages});
    Cb& cb = cb_of(s, cb_id);
    const int64_t n = page_count(s, num_pages);
    if (n == 0) return;
    claim(s, cb, false);
    need_known_pages(s, cb, static_cast<uint32_t>(n));
    const uint32_t start = cb.page_addr(cb.rd_page());
    const uint32_t bytes = static_cast<uint32_t>(n) * cb.page_bytes;
    for (auto& t : s.core.threads) {
        for (const Transfer& x : t->writes) {
            if (overlaps(x.l1, x.size, start, bytes)) {
                fail(s, "missing write barrier: " + t->name() + "'s NoC " + x.describe() +
                            " still reads these pages (call noc_async_write_barrier, or noc_async_writes_flushed, "
                            "before cb_pop_front)");
            }
        }
        for (const Multicast& m : t->mcasts) {
            if (overlaps(m.src, m.size, start, bytes)) {
                fail(s, "missing write barrier: " + t->name() + "'s NoC " + m.describe() +
                            " still reads these pages (call noc_async_write_barrier before cb_pop_front)");
            }
        }
    }
    cb.acked += static_cast<uint64_t>(n);
    cb.waited -= std::min(cb.waited, static_cast<uint32_t>(n));
    cb.popped.join(s.t.clock);
    s.t.tick();
    s.core.counters[kCbPops] += 1;
    wake_waiters(s.core);
}

// On hardware both read the CB interface's fifo_wr_ptr / fifo_rd_ptr unchecked (dataflow_api.h), by any kernel of the
// core (NoC_tile_transfer's writer takes its neighbour CB's); ttnn's pad reader takes them of CBs it never reserves or
// waits on, as L1 scratch. A CB with no pages reserved, waited or pushed yet becomes scratch then: NoC transfers may
// use all of it, and a later reservation, wait or push is reported (claim).
uint32_t get_write_ptr(uint32_t cb_id) {
    Session s = enter("get_write_ptr", {cb_id});
    Cb& cb = cb_of(s, cb_id);
    cb.scratch = cb.scratch || (cb.received == 0 && cb.reserved == 0 && cb.waited == 0);
    return l1_address(s.core, cb.page_addr(cb.wr_page()));
}

uint32_t get_read_ptr(uint32_t cb_id) {
    Session s = enter("get_read_ptr", {cb_id});
    Cb& cb = cb_of(s, cb_id);
    cb.scratch = cb.scratch || (cb.received == 0 && cb.reserved == 0 && cb.waited == 0);
    return l1_address(s.core, cb.page_addr(cb.rd_page()));
}

}  // namespace kapi
}  // namespace tt_emu
