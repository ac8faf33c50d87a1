// The SFPU operations of the emulator, one table: each tile call, the init it needs and its math (emu.hpp).
#include <cmath>

#include "compute.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

namespace {

const SfpuMath kSfpuTable[] = {
    {kapi::kSfpuExp, "exp_tile", kapi::kSfpuExp, [](float x, float) { return std::exp(x); }},
    {kapi::kSfpuRelu, "relu_tile", kapi::kSfpuRelu, [](float x, float) { return x > 0.0f ? x : 0.0f; }},
    {kapi::kSfpuFill, "fill_tile", kapi::kSfpuFill, [](float, float v) { return v; }},
    {kapi::kSfpuAddScalar, "add_unary_tile", kapi::kSfpuBinopScalar, [](float x, float v) { return x + v; }},
    {kapi::kSfpuSubScalar, "sub_unary_tile", kapi::kSfpuBinopScalar, [](float x, float v) { return x - v; }},
    {kapi::kSfpuMulScalar, "mul_unary_tile", kapi::kSfpuBinopScalar, [](float x, float v) { return x * v; }},
    {kapi::kSfpuDivScalar, "div_unary_tile", kapi::kSfpuBinopScalar, [](float x, float v) { return x / v; }},
    {kapi::kSfpuRsubScalar, "rsub_unary_tile", kapi::kSfpuBinopScalar, [](float x, float v) { return v - x; }},
};

}  // namespace

const SfpuMath& sfpu_math(int op) {
    for (const SfpuMath& m : kSfpuTable) {
        if (m.op == op) return m;
    }
    return kSfpuTable[0];  // unreachable: kernel_api.hpp passes only the codes above
}

const char* sfpu_init_name(int op) {
    switch (op) {
        case kapi::kSfpuExp: return "exp_tile_init";
        case kapi::kSfpuRelu: return "relu_tile_init";
        case kapi::kSfpuFill: return "fill_tile_init";
        case kapi::kSfpuBinopScalar: return "binop_with_scalar_tile_init";
        default: return "none";
    }
}

}  // namespace tt_emu
