// Kernel API: layout conversion on chip (tilize.h, pack_untilize.h). tilize_block unpacks 32 row-major rows of
// `block` tiles' width from the front of its input CB and packs them as `block` tiles; pack_untilize_block unpacks a
// tile row into DST and packs it as 32 rows. The hardware rules the emulator enforces:
// - both CBs have tile-sized pages in a tile format (the rows of a tile row fill `block` pages of the input CB);
// - the CBs' formats are the ones the unpacker and packer are configured for (reconfig_data_format first);
// - tilize_init leaves the unpacker in tilize mode until tilize_uninit, pack_untilize_init the packer in untilize
//   mode until pack_untilize_uninit: another unpacking (any math init) or pack in between is an error, and so is a
//   second init before the uninit;
// - both calls acquire and release DST themselves, so the kernel must not hold a DST section around them;
// - pack_untilize holds `block_ct_dim` tiles in DST at once: at most one DST section.
#include <string>

#include "compute.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

namespace {

LayoutMode mode_of(const ComputeState& c) { return static_cast<LayoutMode>(c.layout[kLayoutMode]); }

const char* mode_name(LayoutMode mode) {
    return mode == LayoutMode::Tilize ? "tilize (tilize_init)" : "untilize (pack_untilize_init)";
}

void need_mode(Session& s, const ComputeState& c, LayoutMode mode, uint32_t icb, uint32_t ocb, uint32_t block) {
    const char* init = mode == LayoutMode::Tilize ? "tilize_init" : "pack_untilize_init";
    if (mode_of(c) != mode) {
        fail(s, std::string(s.t.call.name) + " without " + init + " (the unpacker and packer are not set up for it)");
    }
    if (c.layout[kLayoutIcb] != icb || c.layout[kLayoutOcb] != ocb || c.layout[kLayoutBlock] != block) {
        fail(s, std::string(s.t.call.name) + " on CBs " + std::to_string(icb) + " -> " + std::to_string(ocb) + ", " +
                    std::to_string(block) + " tiles wide, but " + init + " set up CBs " + std::to_string(c.layout[kLayoutIcb]) +
                    " -> " + std::to_string(c.layout[kLayoutOcb]) + ", " + std::to_string(c.layout[kLayoutBlock]) + " tiles wide");
    }
}

void need_dst_free(Session& s, const ComputeState& c) {
    if (c.dst != DstState::Released) {
        fail(s, std::string(s.t.call.name) + " inside a DST section: it acquires and releases DST itself, so the "
                "kernel's tile_regs_acquire ... tile_regs_release must end first");
    }
}

void start(Session& s, ComputeState& c, LayoutMode mode, uint32_t icb, uint32_t ocb, uint32_t block, uint32_t full) {
    need_startup(s, c);
    if (mode_of(c) != LayoutMode::None) {
        fail(s, std::string(s.t.call.name) + " while the " + mode_name(mode_of(c)) + " of CBs " +
                    std::to_string(c.layout[kLayoutIcb]) + " -> " + std::to_string(c.layout[kLayoutOcb]) +
                    " is still set up: call its uninit first");
    }
    tile_cb(s, icb);
    tile_cb(s, ocb);
    c.layout[kLayoutMode] = static_cast<uint32_t>(mode);
    c.layout[kLayoutIcb] = icb;
    c.layout[kLayoutOcb] = ocb;
    c.layout[kLayoutBlock] = block;
    c.layout[kLayoutFull] = full;
    c.fpu = FpuOp::None;  // the init reprograms math for its data copy: the next operation needs its own init
}

// The `pages` pages at the front (read) or back (write) of a CB, contiguous in L1.
uint8_t* pages_at(Session& s, Cb& cb, bool front, uint32_t first, uint32_t pages) {
    const uint32_t page = (front ? cb.rd_page() : cb.wr_page()) + first;
    if (page % cb.capacity + pages > cb.capacity) {
        fail(s, std::string(s.t.call.name) + " on " + std::to_string(pages) + " pages of CB " +
                    std::to_string(cb.index) + " that wrap around its end (" + std::to_string(cb.capacity) +
                    " pages): the page counts of a CB must divide its capacity");
    }
    return &s.core.l1[cb.page_addr(page)];
}

void round_dst(const ComputeState& c, float* tile) {
    if (c.fp32_acc) return;
    for (uint32_t i = 0; i < kTileElems; ++i) tile[i] = round_to_bf16(tile[i]);
}

}  // namespace

