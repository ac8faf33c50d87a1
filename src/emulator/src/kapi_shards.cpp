// Sharded L1 tensors through a TensorAccessor (issue 31: a GEMM's C left in L1, as ttnn's out_sharded memory
// configs): the accessor's compile-time arguments (ttnn 0.81's layout, tensor_accessor_args.h) name the shard
// geometry and the banks' NoC coordinates; a page goes to shard (row / shard rows) * shards per row + col / shard
// cols, on bank (that shard) % banks, at slot (that shard) / banks of the bank, row-major inside it. The emulator
// checks the arguments against the buffer at that address (a kernel built with another tensor's geometry would
// reach the wrong core on hardware) and moves pages of the issuing core's own shards, landing at the barrier like a
// DRAM transfer; a page on another core is refused (core-to-core unicast writes are not emulated).
#include <string>

#include "emu.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {

namespace {
std::shared_ptr<DramBuffer> sharded_buffer_at(uint32_t address) {
    for (std::shared_ptr<DramBuffer>& buf : l1_sharded_buffers()) {
        if (buf->address == address) return std::move(buf);
    }
    return nullptr;
}

std::string geometry(const uint32_t* a) {
    return std::to_string(a[4]) + "x" + std::to_string(a[5]) + " pages in " + std::to_string(a[6]) + "x" +
           std::to_string(a[7]) + " shards on " + std::to_string(a[3]) + " banks";
}

// The buffer the accessor's arguments and address name, with the arguments checked against it.
std::shared_ptr<DramBuffer> shard_buffer(Session& s, uint32_t address, const uint32_t* a) {
    uint32_t offset = 0;  // the host's buffer address reaches the kernel as its core's window address (runtime_arg)
    if (l1_window_offset(s.core.coord, address, offset)) address = offset;
    std::shared_ptr<DramBuffer> buf = sharded_buffer_at(address);
    if (!buf) fail(s, "no sharded L1 buffer at address " + hex(address) + " (L1 buffers: " + list_l1_buffers() + ")");
    const L1Shards& sh = *buf->shards;
    bool same = a[1] == sh.aligned_page && a[3] == sh.cores.size() && a[4] == sh.tensor_pages[0] &&
                a[5] == sh.tensor_pages[1] && a[6] == sh.shard_pages[0] && a[7] == sh.shard_pages[1];
    for (size_t i = 0; same && i < sh.cores.size(); ++i) {
        const CoreCoord noc = noc_of_logical(sh.cores[i]);
        same = ((a[8 + i / 2] >> (16 * (i % 2))) & 0xffffu) == ((noc.x & 0xff) << 8 | (noc.y & 0xff));
    }
    if (!same) {
        fail(s, "the accessor's compile-time arguments (" + geometry(a) + ", pages of " + std::to_string(a[1]) +
                    " B) are not those of " + buf->describe() + ": build it from that buffer's TensorAccessorArgs");
    }
    return buf;
}
}  // namespace

namespace kapi::detail {

uint64_t shard_noc_addr(const uint32_t* a, uint32_t bank_base_address, uint32_t id, uint32_t offset) {
    Session s = enter("TensorAccessor::get_noc_addr", {id, bank_base_address}, 0b10);
    std::shared_ptr<DramBuffer> buf = shard_buffer(s, bank_base_address, a);
    if (id >= buf->num_pages) fail(s, "page " + std::to_string(id) + " is out of bounds of " + buf->describe());
    const auto [bank, at] = buf->shards->locate(id);
    const CoreCoord noc = noc_of_logical(buf->shards->cores[bank]);
    s.lock.unlock();  // get_noc_addr enters its own call
    return get_noc_addr(static_cast<uint32_t>(noc.x), static_cast<uint32_t>(noc.y), buf->address + at + offset);
}

void noc_shard_page(NocCall which, uint32_t id, uint32_t bank_base_address, const uint32_t* a, uint32_t l1_addr,
                    uint32_t size, uint32_t offset, int32_t cta_offset) {
    const bool read = which == NocCall::ReadPage || which == NocCall::ReadTile;
    Session s = enter(read ? "noc_async_read_page" : "noc_async_write_page", {id, bank_base_address, l1_addr}, 0b110);
    l1_addr = l1_offset(s, l1_addr, 2);
    std::shared_ptr<DramBuffer> buf = shard_buffer(s, bank_base_address, a);
    if (id >= buf->num_pages) fail(s, "page " + std::to_string(id) + " is out of bounds of " + buf->describe());
    const CoreCoord owner = buf->shards->cores[buf->shards->locate(id).first];
    if (!(owner == s.core.coord)) {
        fail(s, "page " + std::to_string(id) + " of " + buf->describe() + " is in the shard of core " +
                    core_name(owner) + ", not this core's: core-to-core unicast transfers are not emulated");
    }
    need_planned_tensor(s, cta_offset, *buf, id);
    issue_transfer(s, read, std::move(buf), id, offset, size ? size : a[1] - offset, l1_addr);
}

}  // namespace kapi::detail

bool land_shard_page(Session& s, const Transfer& x) {
    if (!x.buffer || !x.buffer->shards) return false;
    const uint32_t page = x.buffer->address + x.buffer->shards->locate(x.page).second + x.offset;
    if (x.read) {
        dram_read_landed(s, x);
        std::memmove(&s.core.l1[x.l1], &s.core.l1[page], x.size);
        l1_written(s.core, x.l1, x.size);
    } else {
        dram_write_landed(s, x);
        std::memmove(&s.core.l1[page], &s.core.l1[x.l1], x.size);
        l1_written(s.core, page, x.size);
    }
    return true;
}

}  // namespace tt_emu
