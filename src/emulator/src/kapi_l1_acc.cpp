// Packer L1 accumulation (api/compute/pack.h pack_reconfig_l1_acc; tt-llk's _llk_pack_reconfig_l1_acc_: "Non-zero
// to accumulate packed output into existing L1 data, zero to overwrite"). While it is on, pack_tile adds the DST tile
// to what the destination page holds in L1 instead of overwriting it: tt-metal's matmul (PACKER_L1_ACC in
// bmm_large_block_zm_fused_bias_activation.cpp) packs every K block's partial sums onto the previous block's, in a
// partial-sum CB whose ring is one output block, so each reserve lands on the same pages. A reserve poisons its pages
// for the sanitizer (sanitize.cpp); on a core whose packer has been configured for L1 accumulation, the bytes a page
// held before are kept (here, by core) and the accumulating pack adds to them. The sum is formed in fp32 and packed
// with the page's format (Float32, Float16_b, Float16; other formats are not emulated).
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cb_fresh.hpp"
#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

namespace {

// The packer's L1 accumulation state of a core's compute kernel, and what each page of its CBs held before its last
// reserve (once the packer has been configured for accumulation). Kept here, by core, so that the emulator's shared
// records stay as they are; l1_acc_reset clears a core's when a program launches on it.
struct L1Acc {
    bool on = false, configured = false;
    std::map<uint32_t, std::vector<uint8_t>> held;  // CB index -> capacity * page_bytes bytes
};
std::mutex g_mutex;
std::map<const Core*, L1Acc> g_state;

}  // namespace

void l1_acc_reset(const Core& core) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_state.erase(&core);
}

void hold_for_l1_acc(Core& core, Cb& cb, uint32_t first, uint32_t count) {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto found = g_state.find(&core);
    if (found == g_state.end() || !found->second.configured) return;
    std::vector<uint8_t>& held = found->second.held[cb.index];
    if (held.size() != size_t{cb.capacity} * cb.page_bytes) held.assign(size_t{cb.capacity} * cb.page_bytes, 0);
    for (uint32_t p = first; p < first + count; ++p) {
        std::memcpy(&held[size_t{p % cb.capacity} * cb.page_bytes], &core.l1[cb.page_addr(p % cb.capacity)],
                    cb.page_bytes);
    }
}

void pack_into(Session& s, Cb& cb, uint32_t page, const float* tile) {
    uint8_t* out = &s.core.l1[cb.page_addr(page)];
    std::vector<uint8_t> before;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        auto found = g_state.find(&s.core);
        if (found == g_state.end() || !found->second.on) {
            before.clear();
        } else {
            auto held = found->second.held.find(cb.index);
            const uint8_t* from = held == found->second.held.end() ? out : &held->second[size_t{page} * cb.page_bytes];
            before.assign(from, from + cb.page_bytes);
        }
    }
    if (before.empty()) {
        pack_tile_data(tile, cb.format, out);
        return;
    }
    if (cb.format != DataFormat::Float32 && cb.format != DataFormat::Float16_b && cb.format != DataFormat::Float16) {
        fail(s, std::string("packer L1 accumulation into CB ") + std::to_string(cb.index) + " of format " +
                    format_name(cb.format) + " is not emulated (Float32, Float16_b and Float16 are)");
    }
    float sum[kTileElems];
    unpack_tile(before.data(), cb.format, sum);
    for (uint32_t i = 0; i < kTileElems; ++i) sum[i] += tile[i];
    pack_tile_data(sum, cb.format, out);
}

namespace kapi {

void pack_reconfig_l1_acc(uint32_t l1_acc_en) {
    Session s = enter("pack_reconfig_l1_acc", {l1_acc_en});
    need_startup(s, compute_of(s));
    std::lock_guard<std::mutex> lock(g_mutex);
    L1Acc& state = g_state[&s.core];
    state.on = l1_acc_en != 0;
    state.configured = true;
}

}  // namespace kapi

}  // namespace tt_emu
