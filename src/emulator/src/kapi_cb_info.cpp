// Kernel API: what a kernel reads about its core (its logical coordinates) and its CBs (data format, page size, the CB
// interface of tt-metal's internal/circular_buffer_interface.h that ttnn's kernels read the page size from).
#include <cstring>
#include <map>
#include <mutex>

#include "../include/ttnn_0_81/internal/circular_buffer_interface.h"
#include "emu.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {
namespace kapi {

ktypes::DataFormat get_dataformat(int32_t cb_id) {
    Session s = enter("get_dataformat", {cb_id});
    return ktypes::DataFormat(static_cast<uint32_t>(cb_of(s, cb_id).format));
}

int32_t get_tile_size(int32_t cb_id) {
    Session s = enter("get_tile_size", {cb_id});
    return static_cast<int32_t>(cb_of(s, cb_id).page_bytes);
}

namespace detail {
uint8_t my_noc_coord(bool y, uint32_t noc) {
    Session s = enter(y ? "my_y" : "my_x", {noc});
    if (noc > 1) fail(s, "NoC index " + std::to_string(noc) + " (a Wormhole core has NoCs 0 and 1)");
    return static_cast<uint8_t>(y ? s.core.noc.y : s.core.noc.x);
}
}  // namespace detail

uint8_t get_absolute_logical_x() {
    Session s = enter("get_absolute_logical_x", {});
    return static_cast<uint8_t>(s.core.coord.x);
}

uint8_t get_absolute_logical_y() {
    Session s = enter("get_absolute_logical_y", {});
    return static_cast<uint8_t>(s.core.coord.y);
}

uint8_t get_relative_logical_x() {
    Session s = enter("get_relative_logical_x", {});
    return static_cast<uint8_t>(s.core.coord.x);
}

uint8_t get_relative_logical_y() {
    Session s = enter("get_relative_logical_y", {});
    return static_cast<uint8_t>(s.core.coord.y);
}

bool cb_pages_reservable_at_back(int32_t cb_id, int32_t num_pages) {
    Session s = enter("cb_pages_reservable_at_back", {cb_id, num_pages});
    Cb& cb = cb_of(s, cb_id);
    claim(s, cb, true);
    return static_cast<int64_t>(cb.capacity - cb.occupied()) >= num_pages;
}

bool cb_pages_available_at_front(int32_t cb_id, int32_t num_pages) {
    Session s = enter("cb_pages_available_at_front", {cb_id, num_pages});
    Cb& cb = cb_of(s, cb_id);
    claim(s, cb, false);
    return static_cast<int64_t>(cb.occupied()) >= num_pages;
}

namespace detail {

// fifo_size, fifo_limit, fifo_page_size, fifo_num_pages, fifo_rd_ptr, fifo_wr_ptr of tt-metal's LocalCBInterface
// (the limit is the ring's end, its start plus its size, as tt-metal's CB set-up writes it; the pointers are where
// the next read and write begin), in the calling kernel's snapshot of the CB (one per kernel thread and CB; a map's
// values stay where they are).
LocalCBInterface& cb_interface(uint32_t cb_id) {
    static std::mutex mutex;
    struct Snapshot {
        LocalCBInterface given, taken;  // what the kernel holds (and may write), and what the emulator gave it
    };
    static std::map<std::pair<const KernelThread*, uint32_t>, Snapshot> snapshots;
    Session s = enter("get_local_cb_interface", {cb_id});
    const Cb& cb = cb_of(s, cb_id);
    const uint32_t size = cb.capacity * cb.page_bytes;
    // A compute kernel's (TRISC's) interface holds sizes and addresses in 16-byte units (cb_addr_shift, 4 on tt-1xx);
    // a data-movement kernel's in bytes.
    const uint32_t shift = s.t.spec->kind == KernelKind::Compute ? kCbComputeAddrShift : 0;
    const LocalCBInterface now{size >> shift, l1_address(s.core, cb.base + size) >> shift, cb.page_bytes >> shift,
                               cb.capacity, l1_address(s.core, cb.page_addr(cb.rd_page())) >> shift,
                               l1_address(s.core, cb.page_addr(cb.wr_page())) >> shift};
    std::lock_guard<std::mutex> guard(mutex);
    Snapshot& slot = snapshots[{&s.t, cb_id}];
    if (std::memcmp(&slot.given, &slot.taken, sizeof(LocalCBInterface)) != 0) {
        fail(s, "the kernel wrote CB c_" + std::to_string(cb_id) + "'s interface (get_local_cb_interface): the "
                "emulator's interface is a snapshot, a write moves no pointer of the CB (not emulated)");
    }
    slot.given = slot.taken = now;
    return slot.given;
}

uint32_t runtime_arg_addr(int idx) {
    Session s = enter("get_arg_addr", {idx});
    fail(s, "get_arg_addr is not emulated: the emulator's runtime arguments do not live in L1 (read them with "
            "get_arg_val)");
}

// ASSERT in a kernel: tt-metal checks it under its watcher; the emulator always does.
void kernel_assert_failed(const char* condition, const char* file, int line) {
    Session s = enter("ASSERT", {});
    fail(s, std::string("ASSERT(") + condition + ") failed at " + file + ":" + std::to_string(line));
}

}  // namespace detail
}  // namespace kapi
}  // namespace tt_emu
