// As tt-metal's examples' readers: no #include (the JIT's firmware wrapper includes the dataflow API), CBs named
// tt::CBIndex, a DPRINT line per tile when TT_METAL_DPRINT_CORES names the core (DPRINT(format, ...), as
// ttnn 0.81.1's api/debug/dprint.h has it).
#include "api/debug/dprint.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t num_tiles = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, src_args.get_aligned_page_size());
    static_assert(NOC_INDEX == 1, "the reader runs on RISCV_1 with NOC::RISCV_1_default");
    for (uint32_t i = 0; i < num_tiles; ++i) {
        cb_reserve_back(cb, 1);
        noc_async_read_tile(i, src, get_write_ptr(cb));
        noc_async_read_barrier();
        cb_push_back(cb, 1);
        DPRINT_DATA1("read tile {} of {}\n", i, num_tiles);
        DPRINT_MATH("never printed: a data-movement kernel has no math TRISC\n");
    }
}
