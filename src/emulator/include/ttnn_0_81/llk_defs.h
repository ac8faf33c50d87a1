// Emulator version of tt-llk's llk_lib/llk_defs.h (ttnn 0.81.1, wormhole_b0), as kernel_lib includes it: the ckernel
// enums kernels name (`ckernel::PoolType`, `ckernel::ReduceDim`, `ckernel::EltwiseBinaryType`, the
// `MATH_FIDELITY` descriptor's `ckernel::MathFidelity`; ckernel_defs.h's `PackMode`), the binary ops' DST reuse and
// broadcast kinds, and the packer's ReLU configuration (kernel_lib's eltwise chain names them; values as tt-llk's).
// They are the emulator's kernel API types, so a kernel may name them with or without `ckernel::`.
#pragma once

#include "tt_emu/kernel_api.hpp"

namespace ckernel {
using ::tt_emu::ktypes::EltwiseBinaryType;
using ::tt_emu::ktypes::PoolType;
using ::tt_emu::ktypes::ReduceDim;
enum class MathFidelity : std::uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };
enum class EltwiseBinaryReuseDestType { NONE = 0, DEST_TO_SRCA = 1, DEST_TO_SRCB = 2 };
enum class BroadcastType : std::uint8_t { NONE = 0x0, COL = 0x1, ROW = 0x2, SCALAR = 0x3 };
// The packer's ReLU: the mode in bits 0-1 of the packed word (RELU_MODE), the 16-bit threshold in bits 16-31.
enum class ReluType : std::uint8_t { NO_RELU = 0, ZERO_RELU, MIN_THRESHOLD_RELU, MAX_THRESHOLD_RELU };
struct ReluConfig {
    static constexpr ReluConfig none() { return {ReluType::NO_RELU}; }
    static constexpr ReluConfig zero() { return {ReluType::ZERO_RELU}; }
    static constexpr ReluConfig min_threshold(std::uint32_t t) { return {ReluType::MIN_THRESHOLD_RELU, t}; }
    static constexpr ReluConfig max_threshold(std::uint32_t t) { return {ReluType::MAX_THRESHOLD_RELU, t}; }
    static constexpr ReluConfig from_packed(std::uint32_t packed) {
        return {static_cast<ReluType>(packed & 0x3), (packed >> 16) & 0xFFFF};
    }
    constexpr ReluType get_mode() const { return mode; }
    constexpr std::uint32_t get_threshold() const { return threshold; }

private:
    constexpr ReluConfig(ReluType m, std::uint32_t t = 0) : mode(m), threshold(t) {}
    ReluType mode = ReluType::NO_RELU;
    std::uint32_t threshold = 0;
};
// ckernel_defs.h
enum class PackMode : std::uint8_t { Default = 0, Untilize = 1, Tilize = 2 };
}  // namespace ckernel
