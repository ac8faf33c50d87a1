// InterleavedAddrGen<true> and the free get_noc_addr(id, addrgen) of tt-metal's dataflow API (ttnn 0.81.1
// internal/dataflow/dataflow_api_addrgen.h; 0.77.0 the same; 0.65.0 dataflow_api_addrgen.h), as tt-metal's programming
// examples use them (add_2_integers_in_riscv). Included by kernel_api_ttnn.hpp.
#pragma once

#include <cstdint>

#include "tt_emu/device_facts.hpp"

namespace tt_emu::kapi::detail {
uint64_t dram_noc_addr(uint32_t bank_base_address, uint32_t page_size, uint32_t id, uint32_t offset);
}  // namespace tt_emu::kapi::detail

namespace tt_emu::ktypes {

// Must stay an aggregate: kernels write `InterleavedAddrGen<true> g = {.bank_base_address = a, .page_size = n}`. As in
// tt-metal, pages lie in their bank at the page size aligned up to the DRAM allocator's alignment (DRAM_ALIGNMENT, the
// device record's dram_alignment), which the emulator's DRAM buffers use as their in-bank page stride too.
template <bool DRAM>
struct InterleavedAddrGen {
    static_assert(DRAM, "InterleavedAddrGen<false> (L1-interleaved tensors) is not emulated");
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    const uint32_t page_size;
    const uint32_t aligned_page_size = (page_size + device::kernel_device<DRAM>().dram_alignment - 1) /
                                       device::kernel_device<DRAM>().dram_alignment *
                                       device::kernel_device<DRAM>().dram_alignment;

    uint64_t get_noc_addr(uint32_t id, uint32_t offset = 0) const {
        return kapi::detail::dram_noc_addr(bank_base_address, aligned_page_size, id, offset);
    }
};

}  // namespace tt_emu::ktypes

namespace tt_emu::kapi {

using ktypes::InterleavedAddrGen;

// The free form of an address generator's get_noc_addr (tt-metal: `template <typename AddrGen> get_noc_addr(id,
// addrgen, offset = 0, noc = noc_index)`).
template <typename AddrGen>
uint64_t get_noc_addr(uint32_t id, const AddrGen& addrgen, uint32_t offset = 0) {
    return addrgen.get_noc_addr(id, offset);
}

}  // namespace tt_emu::kapi
