// The SFPU of the emulator: one table with the math of every SFPU tile call of the op map (specs/ops; the calls,
// their codes and inits are rendered into tt_emu/sfpu_ops.hpp), and the entry points the rendered kernel API
// headers forward those calls to. Math is the float32 reference function of each operation; the result is
// rounded as DST holds it (bf16 unless fp32_dest_acc_en), like every math call.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"
#include "tt_emu/sfpu_ops.hpp"

namespace tt_emu {

namespace {

using sfpu::Op;

// One element: x is the DST value (the first operand of a binary call), v the call's scalar (the second operand).
struct SfpuMath {
    Op op;
    float (*apply)(float x, float v);
    float (*bounded)(float x, float lo, float hi) = nullptr;  // a call of two scalars (sfpu_bounds)
};

constexpr SfpuMath kSfpuTable[] = {
    {Op::exp_tile, [](float x, float) { return std::exp(x); }},
    {Op::exp2_tile, [](float x, float) { return std::exp2(x); }},
    {Op::log_tile, [](float x, float) { return std::log(x); }},
    {Op::sqrt_tile, [](float x, float) { return std::sqrt(x); }},
    {Op::rsqrt_tile, [](float x, float) { return 1.0f / std::sqrt(x); }},
    {Op::recip_tile, [](float x, float) { return 1.0f / x; }},
    {Op::sigmoid_tile, [](float x, float) { return 1.0f / (1.0f + std::exp(-x)); }},
    {Op::tanh_tile, [](float x, float) { return std::tanh(x); }},
    {Op::relu_tile, [](float x, float) { return x > 0.0f ? x : 0.0f; }},
    {Op::fill_tile, [](float, float v) { return v; }},
    {Op::add_unary_tile, [](float x, float v) { return x + v; }},
    {Op::sub_unary_tile, [](float x, float v) { return x - v; }},
    {Op::mul_unary_tile, [](float x, float v) { return x * v; }},
    {Op::div_unary_tile, [](float x, float v) { return x / v; }},
    {Op::rsub_unary_tile, [](float x, float v) { return v - x; }},
    // ckernel_sfpu_clamp.h: SFPSWAP's maximum with lo, then its minimum with hi.
    {Op::clamp_tile, nullptr, [](float x, float lo, float hi) { return std::fmin(std::fmax(x, lo), hi); }},
    {Op::binary_max_tile, [](float a, float b) { return std::fmax(a, b); }},
    {Op::binary_min_tile, [](float a, float b) { return std::fmin(a, b); }},
    {Op::add_binary_tile, [](float a, float b) { return a + b; }},
    // comp.h: 1.0 where the comparison with zero holds, 0.0 elsewhere (ckernel_sfpu_comp.h apply_zero_comp).
    {Op::eqz_tile, [](float x, float) { return x == 0.0f ? 1.0f : 0.0f; }},
    {Op::nez_tile, [](float x, float) { return x != 0.0f ? 1.0f : 0.0f; }},
    {Op::gtz_tile, [](float x, float) { return x > 0.0f ? 1.0f : 0.0f; }},
    {Op::gez_tile, [](float x, float) { return x >= 0.0f ? 1.0f : 0.0f; }},
    {Op::ltz_tile, [](float x, float) { return x < 0.0f ? 1.0f : 0.0f; }},
    {Op::lez_tile, [](float x, float) { return x <= 0.0f ? 1.0f : 0.0f; }},
};

// The code of the first tile call of the op map without math here (0: none); a failing static_assert below names
// it as a number, the code of tt_emu/sfpu_ops.hpp.
constexpr int first_call_without_math() {
    for (int code = 0; code < sfpu::kCallCount; ++code) {
        bool found = !sfpu::is_tile_call(static_cast<Op>(code));
        for (const SfpuMath& m : kSfpuTable) found = found || m.op == static_cast<Op>(code);
        if (!found) return code;
    }
    return 0;
}
static_assert(first_call_without_math() == 0, "an SFPU tile call of the op map has no entry in kSfpuTable");

const SfpuMath& math_of(Op op) {
    for (const SfpuMath& m : kSfpuTable) {
        if (m.op == op) return m;
    }
    return kSfpuTable[0];  // unreachable: the static_assert above
}

// A tile call after its init (the last SFPU init must be the one it needs).
ComputeState& need_init(Session& s, Op op) {
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    const sfpu::Call& call = sfpu::call(op);
    if (c.sfpu != static_cast<int>(call.init)) {
        fail(s, std::string("missing math init: ") + call.name + " needs " + sfpu::call(call.init).name +
                    " since the last SFPU init of another operation (last SFPU init: " +
                    sfpu::call(static_cast<Op>(c.sfpu)).name + ")");
    }
    return c;
}

}  // namespace

namespace kapi::detail {

void sfpu_init(Op op) {
    Session s = enter(sfpu::call(op).name, {});
    ComputeState& c = compute_of(s);
    need_startup(s, c);
    c.sfpu = static_cast<int>(op);
    c.cumsum_init = false;
    c.typecast_init = false;
    c.where_init = false;
}

void sfpu(Op op, uint32_t idst, float value) {
    Session s = enter(sfpu::call(op).name, {idst});
    ComputeState& c = need_init(s, op);
    float* d = math_dst(s, c, idst, false);
    c.computed = true;
    c.cumsum_carried = false;  // the SFPU's registers now hold this call's values
    const SfpuMath& math = math_of(op);
    for (uint32_t i = 0; i < kTileElems; ++i) d[i] = math.apply(d[i], value);
    finish_math(c, d);
    s.core.counters[kSfpuTiles] += 1;
}

void sfpu_bounds(Op op, uint32_t idst, float lo, float hi) {
    Session s = enter(sfpu::call(op).name, {idst});
    ComputeState& c = need_init(s, op);
    float* d = math_dst(s, c, idst, false);
    c.computed = true;
    c.cumsum_carried = false;
    const SfpuMath& math = math_of(op);
    for (uint32_t i = 0; i < kTileElems; ++i) d[i] = math.bounded(d[i], lo, hi);
    finish_math(c, d);
    s.core.counters[kSfpuTiles] += 1;
}

void sfpu_binary(Op op, uint32_t idst0, uint32_t idst1, uint32_t odst) {
    Session s = enter(sfpu::call(op).name, {idst0, idst1, odst});
    ComputeState& c = need_init(s, op);
    std::vector<float> operands(2 * kTileElems);
    for (uint32_t k = 0; k < 2; ++k) {
        const uint32_t idst = k ? idst1 : idst0;
        if (idst < c.capacity && !((c.written >> idst) & 1u)) {
            fail(s, std::string(sfpu::call(op).name) + " reads DST tile " + std::to_string(idst) +
                        ", which no math call wrote since tile_regs_acquire (copy_tile the operand first)");
        }
        const float* src = math_dst(s, c, idst, false);
        std::copy(src, src + kTileElems, operands.begin() + k * kTileElems);
    }
    float* d = math_dst(s, c, odst, false);
    c.computed = true;
    c.cumsum_carried = false;
    const SfpuMath& math = math_of(op);
    for (uint32_t i = 0; i < kTileElems; ++i) d[i] = math.apply(operands[i], operands[kTileElems + i]);
    finish_math(c, d);
    s.core.counters[kSfpuTiles] += 1;
}

}  // namespace kapi::detail

}  // namespace tt_emu
