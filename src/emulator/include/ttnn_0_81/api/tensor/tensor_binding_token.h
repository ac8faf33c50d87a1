// Emulator version of tt-metal's <api/tensor/tensor_binding_token.h> (ttnn 0.81.1): the handle `tensor::name` of a
// tensor bound to a Metal 2.0 kernel (emitted into kernel_bindings_generated.h from the ProgramSpec's tensor
// bindings). CTA_OFFSET is where the tensor's TensorAccessorArgs start among the kernel's compile-time arguments,
// ADDR_CRTA_OFFSET the byte offset of its base address among the common runtime arguments (filled from the tensor
// argument of each run); `TensorAccessor(tensor::name)` reads both.
#pragma once

#include <cstdint>

#include "tt_emu/kernel_api.hpp"

namespace tensor_accessor {

template <uint32_t CTA_OFFSET, uint32_t ADDR_CRTA_OFFSET>
struct TensorBindingToken {
    static_assert(ADDR_CRTA_OFFSET % sizeof(uint32_t) == 0, "TensorBindingToken: ADDR_CRTA_OFFSET must be 4-byte aligned");
    using args_t = ::tt_emu::ktypes::TensorAccessorArgs<CTA_OFFSET, ADDR_CRTA_OFFSET / sizeof(uint32_t) + 1>;
    static constexpr uint32_t addr_crta_offset = ADDR_CRTA_OFFSET;  // in bytes
    constexpr TensorBindingToken() noexcept = default;
    // `TensorAccessor(tensor::src)`: the args at CTA_OFFSET, the base address from the common runtime argument.
    operator ::tt_emu::ktypes::TensorAccessor() const {
        return ::tt_emu::ktypes::TensorAccessor(
            args_t{}, ::tt_emu::kapi::get_common_arg_val<uint32_t>(static_cast<int>(ADDR_CRTA_OFFSET / sizeof(uint32_t))));
    }
};

}  // namespace tensor_accessor
