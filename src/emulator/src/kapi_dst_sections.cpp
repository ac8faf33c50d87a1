// Kernel API: acquire_dst / release_dst, the one-call DST section that tile_regs_acquire/commit/wait/release replaced
// (deprecated, still in ttnn 0.65.0's compute_kernel_api/reg_api.h and 0.81.1's api/compute/reg_api.h; tt-metal's
// 2025 matmul examples call them). acquire_dst is the math thread's wait for a free section and the pack thread's wait
// for the math thread's section done; release_dst is both threads' section done. So the packer reads DST only after
// every math call of the section: the emulator, which runs the three threads as one, lets the first pack_tile end the
// section's math (as tile_regs_commit and tile_regs_wait would), so a math call after a pack in the same section is
// reported (on hardware the pack would have seen it).
#include <cstring>
#include <string>

#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

void pack_in_full_section(ComputeState& c) {
    if (c.full_section && c.dst == DstState::Acquired) c.dst = DstState::Waited;
}

std::string math_after_commit(const ComputeState& c) {
    return c.full_section ? "math after a pack_tile in acquire_dst's section: the packer reads DST only after "
                            "release_dst, so it would have packed this result too"
                          : "math after tile_regs_commit: the DST section belongs to the packer until tile_regs_release";
}

namespace kapi {

void acquire_dst() {
    Session s = enter("acquire_dst", {});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    if (c.dst != DstState::Released) {
        fail(s, std::string("acquire_dst while a DST section is held (") + (c.full_section ? "release_dst"
            : "tile_regs_commit, tile_regs_wait and tile_regs_release") + " must come first)");
    }
    std::memset(c.tiles.data(), 0, sizeof(float) * kTileElems * c.capacity);
    c.written = c.reduced = 0;
    c.dst = DstState::Acquired;
    c.full_section = true;
}

void release_dst() {
    Session s = enter("release_dst", {});
    ComputeState& c = compute_of(s);
    if (!c.full_section) {
        fail(s, c.dst == DstState::Released ? "release_dst without acquire_dst"
                                            : "release_dst of a section taken by tile_regs_acquire");
    }
    c.dst = DstState::Released;
    c.full_section = false;
}

}  // namespace kapi
}  // namespace tt_emu
