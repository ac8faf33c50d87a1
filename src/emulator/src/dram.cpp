// DRAM: interleaved buffers with their bank addresses, registered so that kernels' NoC addresses can be checked.
#include <algorithm>
#include <cstring>

#include "chips.hpp"
#include "emu.hpp"

namespace tt_emu {

// ------------------------------------------------------------------ DRAM allocator

namespace {
constexpr uint32_t kDramBase = 0x100000;  // first usable bank address (below: reserved, as on hardware)

struct DramRegistry {
    std::mutex mu;
    std::map<uint32_t, std::weak_ptr<DramBuffer>> by_address;
    std::map<uint32_t, std::weak_ptr<DramBuffer>> l1_by_address;  // L1 buffers (bank addresses, every core)
    uint32_t next = kDramBase;
};
// One registry per chip of a mesh (each emulated device has its own DRAM and L1 buffers); the host's calls and a
// program's kernels use the current chip's (set_current_chip).
DramRegistry& registry_of(uint32_t chip) {
    static DramRegistry* r = new DramRegistry[kMaxChips];  // never destroyed: buffers may outlive static destruction
    return r[chip];
}
std::atomic<uint32_t>& chip_index() {
    static std::atomic<uint32_t> chip{0};
    return chip;
}
DramRegistry& registry() { return registry_of(chip_index()); }

[[noreturn]] void dram_fail(const char* call, const std::string& message) {
    tt::tt_metal::detail::host_error(call, message);
}
}  // namespace

uint32_t current_chip() { return chip_index(); }

void set_current_chip(uint32_t chip) {
    if (chip >= kMaxChips) tt::tt_metal::detail::host_error("MeshDevice", "the emulator runs at most " + std::to_string(kMaxChips) + " chips");
    chip_index() = chip;
}

std::mutex& dram_mutex() {
    static std::mutex* mu = new std::mutex;
    return *mu;
}

// The chips of a mesh hold their buffers at one address (lock-step allocation): the entry of this buffer is the one
// at its address whose buffer is gone.
DramBuffer::~DramBuffer() {
    for (uint32_t chip = 0; chip < kMaxChips; ++chip) {
        DramRegistry& r = registry_of(chip);
        std::lock_guard<std::mutex> lk(r.mu);
        auto& by_address = l1 ? r.l1_by_address : r.by_address;
        auto it = by_address.find(address);
        if (it != by_address.end() && it->second.expired()) by_address.erase(it);
    }
}

std::string DramBuffer::describe() const {
    return std::string(l1 ? "L1" : "DRAM") + " buffer " + hex(address) + " (" +
           (tensor.empty() ? "" : "tensor " + tensor + ", ") + std::to_string(num_pages) + " pages of " +
           std::to_string(page_size) + " B)";
}

// ------------------------------------------------------------------ L1 buffers

namespace {
uint32_t l1_banks() { return dev().grid_x * dev().grid_y; }  // one L1 bank per worker core

uint32_t l1_floor_locked() {
    uint32_t floor = dev().l1_bytes;
    for (auto& [address, weak] : registry().l1_by_address) {
        if (!weak.expired()) floor = std::min(floor, address);
    }
    return floor;
}

// L1 buffers are allocated top down, each below the lowest live one, `bank_bytes` in every core's L1.
void place_l1_buffer(const std::shared_ptr<DramBuffer>& buf, uint64_t bank_bytes, const char* call) {
    std::lock_guard<std::mutex> lk(registry().mu);
    const uint32_t floor = l1_floor_locked();
    if (bank_bytes > floor) {
        dram_fail(call, "out of L1: " + std::to_string(bank_bytes) + " B per core requested, " +
                            std::to_string(floor) + " B left below the L1 buffers");
    }
    buf->bank_bytes = static_cast<uint32_t>(bank_bytes);
    buf->address = (floor - buf->bank_bytes) / dev().l1_alignment * dev().l1_alignment;
    registry().l1_by_address[buf->address] = buf;
}
}  // namespace

std::shared_ptr<DramBuffer> allocate_l1_buffer(uint64_t size, uint64_t page_size, const char* call) {
    if (page_size == 0 || page_size > size) {
        dram_fail(call, "page size " + std::to_string(page_size) + " B is invalid for an L1 buffer of " +
                            std::to_string(size) + " B");
    }
    auto buf = std::make_shared<DramBuffer>();
    buf->l1 = true;
    buf->size = size;
    buf->page_size = static_cast<uint32_t>(page_size);
    buf->num_pages = static_cast<uint32_t>((size + page_size - 1) / page_size);
    // tt-metal's Buffer: pages of the page size aligned up to the allocator's alignment, dealt to the banks in turn.
    const uint64_t aligned_page = (page_size + dev().l1_alignment - 1) / dev().l1_alignment * dev().l1_alignment;
    const uint64_t bank_bytes = (buf->num_pages + l1_banks() - 1) / l1_banks() * aligned_page;
    place_l1_buffer(buf, bank_bytes, call);
    return buf;
}

// tt-metal's BufferDistributionSpec of a 2-D shard spec: shard (r, c) of the grid of shards (row-major) goes to core
// (r * shards per row + c) % cores, at slot (that index) / cores of its bank; pages row-major inside a shard.
std::pair<uint32_t, uint32_t> L1Shards::locate(uint32_t page) const {
    const uint32_t row = page / tensor_pages[1], col = page % tensor_pages[1];
    const uint32_t per_row = (tensor_pages[1] + shard_pages[1] - 1) / shard_pages[1];
    const uint32_t shard = row / shard_pages[0] * per_row + col / shard_pages[1];
    const uint32_t banks = static_cast<uint32_t>(cores.size());
    const uint32_t inside = row % shard_pages[0] * shard_pages[1] + col % shard_pages[1];
    return {shard % banks, (shard / banks) * shard_pages[0] * shard_pages[1] * aligned_page + inside * aligned_page};
}

std::shared_ptr<DramBuffer> allocate_l1_sharded_buffer(uint64_t size, uint64_t page_size, L1Shards shards,
                                                       const char* call) {
    const auto& [rows, cols] = shards.tensor_pages;
    if (page_size == 0 || uint64_t{rows} * cols * page_size != size || shards.shard_pages[0] == 0 ||
        shards.shard_pages[1] == 0 || shards.cores.empty()) {
        dram_fail(call, "a sharded L1 buffer of " + std::to_string(size) + " B must hold its " + std::to_string(rows) +
                            "x" + std::to_string(cols) + " pages of " + std::to_string(page_size) +
                            " B exactly, in non-empty shards on at least one core");
    }
    for (const CoreCoord& c : shards.cores) {
        if (c.x >= dev().grid_x || c.y >= dev().grid_y) dram_fail(call, "shard core " + core_name(c) + " is off the grid");
    }
    shards.aligned_page = static_cast<uint32_t>((page_size + dev().l1_alignment - 1) / dev().l1_alignment * dev().l1_alignment);
    const uint64_t count = uint64_t{(rows + shards.shard_pages[0] - 1) / shards.shard_pages[0]} *
                           ((cols + shards.shard_pages[1] - 1) / shards.shard_pages[1]);
    const uint64_t bank_bytes = (count + shards.cores.size() - 1) / shards.cores.size() * shards.shard_bytes();
    auto buf = std::make_shared<DramBuffer>();
    buf->l1 = true;
    buf->size = size;
    buf->page_size = static_cast<uint32_t>(page_size);
    buf->num_pages = rows * cols;
    buf->data.assign(size, 0);
    buf->shards = std::make_shared<const L1Shards>(std::move(shards));
    place_l1_buffer(buf, bank_bytes, call);
    return buf;
}

std::vector<std::shared_ptr<DramBuffer>> l1_sharded_buffers() {
    std::lock_guard<std::mutex> lk(registry().mu);
    std::vector<std::shared_ptr<DramBuffer>> out;  // in allocation order: L1 buffers are allocated top down
    for (auto it = registry().l1_by_address.rbegin(); it != registry().l1_by_address.rend(); ++it) {
        if (auto buf = it->second.lock(); buf && buf->shards) out.push_back(std::move(buf));
    }
    return out;
}

uint32_t l1_buffers_floor() {
    std::lock_guard<std::mutex> lk(registry().mu);
    return l1_floor_locked();
}

bool inside_l1_buffer(uint32_t addr, uint32_t size) {
    std::lock_guard<std::mutex> lk(registry().mu);
    auto it = registry().l1_by_address.upper_bound(addr);
    if (it == registry().l1_by_address.begin()) return false;
    --it;
    std::shared_ptr<DramBuffer> buf = it->second.lock();
    return buf && uint64_t{addr} + size <= uint64_t{buf->address} + buf->bank_bytes;
}

std::string list_l1_buffers() {
    std::lock_guard<std::mutex> lk(registry().mu);
    std::string out;
    for (auto& [address, weak] : registry().l1_by_address) {
        if (auto buf = weak.lock()) out += (out.empty() ? "" : ", ") + hex(address) + ".." + hex(address + buf->bank_bytes);
    }
    return out.empty() ? "none" : out;
}

std::shared_ptr<DramBuffer> allocate_dram_buffer(uint64_t size, uint64_t page_size, const char* call) {
    if (page_size == 0 || page_size > size || page_size > (1u << 20)) {
        dram_fail(call, "page size " + std::to_string(page_size) + " B is invalid for a buffer of " +
                            std::to_string(size) + " B");
    }
    auto buf = std::make_shared<DramBuffer>();
    buf->size = size;
    buf->page_size = static_cast<uint32_t>(page_size);
    buf->num_pages = static_cast<uint32_t>((size + page_size - 1) / page_size);
    // tt-metal's allocator lays a bank's pages at the aligned page size (Buffer::aligned_page_size).
    buf->bank_bytes = static_cast<uint32_t>((buf->num_pages + dev().dram_banks - 1) / dev().dram_banks * buf->page_stride());
    std::lock_guard<std::mutex> lk(registry().mu);
    if (uint64_t{registry().next} + buf->bank_bytes > kDramBankBytes) {
        dram_fail(call, "out of DRAM: " + std::to_string(buf->bank_bytes) + " B per bank requested, " +
                            std::to_string(kDramBankBytes - registry().next) + " B left in each of the 12 banks");
    }
    buf->address = registry().next;
    registry().next += buf->bank_bytes;
    buf->data.assign(size_t{buf->num_pages} * buf->page_size, 0);
    registry().by_address[buf->address] = buf;
    return buf;
}

std::shared_ptr<DramBuffer> find_dram_buffer(uint32_t address) {
    std::lock_guard<std::mutex> lk(registry().mu);
    auto it = registry().by_address.find(address);
    return it == registry().by_address.end() ? nullptr : it->second.lock();
}

std::shared_ptr<DramBuffer> find_dram_buffer_in_bank(uint32_t bank_addr) {
    std::lock_guard<std::mutex> lk(registry().mu);
    auto it = registry().by_address.upper_bound(bank_addr);
    if (it == registry().by_address.begin()) return nullptr;
    --it;
    std::shared_ptr<DramBuffer> buf = it->second.lock();
    return buf && bank_addr < buf->address + buf->bank_bytes ? buf : nullptr;
}

std::vector<std::shared_ptr<DramBuffer>> dram_buffers() {
    std::lock_guard<std::mutex> lk(registry().mu);
    std::vector<std::shared_ptr<DramBuffer>> out;  // addresses grow with allocation order
    for (auto& [address, weak] : registry().by_address) {
        if (auto buf = weak.lock()) out.push_back(std::move(buf));
    }
    return out;
}

std::string list_dram_buffers() {
    std::lock_guard<std::mutex> lk(registry().mu);
    std::string out;
    for (auto& [address, weak] : registry().by_address) {
        if (auto buf = weak.lock()) out += (out.empty() ? "" : ", ") + hex(address) + " (" + std::to_string(buf->num_pages) + " pages)";
    }
    return out.empty() ? "none" : out;
}

}  // namespace tt_emu
