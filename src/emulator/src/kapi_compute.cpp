// Kernel API: compute start-up and inits, the DST register protocol, and tile math in fp32 (rounded to
// bf16 after every math operation unless fp32_dest_acc_en).
#include <cstdint>
#include <cmath>
#include <cstring>
#include <string>

#include "cb_fresh.hpp"
#include "compute.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

ComputeState& compute_of(Session& s) {
    if (s.t.spec->kind != KernelKind::Compute || !s.core.compute) {
        fail(s, "compute API called from a data-movement kernel");
    }
    return *s.core.compute;
}

void need_startup(Session& s, ComputeState& c) {
    if (!c.started) {
        fail(s, "no hardware start-up: call compute_kernel_hw_startup (or a full init: mm_init, "
                "binary_op_init_common, init_sfpu) before any other compute call");
    }
}

// DST tile `idst` for a math operation: the section must be acquired by math and idst inside it.
float* math_dst(Session& s, ComputeState& c, uint32_t idst, bool fpu) {
    if (c.dst == DstState::Released) {
        fail(s, "math without tile_regs_acquire: the DST section is not acquired");
    }
    if (c.dst != DstState::Acquired) fail(s, math_after_commit(c));
    if (idst >= c.capacity) {
        fail(s, "DST tile " + std::to_string(idst) + " is beyond the " + std::to_string(c.capacity) +
                    " tiles of a DST section (" + (c.fp32_acc ? "fp32_dest_acc_en" : "16-bit") + ", half-sync)");
    }
    c.written |= 1u << idst;
    if (fpu) c.reduced &= ~(1u << idst);
    return &c.tiles[size_t{idst} * kTileElems];
}

namespace {
const char* init_name(FpuOp op) {
    switch (op) {
        case FpuOp::Matmul: return "matmul_init (or mm_init)";
        case FpuOp::Add: return "add_tiles_init (or add_init)";
        case FpuOp::Sub: return "sub_tiles_init (or sub_init)";
        case FpuOp::Mul: return "mul_tiles_init (or mul_init)";
        case FpuOp::Copy: return "copy_tile_init (or copy_init)";
        case FpuOp::Transpose: return "transpose_init (or transpose_wh_init_short)";
        case FpuOp::Reduce: return "reduce_init";
        case FpuOp::AddBcastCols: return "add_bcast_cols_init (or add_bcast_cols_init_short)";
        case FpuOp::SubBcastCols: return "sub_bcast_cols_init (or sub_bcast_cols_init_short)";
        case FpuOp::MulBcastCols: return "mul_bcast_cols_init (or mul_bcast_cols_init_short)";
        case FpuOp::AddBcastRows: return "add_bcast_rows_init (or add_bcast_rows_init_short)";
        case FpuOp::MulBcastRows: return "mul_bcast_rows_init (or mul_bcast_rows_init_short)";
        case FpuOp::AddBcastScalar: return "add_bcast_scalar_init (or add_bcast_scalar_init_short)";
        case FpuOp::SubBcastScalar: return "sub_bcast_scalar_init (or sub_tiles_bcast_scalar_init_short)";
        case FpuOp::MulBcastScalar: return "mul_bcast_scalar_init (or mul_tiles_bcast_scalar_init_short)";
        case FpuOp::None: break;
    }
    return "none";
}

}  // namespace

// A CB the FPU reads or the packer writes: configured, a tile format, one tile per page.
Cb& tile_cb(Session& s, uint32_t cb_id) {
    Cb& cb = cb_of(s, cb_id);
    if (!tile_format_supported(cb.format)) {
        fail(s, "CB " + std::to_string(cb_id) + " has data format " + format_name(cb.format) +
                    "; the emulator's tile math supports Float32, Float16(_b), Bfp8/4/2_b, Int32, UInt32/16/8");
    }
    if (integer_format(cb.format) && !compute_of(s).fp32_acc) {
        fail(s, "CB " + std::to_string(cb_id) + " has integer data format " + format_name(cb.format) +
                    ", which the emulator holds in 32-bit DST only: the compute kernel needs fp32_dest_acc_en");
    }
    if (cb.page_bytes != tile_bytes(cb.format)) {
        fail(s, "CB " + std::to_string(cb_id) + " pages are " + std::to_string(cb.page_bytes) +
                    " B, not one 32x32 " + format_name(cb.format) + " tile (" +
                    std::to_string(tile_bytes(cb.format)) + " B)");
    }
    return cb;
}

