// Copies page i of the source to page n - 1 - i of the destination through an L1 buffer (runtime argument 2), each
// tensor addressed by an InterleavedAddrGen<true> aggregate and get_noc_addr(page, addrgen), as tt-metal's
// add_2_integers_in_riscv does (no #include: the JIT's firmware wrapper brings in the dataflow API).
void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t l1 = get_arg_val<uint32_t>(2);
    const uint32_t page_size = get_arg_val<uint32_t>(3);
    const uint32_t pages = get_arg_val<uint32_t>(4);
#ifdef FAULT_L1
    InterleavedAddrGen<false> src = {.bank_base_address = src_addr, .page_size = page_size};
#else
    InterleavedAddrGen<true> src = {.bank_base_address = src_addr, .page_size = page_size};
#endif
    InterleavedAddrGen<true> dst = {.bank_base_address = dst_addr, .page_size = page_size};
    for (uint32_t i = 0; i < pages; ++i) {
#ifdef FAULT_PAST_PAGE
        noc_async_read(get_noc_addr(i, src), l1, page_size + 4);
#else
        noc_async_read(get_noc_addr(i, src), l1, page_size);
#endif
        noc_async_read_barrier();
        noc_async_write(l1, get_noc_addr(pages - 1 - i, dst), page_size);
        noc_async_write_barrier();
    }
}
