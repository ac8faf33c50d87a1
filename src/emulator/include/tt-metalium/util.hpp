// tt_emu: tt-metal's <tt-metalium/util.hpp> (tt::tt_metal::detail helpers; programming examples include it): a
// buffer's bytes per bank as tt-metal's allocator lays interleaved pages (pages round-robin over the banks, each at the
// page size aligned up), and the NoC preferred for DRAM reads and writes on Wormhole.
#pragma once

#include <cstdint>

#include "tt-metalium/assert.hpp"
#include "tt-metalium/host_api.hpp"

namespace tt::tt_metal::detail {

inline uint32_t TileSize(const DataFormat& data_format) { return tt::tile_size(data_format); }

inline DeviceAddr SizeBytesPerBank(DeviceAddr size_bytes, DeviceAddr page_size_bytes, uint32_t num_banks,
                                   uint32_t alignment_bytes) {
    TT_ASSERT(page_size_bytes == 0 ? size_bytes == 0 : size_bytes % page_size_bytes == 0,
              "Page size {} should be divisible by buffer size {}", page_size_bytes, size_bytes);
    const DeviceAddr pages = page_size_bytes == 0 ? 0 : size_bytes / page_size_bytes;
    const DeviceAddr per_bank = pages == 0 ? 0 : 1 + (pages - 1) / num_banks;
    const DeviceAddr aligned = (page_size_bytes + alignment_bytes - 1) / alignment_bytes * alignment_bytes;
    return per_bank * aligned;
}

inline NOC GetPreferredNOCForDRAMRead(tt::ARCH arch) { return preferred_noc_for_dram_read(arch); }
inline NOC GetPreferredNOCForDRAMWrite(tt::ARCH arch) { return preferred_noc_for_dram_write(arch); }

}  // namespace tt::tt_metal::detail