// Tile `tile` (relative to the front) of an input CB, which must be among its waited pages: its page in L1.
const uint8_t* operand_page(Session& s, uint32_t cb_id, uint32_t tile, DataFormat& format) {
    Cb& cb = tile_cb(s, cb_id);
    claim(s, cb, false);
    if (tile >= cb.waited) {
        fail(s, "tile " + std::to_string(tile) + " of CB " + std::to_string(cb_id) + " is not among its waited pages (" +
                    std::to_string(cb.waited) + " waited): call cb_wait_front first");
    }
    need_page_content(s, cb, tile, 1, false);
    format = cb.format;
    return &s.core.l1[cb.page_addr(cb.rd_page() + tile)];
}

TileBits unpack_operand(Session& s, uint32_t cb_id, uint32_t tile, float* out) {
    DataFormat format;
    const uint8_t* page = operand_page(s, cb_id, tile, format);
    return unpack_tile(page, format, out);
}

void need_fpu(Session& s, ComputeState& c, FpuOp op, uint32_t cb0, uint32_t cb1) {
    need_startup(s, c);
    if (c.fpu != op) {
        fail(s, std::string("missing math init: ") + s.t.call.name + " needs " + init_name(op) +
                    " since the last init of another operation (last FPU init: " + init_name(c.fpu) + ")");
    }
    need_init_operands(s, c, op, cb0, cb1);
    // An init configures the unpacker for its CBs' data formats; operands in other formats would be misread.
    for (int i = 0; i < 2; ++i) {
        const uint32_t used = i ? cb1 : cb0;
        const Cb& a = cb_of(s, c.fpu_cb[i]);
        const Cb& b = cb_of(s, used);
        if (a.format != b.format) {
            fail(s, std::string(init_name(op)) + " configured CB " + std::to_string(c.fpu_cb[i]) + " (" +
                        format_name(a.format) + ") but operand CB " + std::to_string(used) + " is " +
                        format_name(b.format));
        }
    }
}

void init_fpu(Session& s, FpuOp op, uint32_t cb0, uint32_t cb1, bool full) {
    ComputeState& c = compute_of(s);
    need_plain_layout(s, c, "unpack");
    cb_of(s, cb0);
    cb_of(s, cb1);
    if (full) {
        c.started = true;
    } else {
        need_startup(s, c);
    }
    c.fpu = op;
    c.fpu_cb[0] = cb0;
    c.fpu_cb[1] = cb1;
}

namespace {

void binary(const char* name, FpuOp op, uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1,
            uint32_t idst) {
    Session s = enter(name, {icb0, icb1, itile0, itile1, idst});
    ComputeState& c = compute_of(s);
    need_fpu(s, c, op, icb0, icb1);
    need_unpack_formats(s, c, icb0, icb1);
    float* d = math_dst(s, c, idst);
    float a[kTileElems], b[kTileElems];
    unpack_operand(s, icb0, itile0, a);
    unpack_operand(s, icb1, itile1, b);
    for (uint32_t i = 0; i < kTileElems; ++i) {
        d[i] = op == FpuOp::Add ? a[i] + b[i] : op == FpuOp::Sub ? a[i] - b[i] : fidelity_product(a[i], b[i], c.fidelity);
    }
    finish_math(c, d);
    s.core.counters[kEltwiseTiles] += 1;
}

void tile_init(const char* name, FpuOp op, uint32_t icb0, uint32_t icb1, bool acc_to_dest) {
    Session s = enter(name, {icb0, icb1});
    if (acc_to_dest) fail(s, "acc_to_dest = true is not emulated");
    init_fpu(s, op, icb0, icb1, false);
}

}  // namespace

