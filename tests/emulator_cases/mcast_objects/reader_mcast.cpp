// The multicast reader of ../mcast/reader_mcast.cpp written with ttnn 0.81.1's object API, as ttnn's 2-D multicast
// matmul readers (reader_bmm_tile_layout_in0_sender_padding.cpp, _receiver.cpp) write it: `Semaphore<>` from a
// semaphore id (set, wait, up(noc, x, y, 1), set_multicast), `Noc::async_write_multicast` of a `CoreLocalMem` to a
// `MulticastEndpoint`, `Noc::async_atomic_barrier`, and tiles read through a TensorAccessor into a DataflowBuffer.
// Same runtime arguments (the FAULT_* seeds are not taken).
#include <cstdint>

#include "api/core_local_mem.h"
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/noc_semaphore.h"
#include "api/tensor/noc_traits.h"
#include "hostdevcommon/common_values.hpp"

constexpr uint32_t kTileBytes = 2048;

void kernel_main() {
    const uint32_t in_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_blocks = get_arg_val<uint32_t>(1);
    const uint32_t block_tiles = get_arg_val<uint32_t>(2);
    const bool is_sender = get_arg_val<uint32_t>(3) != 0;
    const uint32_t sender_x = get_arg_val<uint32_t>(4);
    const uint32_t sender_y = get_arg_val<uint32_t>(5);
    const uint32_t start_x = get_arg_val<uint32_t>(6);
    const uint32_t start_y = get_arg_val<uint32_t>(7);
    const uint32_t end_x = get_arg_val<uint32_t>(8);
    const uint32_t end_y = get_arg_val<uint32_t>(9);
    const uint32_t num_dests = get_arg_val<uint32_t>(10);
    constexpr auto in_args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(in_args, in_addr, kTileBytes);
    const Noc noc;
    DataflowBuffer dfb(0);
    Semaphore<> sender_sem(get_arg_val<uint32_t>(11));
    Semaphore<> receiver_sem(get_arg_val<uint32_t>(12));
    if (is_sender) receiver_sem.set(VALID);  // the flag the sender multicasts after each block
    for (uint32_t block = 0; block < num_blocks; ++block) {
        dfb.reserve_back(block_tiles);
        if (is_sender) {
            const uint32_t l1 = dfb.get_write_ptr();
            for (uint32_t i = 0; i < block_tiles; ++i) {
                noc.async_read(in, dfb, kTileBytes, {.page_id = block * block_tiles + i},
                               {.offset_bytes = i * kTileBytes});
            }
            noc.async_read_barrier();
            sender_sem.wait(num_dests);  // every receiver has reserved its pages and said so
            sender_sem.set(0);
            const MulticastEndpoint dst;
            noc.async_write_multicast(CoreLocalMem<uint32_t>(l1), dst, block_tiles * kTileBytes, num_dests, {},
                                      {.noc_x_start = start_x, .noc_y_start = start_y, .noc_x_end = end_x,
                                       .noc_y_end = end_y, .addr = l1});
            receiver_sem.set_multicast(noc, start_x, start_y, end_x, end_y, num_dests);
            noc.async_write_barrier();
        } else {
            receiver_sem.set(INVALID);
            sender_sem.up(noc, sender_x, sender_y, 1);
            receiver_sem.wait(VALID);
        }
        dfb.push_back(block_tiles);
    }
    noc.async_atomic_barrier();
}
