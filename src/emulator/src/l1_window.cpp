// Each core's L1 as memory kernels dereference (issue 33): tt-metal's kernels hold L1 addresses as 32-bit integers
// (get_write_ptr, get_read_ptr, get_semaphore, the CB interface) and read and write L1 through them
// (`reinterpret_cast<volatile tt_l1_ptr uint32_t*>(addr)`). Kernel fibers of many cores run at once on the scheduler's
// threads (sched.cpp), so one address cannot stand for every core's L1: each logical core gets a window of its own,
// all in one reservation below 2 GiB (a 32-bit address, also as the int32_t generated code keeps it, is then a host
// pointer). The API takes an address back to its L1 offset (l1_offset); reports and the sanitizer speak in offsets.
#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "emu.hpp"

namespace tt_emu {

namespace {

constexpr uint64_t kSlotBytes = 2u << 20;  // one core's window (kMaxL1TotalBytes, rounded up), 2 MiB aligned
constexpr uint64_t kSlots = device::kMaxCores;  // the largest compute grid of any device
constexpr uint64_t kReserved = kSlots * kSlotBytes;
constexpr uint64_t kLimit = uint64_t{1} << 31;  // below 2 GiB: a window address is a non-negative int32_t
constexpr size_t kWindowBytes = (kMaxL1TotalBytes + 4095) / 4096 * 4096;
static_assert(kMaxL1TotalBytes <= kSlotBytes, "a core's L1 must fit its window");

// The reservation: PROT_NONE until a core claims its window, so an address of a core not running faults.
uint8_t* reserve() {
    void* p = MAP_FAILED;
    for (uint64_t at = 0x40000000; p == MAP_FAILED && at + kReserved <= kLimit; at += 0x10000000) {
        p = mmap(reinterpret_cast<void*>(at), kReserved, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (p != MAP_FAILED && reinterpret_cast<uintptr_t>(p) != at) {  // a kernel without MAP_FIXED_NOREPLACE
            munmap(p, kReserved);
            p = MAP_FAILED;
        }
    }
#ifdef MAP_32BIT
    if (p == MAP_FAILED) {
        p = mmap(nullptr, kReserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_32BIT, -1, 0);
    }
#endif
    const int err = errno;
    if (p == MAP_FAILED || reinterpret_cast<uintptr_t>(p) + kReserved > kLimit) {
        std::fprintf(stderr,
                     "tt_emu: error: cannot map the cores' L1 below 2 GiB of the address space (%llu MiB for %llu "
                     "cores: %s); kernels hold L1 addresses as 32-bit integers, so emulated L1 must lie there\n",
                     static_cast<unsigned long long>(kReserved >> 20), static_cast<unsigned long long>(kSlots),
                     p == MAP_FAILED ? std::strerror(err) : "the kernel placed it higher");
        std::fflush(stderr);
        std::_Exit(3);
    }
    return static_cast<uint8_t*>(p);
}

uint8_t* reservation() {
    static uint8_t* const base = reserve();
    return base;
}

std::atomic<bool> g_claimed[kSlots];

}  // namespace

void L1Memory::claim(const CoreCoord& logical) {
    if (logical.x >= dev().grid_x || logical.y >= dev().grid_y) {
        throw std::runtime_error("core " + core_name(logical) + " is outside the emulated " +
                                 std::to_string(dev().grid_x) + "x" + std::to_string(dev().grid_y) + " grid");
    }
    const size_t slot = logical.y * dev().grid_x + logical.x;
    if (g_claimed[slot].exchange(true)) {
        throw std::runtime_error("the L1 window of core " + core_name(logical) + " is in use by another run");
    }
    bytes_ = reservation() + slot * kSlotBytes;
    if (mprotect(bytes_, kWindowBytes, PROT_READ | PROT_WRITE) != 0) {
        throw std::runtime_error(std::string("mprotect of an L1 window failed: ") + std::strerror(errno));
    }
}

// Zeroed for the next run (the pages go back to the system) and inaccessible until then.
L1Memory::~L1Memory() {
    if (!bytes_) return;
    madvise(bytes_, kWindowBytes, MADV_DONTNEED);
    mprotect(bytes_, kWindowBytes, PROT_NONE);
    g_claimed[static_cast<size_t>(bytes_ - reservation()) / kSlotBytes] = false;
}

bool l1_window_offset(const CoreCoord& core, uint64_t addr, uint32_t& offset, CoreCoord* owner) {
    if (owner) *owner = core;
    if (addr < l1_total_bytes()) {
        offset = static_cast<uint32_t>(addr);
        return true;
    }
    const uint64_t base = reinterpret_cast<uintptr_t>(reservation());
    if (addr < base || addr >= base + kReserved || (addr - base) % kSlotBytes >= l1_total_bytes()) return false;
    const uint64_t slot = (addr - base) / kSlotBytes;
    if (owner) *owner = CoreCoord{static_cast<size_t>(slot % dev().grid_x), static_cast<size_t>(slot / dev().grid_x)};
    offset = static_cast<uint32_t>((addr - base) % kSlotBytes);
    return true;
}

// Another core's window address names the same L1 offset, as the number does on every core of the hardware (a kernel
// gets one only from another core's data, e.g. a receiver telling its sender where to write).
uint32_t l1_offset(Session& s, uint64_t addr, int arg) {
    uint32_t offset = 0;
    if (!l1_window_offset(s.core.coord, addr, offset)) return static_cast<uint32_t>(addr);
    if (arg >= 0 && arg < s.t.call.argc) s.t.call.args[arg] = offset;
    return offset;
}

}  // namespace tt_emu