namespace kapi {
namespace detail {

void hw_startup(bool reverse, int operands, uint32_t icb0, uint32_t icb1, uint32_t ocb) {
    Session s = enter(operands == 3 ? make_call("compute_kernel_hw_startup", {icb0, icb1, ocb})
                                    : make_call("compute_kernel_hw_startup", {icb0, ocb}));
    ComputeState& c = compute_of(s);
    configure_formats(s, c, true, reverse ? icb1 : icb0, reverse ? icb0 : icb1, ocb);  // Reverse: icb0 -> SrcB
    c.started = true;
}

void pack(uint32_t ifrom_dst, uint32_t icb, bool out_of_order, uint32_t output_tile_index) {
    Session s = enter("pack_tile", {ifrom_dst, icb});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    pack_in_full_section(c);
    if (c.dst == DstState::Released) fail(s, "pack_tile without tile_regs_wait: the DST section is not acquired");
    if (c.dst == DstState::Acquired) {
        fail(s, "pack_tile before tile_regs_commit and tile_regs_wait: the packer may only read DST after "
                "tile_regs_wait");
    }
    if (c.dst == DstState::Committed) fail(s, "pack_tile before tile_regs_wait");
    if (ifrom_dst >= c.capacity) {
        fail(s, "DST tile " + std::to_string(ifrom_dst) + " is beyond the " + std::to_string(c.capacity) +
                    " tiles of a DST section");
    }
    if (!((c.written >> ifrom_dst) & 1u)) {
        fail(s, "pack_tile packs DST tile " + std::to_string(ifrom_dst) +
                    ", which no math call wrote since tile_regs_acquire (the packer would emit stale data)");
    }
    need_plain_layout(s, c, "pack");
    need_pack_mode(s, c, ifrom_dst);
    Cb& cb = tile_cb(s, icb);
    need_pack_format(s, c, icb);
    claim(s, cb, true);
    const uint32_t pos = out_of_order ? output_tile_index : cb.packed;
    if (pos >= cb.reserved && !reserve_fresh_pages(s, cb, pos + 1)) {
        fail(s, "pack_tile writes page " + std::to_string(pos) + " of the reservation, but only " +
                    std::to_string(cb.reserved) + " pages of CB " + std::to_string(icb) +
                    " are reserved (cb_reserve_back first)");
    }
    const float* packed = &c.tiles[size_t{ifrom_dst} * kTileElems];
    float edge[kTileElems] = {};  // reduce_init's edge mask: only column 0 (row 0 for REDUCE_COL) leaves the packer
    for (uint32_t i = 0, at = 0; c.reduce.mask && i < 32; ++i) at = c.reduce.col ? i : i * 32, edge[at] = packed[at];
    if (c.reduce.mask) packed = edge;
    pack_into(s, cb, cb.wr_page() + pos, packed);
    l1_written(s.core, cb.page_addr(cb.wr_page() + pos), cb.page_bytes);
    if (!out_of_order) cb.packed += 1;
    s.core.counters[kPackTiles] += 1;
}

}  // namespace detail

void mm_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t out_cb_id, uint32_t transpose) {
    Session s = enter("mm_init", {in0_cb_id, in1_cb_id, out_cb_id});
    if (transpose) fail(s, "transposed matmul is not emulated");
    configure_formats(s, compute_of(s), true, in1_cb_id, in0_cb_id, out_cb_id);  // in1 -> SrcA, in0 -> SrcB
    init_fpu(s, FpuOp::Matmul, in0_cb_id, in1_cb_id, true);
}

void mm_init_short(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t transpose) {
    Session s = enter("mm_init_short", {in0_cb_id, in1_cb_id});
    if (transpose) fail(s, "transposed matmul is not emulated");
    init_fpu(s, FpuOp::Matmul, in0_cb_id, in1_cb_id, false);
}

void matmul_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t transpose) {
    Session s = enter("matmul_init", {in0_cb_id, in1_cb_id});
    if (transpose) fail(s, "transposed matmul is not emulated");
    init_fpu(s, FpuOp::Matmul, in0_cb_id, in1_cb_id, false);
}

