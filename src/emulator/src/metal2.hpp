// The headers tt-metal's JIT writes for a Metal 2.0 kernel (jit_build/genfiles.cpp), for the emulator's JIT
// (metal2_headers.cpp): kernel_bindings_generated.h (`dfb::`, `sem::` and `tensor::` binding
// tokens), kernel_args_generated.h
// (`args::` accessors and the vararg helpers) and chlkc_descriptors.h (the CB descriptors that kernel_lib's helpers
// read at compile time: formats, tile dimensions and sizes per CB index).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "program.hpp"

namespace tt_emu::metal2 {

// The name of a tensor binding's implicit common runtime argument (its base address), as tt-metal reserves it.
inline constexpr const char* kTensorAddrPrefix = "__ta_addr_";

struct TensorSlot {
    std::string name;           // `tensor::<name>`
    uint32_t cta_offset;        // its TensorAccessorArgs among the positional compile-time arguments
    uint32_t addr_crta_offset;  // byte offset of its base address among the common runtime arguments
};

struct Layout {
    std::vector<std::pair<std::string, uint16_t>> dfbs;  // `dfb::<name>` and its DFB (CB) index
    std::vector<TensorSlot> tensors;
    std::vector<std::pair<std::string, uint32_t>> sems;  // `sem::<name>` and its semaphore id (scope LOCAL_NONATOMIC)
    std::vector<std::string> rtas;                           // per-core named arguments, in order
    std::vector<std::string> crtas;                          // named common ones, then the tensor addresses
    std::vector<std::pair<std::string, uint32_t>> ctas;      // named compile-time arguments
    std::vector<tt::DataFormat> formats;                     // of every DFB of the program, by index
    bool compute = false;                                    // a compute kernel: its DST modes follow
    bool fp32_dest_acc = false;
    bool dst_full_sync = false;
    uint32_t math_fidelity = 4;  // ckernel::MathFidelity (HiFi4)
};

// Why the names cannot be emitted (not C++ identifiers, or one name twice in a namespace); empty when they can.
std::string check_names(const Layout& layout);

std::vector<GeneratedHeader> headers(const Layout& layout);

// chlkc_descriptors.h of a data-movement kernel made with CreateKernel, from the CB formats of its program (by
// index): tt-metal's JIT gives every kernel the CB descriptors, which 0.81.1's dataflow_api.h reads in its constexpr
// get_tile_size and get_dataformat (ttnn's matmul readers size their tiles so, at compile time).
GeneratedHeader dm_descriptors(const std::vector<tt::DataFormat>& formats);

}  // namespace tt_emu::metal2
