// Kernel API: the data formats the unpacker (SrcA, SrcB) and the packer are configured for, as the hardware
// holds them between calls. A full hardware configuration (compute_kernel_hw_startup, mm_init,
// binary_op_init_common, init_sfpu) sets all three, once, at the start of the kernel; reconfig_data_format,
// reconfig_data_format_srca and pack_reconfig_data_format change them later. Short inits (matmul_init,
// mm_init_short, add_init, copy_init, ...) leave them as they are, as on hardware. A tile math call that
// unpacks, or a pack call that writes, a CB of another format than the configured one is an error: the
// hardware would misread or mis-pack its tiles.
#include <string>

#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

namespace {

ComputeState& compute_state(Session& s) {
    if (s.t.spec->kind != KernelKind::Compute || !s.core.compute) {
        fail(s, "compute API called from a data-movement kernel");
    }
    return *s.core.compute;
}

void set_slot(Session& s, FormatSlot& slot, int64_t cb) {
    if (cb < 0) return;
    slot.format = cb_of(s, cb).format;
    slot.cb = static_cast<uint32_t>(cb);
    slot.by = s.t.call.str();
}

void check_slot(Session& s, const FormatSlot& slot, const char* unit, uint32_t cb, const char* fix) {
    const Cb& used = cb_of(s, cb);
    if (slot.format == used.format) return;
    fail(s, std::string("data format mismatch: ") + s.t.call.name + " uses CB " + std::to_string(cb) + " (" +
                format_name(used.format) + ") through " + unit + ", which is configured for " +
                format_name(slot.format) + " (CB " + std::to_string(slot.cb) + ", by " + slot.by + "); call " + fix +
                " first");
}

// The conditional forms (ttnn 0.81.1's `(old, new)` overloads) name each unit's old CB (`old_*` >= 0): the unit is
// reconfigured only when the old operand's format differs from the new one's; when they are equal the hardware keeps
// its configuration, so a configuration that was not the old operand's stays wrong, and the next use of the unit
// reports it. Each unit decides alone (tt-llk's llk_unpack_reconfig_data_format(old_a, new_a, old_b, new_b)).
void reconfigure(const Call& call, int64_t srca_cb, int64_t srcb_cb, int64_t pack_cb, int64_t old_srca = -1,
                 int64_t old_srcb = -1, int64_t old_pack = -1) {
    Session s = enter(call);
    ComputeState& c = compute_state(s);
    if (!c.started) {
        fail(s, std::string(call.name) + " before the hardware start-up (compute_kernel_hw_startup or a full init)");
    }
    auto unchanged = [&](int64_t old_cb, int64_t new_cb) {
        return old_cb >= 0 && new_cb >= 0 && cb_of(s, old_cb).format == cb_of(s, new_cb).format;
    };
    if (unchanged(old_srca, srca_cb)) srca_cb = -1;
    if (unchanged(old_srcb, srcb_cb)) srcb_cb = -1;
    if (unchanged(old_pack, pack_cb)) pack_cb = -1;
    configure_formats(s, c, false, srca_cb, srcb_cb, pack_cb);
}

}  // namespace

void configure_formats(Session& s, ComputeState& c, bool full, int64_t srca_cb, int64_t srcb_cb, int64_t pack_cb) {
    if (full && c.computed) {
        fail(s, std::string("full hardware configuration after the first compute call: ") + s.t.call.name +
                    " configures unpack, math and pack for the whole kernel and runs once, at its start; switch "
                    "operations with their short init and reconfig_data_format / pack_reconfig_data_format");
    }
    set_slot(s, c.srca, srca_cb);
    set_slot(s, c.srcb, srcb_cb);
    set_slot(s, c.packer, pack_cb);
}

void need_unpack_formats(Session& s, ComputeState& c, uint32_t srca_cb, int64_t srcb_cb) {
    check_slot(s, c.srca, "the unpacker's SrcA", srca_cb, "reconfig_data_format (or reconfig_data_format_srca)");
    if (srcb_cb >= 0) {
        check_slot(s, c.srcb, "the unpacker's SrcB", static_cast<uint32_t>(srcb_cb), "reconfig_data_format");
    }
    c.computed = true;
}

void need_pack_format(Session& s, ComputeState& c, uint32_t cb) {
    check_slot(s, c.packer, "the packer", cb, "pack_reconfig_data_format");
    c.computed = true;
}

// The rounding a math result takes in a 16-bit DST: the DST format follows SrcA's (data_format.cpp of tt-metal).
void finish_math(const ComputeState& c, float* d) {
    if (c.fp32_acc) return;
    if (c.srca.format == DataFormat::Float16) {  // FP16-style SrcA: a 16-bit DST holds fp16, not bf16
        for (uint32_t i = 0; i < kTileElems; ++i) d[i] = round_to_fp16(d[i]);
        return;
    }
    for (uint32_t i = 0; i < kTileElems; ++i) d[i] = round_to_bf16(d[i]);
}

namespace kapi {

void reconfig_data_format(uint32_t srca_cb, uint32_t srcb_cb) {
    reconfigure(make_call("reconfig_data_format", {srca_cb, srcb_cb}), srca_cb, srcb_cb, -1);
}

void reconfig_data_format_srca(uint32_t srca_cb) {
    reconfigure(make_call("reconfig_data_format_srca", {srca_cb}), srca_cb, -1, -1);
}

void pack_reconfig_data_format(uint32_t ocb) { reconfigure(make_call("pack_reconfig_data_format", {ocb}), -1, -1, ocb); }

void reconfig_data_format_srca(uint32_t old_srca_cb, uint32_t srca_cb) {
    reconfigure(make_call("reconfig_data_format_srca", {old_srca_cb, srca_cb}), srca_cb, -1, -1, old_srca_cb);
}

void pack_reconfig_data_format(uint32_t old_ocb, uint32_t ocb) {
    reconfigure(make_call("pack_reconfig_data_format", {old_ocb, ocb}), -1, -1, ocb, -1, -1, old_ocb);
}

void reconfig_data_format_srcb(uint32_t srcb_cb) {
    reconfigure(make_call("reconfig_data_format_srcb", {srcb_cb}), -1, srcb_cb, -1);
}

void reconfig_data_format_srcb(uint32_t old_srcb_cb, uint32_t srcb_cb) {
    reconfigure(make_call("reconfig_data_format_srcb", {old_srcb_cb, srcb_cb}), -1, srcb_cb, -1, -1, old_srcb_cb);
}

void reconfig_data_format(uint32_t old_srca_cb, uint32_t srca_cb, uint32_t old_srcb_cb, uint32_t srcb_cb) {
    reconfigure(make_call("reconfig_data_format", {old_srca_cb, srca_cb, old_srcb_cb, srcb_cb}), srca_cb, srcb_cb, -1,
                old_srca_cb, old_srcb_cb);
}

}  // namespace kapi
}  // namespace tt_emu