void binary_op_init_common(uint32_t icb0, uint32_t icb1, uint32_t ocb) {
    Session s = enter("binary_op_init_common", {icb0, icb1, ocb});
    ComputeState& c = compute_of(s);
    configure_formats(s, c, true, icb0, icb1, ocb);
    c.started = true;
}

void add_tiles_init(uint32_t icb0, uint32_t icb1, bool acc) { tile_init("add_tiles_init", FpuOp::Add, icb0, icb1, acc); }
void sub_tiles_init(uint32_t icb0, uint32_t icb1, bool acc) { tile_init("sub_tiles_init", FpuOp::Sub, icb0, icb1, acc); }
void mul_tiles_init(uint32_t icb0, uint32_t icb1) { tile_init("mul_tiles_init", FpuOp::Mul, icb0, icb1, false); }
void add_init(uint32_t icb0, uint32_t icb1, bool acc) { tile_init("add_init", FpuOp::Add, icb0, icb1, acc); }
void sub_init(uint32_t icb0, uint32_t icb1, bool acc) { tile_init("sub_init", FpuOp::Sub, icb0, icb1, acc); }
void mul_init(uint32_t icb0, uint32_t icb1) { tile_init("mul_init", FpuOp::Mul, icb0, icb1, false); }

void init_sfpu(uint32_t icb, uint32_t ocb) {
    Session s = enter("init_sfpu", {icb, ocb});
    configure_formats(s, compute_of(s), true, icb, icb, ocb);
    init_fpu(s, FpuOp::Copy, icb, icb, true);
}

void unary_op_init_common(uint32_t icb, uint32_t ocb) {
    Session s = enter("unary_op_init_common", {icb, ocb});
    configure_formats(s, compute_of(s), true, icb, icb, ocb);
    init_fpu(s, FpuOp::Copy, icb, icb, true);
}

void copy_tile_init(uint32_t cbid) {
    Session s = enter("copy_tile_init", {cbid});
    init_fpu(s, FpuOp::Copy, cbid, cbid, false);
}

void copy_init(uint32_t cbid) {
    Session s = enter("copy_init", {cbid});
    init_fpu(s, FpuOp::Copy, cbid, cbid, false);
}

void copy_tile_to_dst_init_short(uint32_t cbid, uint32_t transpose) {
    Session s = enter("copy_tile_to_dst_init_short", {cbid});
    if (transpose) fail(s, "transposed copy is not emulated");
    init_fpu(s, FpuOp::Copy, cbid, cbid, false);
}

void transpose_init(uint32_t icb) {
    Session s = enter("transpose_init", {icb});
    init_fpu(s, FpuOp::Transpose, icb, icb, false);
}

void transpose_wh_init_short(uint32_t icb) {
    Session s = enter("transpose_wh_init_short", {icb});
    init_fpu(s, FpuOp::Transpose, icb, icb, false);
}

void tile_regs_acquire() {
    Session s = enter("tile_regs_acquire", {});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    if (c.dst != DstState::Released) {
        fail(s, "tile_regs_acquire twice: the DST section is still held (tile_regs_commit, tile_regs_wait and "
                "tile_regs_release must come first)");
    }
    std::memset(c.tiles.data(), 0, sizeof(float) * kTileElems * c.capacity);
    c.written = c.reduced = 0;
    c.dst = DstState::Acquired;
}

void tile_regs_commit() {
    Session s = enter("tile_regs_commit", {});
    ComputeState& c = compute_of(s);
    if (c.dst != DstState::Acquired) {
        fail(s, c.dst == DstState::Released ? "tile_regs_commit without tile_regs_acquire"
                                            : "tile_regs_commit twice (the section is already committed)");
    }
    c.dst = DstState::Committed;
}

void tile_regs_wait() {
    Session s = enter("tile_regs_wait", {});
    ComputeState& c = compute_of(s);
    if (c.dst != DstState::Committed) {
        fail(s, c.dst == DstState::Waited ? "tile_regs_wait twice"
                                          : "tile_regs_wait before tile_regs_commit: the packer would wait forever");
    }
    c.dst = DstState::Waited;
}