void need_plain_layout(Session& s, const ComputeState& c, const char* unit) {
    const bool unpack = std::string(unit) == "unpack";
    if (mode_of(c) == (unpack ? LayoutMode::Tilize : LayoutMode::Untilize)) {
        fail(s, std::string(s.t.call.name) + " while the " + (unpack ? "unpacker" : "packer") + " is set up for " +
                    mode_name(mode_of(c)) + " of CBs " + std::to_string(c.layout[kLayoutIcb]) + " -> " +
                    std::to_string(c.layout[kLayoutOcb]) + ": call " + (unpack ? "tilize_uninit" : "pack_untilize_uninit") +
                    " first");
    }
}

namespace kapi {

void tilize_init(uint32_t icb, uint32_t block, uint32_t ocb) {
    Session s = enter("tilize_init", {icb, block, ocb});
    ComputeState& c = compute_of(s);
    if (block == 0) fail(s, "tilize_init with a block of 0 tiles");
    start(s, c, LayoutMode::Tilize, icb, ocb, block, block);
}

void tilize_block(uint32_t icb, uint32_t block, uint32_t ocb) {
    Session s = enter("tilize_block", {icb, block, ocb});
    ComputeState& c = compute_of(s);
    need_mode(s, c, LayoutMode::Tilize, icb, ocb, block);
    need_dst_free(s, c);
    Cb& in = tile_cb(s, icb);
    Cb& out = tile_cb(s, ocb);
    need_unpack_formats(s, c, icb, -1);
    need_pack_format(s, c, ocb);
    claim(s, in, false);
    claim(s, out, true);
    if (in.waited < block) {
        fail(s, "tilize_block reads " + std::to_string(block) + " pages of rows from CB " + std::to_string(icb) +
                    " but only " + std::to_string(in.waited) + " are waited for: call cb_wait_front first");
    }
    if (out.packed + block > out.reserved) {
        fail(s, "tilize_block writes " + std::to_string(block) + " tiles to CB " + std::to_string(ocb) + " after " +
                    std::to_string(out.packed) + ", but only " + std::to_string(out.reserved) +
                    " pages are reserved (cb_reserve_back first)");
    }
    need_page_content(s, in, 0, block, true);
    const uint8_t* rows = pages_at(s, in, true, 0, block);
    float tile[kTileElems];
    for (uint32_t t = 0; t < block; ++t) {
        unpack_rows(rows, in.format, block * 32, t * 32, tile);
        round_dst(c, tile);
        const uint32_t addr = out.page_addr(out.wr_page() + out.packed);
        pack_tile_data(tile, out.format, &s.core.l1[addr]);
        l1_written(s.core, addr, out.page_bytes, 1);
        out.packed += 1;
        s.core.counters[kCopyTiles] += 1;
        s.core.counters[kPackTiles] += 1;
    }
}

void tilize_uninit(uint32_t icb, uint32_t ocb) {
    Session s = enter("tilize_uninit", {icb, ocb});
    ComputeState& c = compute_of(s);
    need_mode(s, c, LayoutMode::Tilize, icb, ocb, c.layout[kLayoutBlock]);
    c.layout[kLayoutMode] = static_cast<uint32_t>(LayoutMode::None);
}

void pack_untilize_uninit(uint32_t ocb) {
    Session s = enter("pack_untilize_uninit", {ocb});
    ComputeState& c = compute_of(s);
    need_mode(s, c, LayoutMode::Untilize, c.layout[kLayoutIcb], ocb, c.layout[kLayoutBlock]);
    c.layout[kLayoutMode] = static_cast<uint32_t>(LayoutMode::None);
}

namespace detail {

void pack_untilize_init(uint32_t block_ct_dim, uint32_t full_ct_dim, uint32_t icb, uint32_t ocb) {
    Session s = enter("pack_untilize_init", {block_ct_dim, full_ct_dim, icb, ocb});
    ComputeState& c = compute_of(s);
    if (block_ct_dim == 0 || full_ct_dim % block_ct_dim != 0) {
        fail(s, "pack_untilize_init<" + std::to_string(block_ct_dim) + ", " + std::to_string(full_ct_dim) +
                    ">: full_ct_dim must be a multiple of block_ct_dim");
    }
    if (block_ct_dim > c.capacity) {
        fail(s, "pack_untilize_init<" + std::to_string(block_ct_dim) + ", ...> holds " + std::to_string(block_ct_dim) +
                    " tiles in DST at once, more than a DST section (" + std::to_string(c.capacity) + " tiles, " +
                    (c.fp32_acc ? "fp32_dest_acc_en" : "16-bit") + ", half-sync)");
    }
    if (block_ct_dim != full_ct_dim) {
        fail(s, "pack_untilize_init with block_ct_dim != full_ct_dim (a tile row in several DST blocks) is not emulated");
    }
    start(s, c, LayoutMode::Untilize, icb, ocb, block_ct_dim, full_ct_dim);
}

void pack_untilize_block(uint32_t block_ct_dim, uint32_t full_ct_dim, uint32_t icb, uint32_t block_rt_dim,
                         uint32_t ocb, uint32_t block_c_index) {
    Session s = enter("pack_untilize_block", {block_ct_dim, full_ct_dim, icb, block_rt_dim, ocb, block_c_index});
    // The emulator's tile rows are one DST block (pack_untilize_init refuses block_ct_dim != full_ct_dim): block 0.
    if (block_c_index != 0) fail(s, "pack_untilize_block of block " + std::to_string(block_c_index) + " of a tile row of one block");
    ComputeState& c = compute_of(s);
    need_mode(s, c, LayoutMode::Untilize, icb, ocb, block_ct_dim);
    if (full_ct_dim != c.layout[kLayoutFull]) {
        fail(s, "pack_untilize_block<..., " + std::to_string(full_ct_dim) + "> but pack_untilize_init set up tile "
                "rows of " + std::to_string(c.layout[kLayoutFull]) + " tiles");
    }
    if (block_rt_dim != 1) fail(s, "pack_untilize_block of " + std::to_string(block_rt_dim) + " tile rows is not emulated (1)");
    need_dst_free(s, c);
    Cb& in = tile_cb(s, icb);
    Cb& out = tile_cb(s, ocb);
    need_unpack_formats(s, c, icb, -1);
    claim(s, in, false);
    claim(s, out, true);
    if (in.waited < block_ct_dim) {
        fail(s, "pack_untilize_block reads " + std::to_string(block_ct_dim) + " tiles of CB " + std::to_string(icb) +
                    " but only " + std::to_string(in.waited) + " are waited for: call cb_wait_front first");
    }
    if (out.packed + full_ct_dim > out.reserved) {
        fail(s, "pack_untilize_block writes " + std::to_string(full_ct_dim) + " pages of rows to CB " +
                    std::to_string(ocb) + " after " + std::to_string(out.packed) + ", but only " +
                    std::to_string(out.reserved) + " pages are reserved (cb_reserve_back first)");
    }
    uint8_t* rows = pages_at(s, out, false, out.packed, full_ct_dim);
    float tile[kTileElems];
    for (uint32_t t = 0; t < block_ct_dim; ++t) {
        unpack_operand(s, icb, t, tile);
        round_dst(c, tile);
        pack_rows(tile, out.format, full_ct_dim * 32, t * 32, rows);
        s.core.counters[kCopyTiles] += 1;
        s.core.counters[kPackTiles] += 1;
    }
    l1_written(s.core, out.page_addr(out.wr_page() + out.packed), full_ct_dim * out.page_bytes, 2);
    out.packed += full_ct_dim;
}

}  // namespace detail
}  // namespace kapi
}  // namespace tt_emu
