// tt::CBIndex, the circular buffers of a core (Wormhole has 32), as host programs (tt-metalium's
// circular_buffer_constants.h) and kernels (hostdevcommon's kernel_structs.h, through the kernel API headers) name
// them. Shared by the emulator's host and kernel API headers; <cstdint> only.
#pragma once

#include <cstdint>

namespace tt {
enum CBIndex : uint8_t {
    c_0, c_1, c_2, c_3, c_4, c_5, c_6, c_7, c_8, c_9, c_10, c_11, c_12, c_13, c_14, c_15,
    c_16, c_17, c_18, c_19, c_20, c_21, c_22, c_23, c_24, c_25, c_26, c_27, c_28, c_29, c_30, c_31, SIZE
};
// The older names, "deprecated and to be deleted" but still in ttnn 0.81.1's kernel_structs.h (and 0.77.0, 0.65.0):
// inputs, dataflow, outputs and intermediates, 8 each (tt-metal's hello_world_datatypes_kernel names tt::CB::c_in0).
enum CB : uint8_t {
    c_in0, c_in1, c_in2, c_in3, c_in4, c_in5, c_in6, c_in7,
    dataflow0, dataflow1, dataflow2, dataflow3, dataflow4, dataflow5, dataflow6, dataflow7,
    c_out0, c_out1, c_out2, c_out3, c_out4, c_out5, c_out6, c_out7,
    c_intermed0, c_intermed1, c_intermed2, c_intermed3, c_intermed4, c_intermed5, c_intermed6, c_intermed7
};
}  // namespace tt