void tile_regs_release() {
    Session s = enter("tile_regs_release", {});
    ComputeState& c = compute_of(s);
    if (c.dst != DstState::Waited) {
        fail(s, c.dst == DstState::Released ? "tile_regs_release without tile_regs_acquire"
                                            : "tile_regs_release without tile_regs_wait");
    }
    c.dst = DstState::Released;
}

void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                  uint32_t idst, uint32_t transpose) {
    Session s = enter("matmul_tiles", {in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst});
    if (transpose) fail(s, "transposed matmul is not emulated");
    ComputeState& c = compute_of(s);
    need_fpu(s, c, FpuOp::Matmul, in0_cb_id, in1_cb_id);
    need_unpack_formats(s, c, in1_cb_id, in0_cb_id);  // matmul unpacks in1 into SrcA, in0 into SrcB
    float* d = math_dst(s, c, idst);
    // A block's matmuls read each operand tile once per tile of the other operand: unpacked once (tile.cpp).
    tt::DataFormat fa, fb;
    const uint8_t* page_a = operand_page(s, in0_cb_id, in0_tile_index, fa);
    const uint8_t* page_b = operand_page(s, in1_cb_id, in1_tile_index, fb);
    TileBits seen_a, seen_b;
    const float* a = unpack_tile_cached(page_a, fa, seen_a, nullptr);
    const float* b = unpack_tile_cached(page_b, fb, seen_b, a);
    if (c.fidelity < 4) {
        fidelity_matmul_acc(a, b, d, c.fidelity);  // in0 is SrcB, in1 SrcA
    } else {
        tile_matmul_acc(a, b, d, products_exact(seen_a, seen_b));
    }
    finish_math(c, d);
    s.core.counters[kMatmulTiles] += 1;
}

void add_tiles(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) { binary("add_tiles", FpuOp::Add, a, b, i, j, d); }
void sub_tiles(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) { binary("sub_tiles", FpuOp::Sub, a, b, i, j, d); }
void mul_tiles(uint32_t a, uint32_t b, uint32_t i, uint32_t j, uint32_t d) { binary("mul_tiles", FpuOp::Mul, a, b, i, j, d); }

void copy_tile(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
    Session s = enter("copy_tile", {in_cb_id, in_tile_index, dst_tile_index});
    ComputeState& c = compute_of(s);
    need_fpu(s, c, FpuOp::Copy, in_cb_id, in_cb_id);
    need_unpack_formats(s, c, in_cb_id, -1);
    float* d = math_dst(s, c, dst_tile_index);
    unpack_operand(s, in_cb_id, in_tile_index, d);
    finish_math(c, d);
    s.core.counters[kCopyTiles] += 1;
}

namespace {

// DST[idst] = transpose(tile itile of icb) (`name`: the call's spelling in the kernel's API profile).
void transpose(const char* name, uint32_t icb, uint32_t itile, uint32_t idst) {
    Session s = enter(name, {icb, itile, idst});
    ComputeState& c = compute_of(s);
    need_fpu(s, c, FpuOp::Transpose, icb, icb);
    need_unpack_formats(s, c, icb, -1);
    float* d = math_dst(s, c, idst);
    float a[kTileElems];
    unpack_operand(s, icb, itile, a);
    for (uint32_t i = 0; i < 32; ++i) {
        for (uint32_t j = 0; j < 32; ++j) d[j * 32 + i] = a[i * 32 + j];
    }
    finish_math(c, d);
    s.core.counters[kCopyTiles] += 1;
}

}  // namespace

void transpose_tile(uint32_t icb, uint32_t itile, uint32_t idst) { transpose("transpose_tile", icb, itile, idst); }
void transpose_wh_tile(uint32_t icb, uint32_t itile, uint32_t idst) { transpose("transpose_wh_tile", icb, itile, idst); }

}  // namespace kapi
}  // namespace tt_emu
