// Emulator version of tt-metal's <api/dataflow/dfb_access.h> (ttnn 0.81.1): the access patterns of a DFB's producer
// and consumer (tt-2xx only; on tt-1xx every pattern moves one entry), the forward declaration of `DataflowBuffer`
// (its Wormhole form: no pattern template arguments) and the trait `is_dataflow_buffer_v` that kernel helpers
// (normalization's numeric.h) check their arguments with.
#pragma once

#include <cstdint>

namespace dfb {
enum AccessPattern : uint8_t {
    STRIDED,
    ALL,
    BLOCKED,
    UNKNOWN,
};
}  // namespace dfb

class DataflowBuffer;
using DataflowBufferAnyPattern = DataflowBuffer;

template <typename T>
inline constexpr bool is_dataflow_buffer_v = false;
template <>
inline constexpr bool is_dataflow_buffer_v<DataflowBuffer> = true;
