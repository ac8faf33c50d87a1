// Copies page i of the source to page n - 1 - i of the destination through an L1 buffer (runtime argument 2), each
// tensor addressed by an InterleavedAddrGen<true> aggregate and get_noc_addr(page, addrgen), as tt-metal's
// add_2_integers_in_riscv does (no #include: the JIT's firmware wrapper brings in the dataflow API). CASE_ENDPOINTS
// reads the source pages at their DRAM banks' NoC endpoints instead, get_noc_addr(x, y, addr) as hello_world_datatypes
// does, by Wormhole's soc descriptor (tt_metal/soc_descriptors/wormhole_b0_80_arch.yaml: bank b is a view of channel
// b / 2, its second view at address offset 1 GiB; each bank's last listed endpoint).
#if defined(CASE_DEVICE_PRINT)
#include "api/debug/device_print.h"  // as tt-metal's hello_world examples include it since DPRINT's stream form went
#endif
namespace {
constexpr uint32_t kBankX[12] = {0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5};
constexpr uint32_t kBankY[12] = {11, 11, 7, 7, 11, 11, 10, 10, 8, 8, 7, 7};
}  // namespace

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t l1 = get_arg_val<uint32_t>(2);
    const uint32_t page_size = get_arg_val<uint32_t>(3);
    const uint32_t pages = get_arg_val<uint32_t>(4);
#ifdef CASE_L1
    InterleavedAddrGen<false> src = {.bank_base_address = src_addr, .page_size = page_size};
#else
    InterleavedAddrGen<true> src = {.bank_base_address = src_addr, .page_size = page_size};
#endif
    InterleavedAddrGen<true> dst = {.bank_base_address = dst_addr, .page_size = page_size};
    for (uint32_t i = 0; i < pages; ++i) {
#if defined(CASE_PAST_PAGE)
        noc_async_read(get_noc_addr(i, src), l1, page_size + 4);
#elif defined(CASE_ENDPOINTS)
        const uint32_t bank = i % 12, in_bank = src_addr + i / 12 * src.aligned_page_size;
        noc_async_read(get_noc_addr(kBankX[bank], kBankY[bank], in_bank + (bank % 2) * (1u << 30)), l1, page_size);
#elif defined(CASE_ETH)
        noc_async_read(get_noc_addr(1, 0, src_addr), l1, page_size);  // Grayskull's DRAM channel 0
#else
        noc_async_read(get_noc_addr(i, src), l1, page_size);
#endif
        noc_async_read_barrier();
        noc_async_write(l1, get_noc_addr(pages - 1 - i, dst), page_size);
        noc_async_write_barrier();
    }
    // DPRINT without an #include (dataflow_api.h brings it). CASE_DPRINT: the stream form with the 2025 typed values
    // and the older CB names (ttnn 0.65.0; refused since 0.77.0); CASE_DPRINT_FORMAT: DPRINT(format, ...) of 0.77.0+.
#if defined(CASE_DPRINT)
    DPRINT << "CB " << static_cast<uint32_t>(tt::CB::c_out0) << " " << F32(1.5f) << " " << U32(7) << " "
           << BF16(0x3fc0) << ENDL();
#elif defined(CASE_DPRINT_FORMAT)
    DPRINT("CB {} {} {:#x} {:.2f}\nnext line{}", static_cast<uint32_t>(tt::CB::c_out0), pages, 255u, 1.5f, '\n');
    DPRINT_DATA0("on NoC {}\n", NOC_INDEX);
    DPRINT_DATA1("{}\n", "never printed on NoC 0");
#elif defined(CASE_DEVICE_PRINT)
    DEVICE_PRINT("My logical coordinates are {},{}\n", get_absolute_logical_x(), get_absolute_logical_y());
    DEVICE_PRINT_DATA0("on NoC {}\n", 0);
    DEVICE_PRINT_DATA1("{}\n", "never printed on NoC 0");
#endif
}
