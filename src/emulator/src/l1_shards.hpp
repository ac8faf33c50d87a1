// Sharded L1 buffers (issue 31: a tensor left in L1, as ttnn's L1 sharded memory configs): a MeshBuffer whose
// DeviceLocalBufferConfig has sharding_args. Its 2-D tensor of pages is cut into shards, shard i on cores[i % cores],
// its pages row-major from the buffer's address at the L1-aligned page size. Unlike an interleaved L1 buffer it holds
// host data: `data` (pages in tensor order) between programs, its cores' L1 while one runs (launch.cpp copies it in
// before and out after); kernels reach it through a sharded TensorAccessor (kapi_shards.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "tt-metalium/host_api.hpp"

namespace tt_emu {

struct L1Shards {
    std::vector<tt::tt_metal::CoreCoord> cores;  // logical, in the spec's orientation
    std::array<uint32_t, 2> tensor_pages{};      // rows, cols of pages
    std::array<uint32_t, 2> shard_pages{};
    uint32_t aligned_page = 0;                   // the page size aligned to the L1 alignment
    uint32_t shard_bytes() const { return shard_pages[0] * shard_pages[1] * aligned_page; }
    // (index in cores, L1 offset from the buffer's address) of `page`
    std::pair<uint32_t, uint32_t> locate(uint32_t page) const;
};

struct DramBuffer;
struct Session;
struct Transfer;
std::shared_ptr<DramBuffer> allocate_l1_sharded_buffer(uint64_t size, uint64_t page_size, L1Shards shards,
                                                       const char* call);
std::vector<std::shared_ptr<DramBuffer>> l1_sharded_buffers();  // the current chip's live ones
// A page transfer between L1 and a buffer's page (DRAM, or a sharded L1 buffer's), landing at the kernel's barrier;
// land_shard_page lands one of a sharded L1 buffer's and says whether it was one.
void issue_transfer(Session& s, bool read, std::shared_ptr<DramBuffer> buf, uint32_t page, uint32_t offset,
                    uint32_t size, uint32_t l1);
bool land_shard_page(Session& s, const Transfer& x);

}  // namespace tt_emu
