// DRAM banks and Ethernet cores by NoC coordinates, from the device record (tt_emu/noc_endpoints.hpp).
#include "noc_endpoints.hpp"

#include "emu.hpp"
#include "tt_emu/noc_endpoints.hpp"

namespace tt_emu {

namespace {
bool at(const device::DramBankEndpoints& bank, uint32_t x, uint32_t y) {
    for (uint8_t i = 0; i < bank.count; ++i) {
        if (bank.xy[i][0] == x && bank.xy[i][1] == y) return true;
    }
    return false;
}
}  // namespace

int dram_bank_at_endpoint(uint32_t x, uint32_t y, uint32_t addr, uint32_t& bank_addr) {
    bool endpoint = false;
    for (size_t b = 0; b < dev().dram_banks; ++b) {
        const device::DramBankEndpoints& bank = dev().dram_bank_endpoints[b];
        if (!at(bank, x, y)) continue;
        endpoint = true;
        if (addr >= bank.offset && uint64_t{addr} - bank.offset < kDramBankBytes) {
            bank_addr = addr - bank.offset;
            return static_cast<int>(b);
        }
    }
    return endpoint ? -2 : -1;
}

bool is_eth_core(uint32_t x, uint32_t y) {
    for (uint32_t i = 0; i < dev().eth_cores; ++i) {
        if (dev().eth[i][0] == x && dev().eth[i][1] == y) return true;
    }
    return false;
}

std::string dram_endpoints_text() {
    std::string out;
    for (size_t b = 0; b < dev().dram_banks; ++b) {
        const device::DramBankEndpoints& bank = dev().dram_bank_endpoints[b];
        out += (b ? ", bank " : "bank ") + std::to_string(b) + ":";
        for (uint8_t i = 0; i < bank.count; ++i) {
            out += " (" + std::to_string(bank.xy[i][0]) + "," + std::to_string(bank.xy[i][1]) + ")";
        }
        out += " from " + hex(bank.offset);
    }
    return out;
}

}  // namespace tt_emu
