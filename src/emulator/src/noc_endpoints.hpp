// The device's NoC endpoints beyond its workers (the device record's noc_endpoints, tt_emu/noc_endpoints.hpp): which
// DRAM bank a get_noc_addr(x, y, addr) at a DRAM endpoint reaches, and whether (x, y) is an Ethernet core.
#pragma once

#include <cstdint>
#include <string>

namespace tt_emu {

// The bank reached at DRAM endpoint (x, y) by address `addr` (the bank's offset range holds it), with the address in
// the bank; -1 when (x, y) is no DRAM endpoint, -2 when it is one but no bank of its channel holds `addr`.
int dram_bank_at_endpoint(uint32_t x, uint32_t y, uint32_t addr, uint32_t& bank_addr);
bool is_eth_core(uint32_t x, uint32_t y);
std::string dram_endpoints_text();
// A unicast NoC address (get_noc_addr(x, y, addr)) at a DRAM endpoint as its bank's address (kapi_multicast.cpp);
// any other address as it is.
uint64_t dram_bank_form(uint64_t noc_addr);  // "bank 0: (0,0) (0,1) (0,11) at 0x0, ..." for reports

}  // namespace tt_emu
