// Multicast writer (both API profiles): every block of CB 0 to this core's region of the output buffer
// (pages core * num_blocks * block_tiles + ...), so the test sees what each core received.
//
// Runtime args: out_addr, num_blocks, block_tiles, core index.
#include <cstdint>

#if __has_include("api/dataflow/dataflow_api.h")
#include "api/dataflow/dataflow_api.h"
#define MCAST_TENSOR_ACCESSOR 1
#else
#include "dataflow_api.h"
#endif

constexpr uint32_t kTileBytes = 2048;
constexpr int32_t kCb = 0;

void kernel_main() {
    const uint32_t out_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_blocks = get_arg_val<uint32_t>(1);
    const uint32_t block_tiles = get_arg_val<uint32_t>(2);
    const uint32_t core = get_arg_val<uint32_t>(3);
#ifdef MCAST_TENSOR_ACCESSOR
    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(out_args, out_addr, kTileBytes);
#else
    const auto out = InterleavedAddrGenFast<true>{out_addr, kTileBytes, get_dataformat(kCb)};
#endif
    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_wait_front(kCb, block_tiles);
        const uint32_t l1 = get_read_ptr(kCb);
        for (uint32_t i = 0; i < block_tiles; ++i) {
            const uint32_t page = (core * num_blocks + block) * block_tiles + i;
#ifdef MCAST_TENSOR_ACCESSOR
            noc_async_write_page(page, out, l1 + i * kTileBytes);
#else
            noc_async_write_tile(page, out, l1 + i * kTileBytes);
#endif
        }
        noc_async_write_barrier();
        cb_pop_front(kCb, block_tiles);
    }
}
