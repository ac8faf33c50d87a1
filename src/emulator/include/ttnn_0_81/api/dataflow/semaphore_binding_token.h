// Emulator version of tt-metal's <api/dataflow/semaphore_binding_token.h> (ttnn 0.81.1): what a Metal 2.0 kernel's
// generated `sem::<name>` is. The host resolves each binding's access mechanism (SemScope) from where its binders
// run; on Wormhole (Gen1) a data-movement binding is always LOCAL_NONATOMIC, the plain L1 word, which is the only
// scope the emulator's host emits and its Semaphore accepts.
#pragma once

#include <cstdint>

enum class SemScope : std::uint8_t {
    LOCAL_NONATOMIC = 0,
    DM_LOCAL_CACHED = 1,  // Quasar
    EXTERNAL = 2,         // Quasar
    COMPUTE_ATOMIC = 3,   // Blackhole and Quasar compute kernels
};

struct SemaphoreBindingToken {
    std::uint32_t id;
    SemScope scope;
};
