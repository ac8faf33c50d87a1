#include <cstdint>

void kernel_main() {
    const uint32_t l1_buffer_addr = get_arg_val<uint32_t>(0);
    const uint32_t src_addr = get_arg_val<uint32_t>(1);
    const uint32_t dst_addr = get_arg_val<uint32_t>(2);
    const uint32_t num_tiles = get_arg_val<uint32_t>(3);
    const uint32_t tile_bytes = 32 * 32 * 2;
    const InterleavedAddrGenFast<true> src = {
        .bank_base_address = src_addr, .page_size = tile_bytes, .data_format = DataFormat::Float16_b};
    const InterleavedAddrGenFast<true> dst = {
        .bank_base_address = dst_addr, .page_size = tile_bytes, .data_format = DataFormat::Float16_b};
    for (uint32_t i = 0; i < num_tiles; ++i) {
        noc_async_read_tile(i, src, l1_buffer_addr);
        noc_async_read_barrier();
        noc_async_write_tile(i, dst, l1_buffer_addr);
        noc_async_write_barrier();
    }
}
