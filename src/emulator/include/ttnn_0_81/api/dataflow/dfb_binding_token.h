// Emulator version of tt-metal's <api/dataflow/dfb_binding_token.h> (ttnn 0.81.1; the access patterns in dfb_access.h):
// the handle `dfb::name` of a DataflowBuffer bound to a Metal 2.0 kernel (emitted into kernel_bindings_generated.h
// by the JIT from the ProgramSpec's DFB bindings). On Wormhole a DFB is a CB: the token converts to the CB index,
// as a constant expression, so kernels pass it to the compute API and use it as a template argument. The access
// patterns are the producer's and the consumer's (tt-2xx only; on tt-1xx every pattern moves one entry).
#pragma once

#include <cstdint>

#include "api/dataflow/dfb_access.h"

template <dfb::AccessPattern Pap = dfb::AccessPattern::UNKNOWN, dfb::AccessPattern Cap = dfb::AccessPattern::UNKNOWN>
struct DFBBindingToken {
    explicit constexpr DFBBindingToken(uint16_t id) noexcept : id_(id) {}
    constexpr operator uint32_t() const noexcept { return id_; }

private:
    uint16_t id_;
};
