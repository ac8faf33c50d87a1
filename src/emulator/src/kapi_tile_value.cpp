// Kernel API: read_tile_value, how a compute kernel reads a word of a CB page (ttnn 0.77/0.81
// api/compute/cb_api.h): the unpack thread reads L1 at fifo_rd_ptr + fifo_page_size * tile_index and hands the
// word to the math and pack threads by mailbox, so the three threads take the same branch on it. The emulator runs
// the compute kernel as one thread and reads the word from the core's L1, checking what hardware would get wrong:
// a page not among the waited ones (its data may not have landed) and a word beyond the page.
#include <cstring>

#include "compute.hpp"
#include "emu.hpp"
#include "sanitize.hpp"
#include "tt_emu/kernel_api.hpp"

namespace tt_emu {
namespace kapi {

uint32_t read_tile_value(uint32_t cb_id, uint32_t tile_index, uint32_t element_offset) {
    Session s = enter("read_tile_value", {cb_id, tile_index, element_offset});
    compute_of(s);
    Cb& cb = cb_of(s, cb_id);
    claim(s, cb, false);
    if (tile_index >= cb.waited) {
        fail(s, "page " + std::to_string(tile_index) + " of CB " + std::to_string(cb_id) +
                    " is not among its waited pages (" + std::to_string(cb.waited) +
                    " waited): call cb_wait_front first");
    }
    if (static_cast<uint64_t>(element_offset) * 4 + 4 > cb.page_bytes) {
        fail(s, "word " + std::to_string(element_offset) + " is beyond the " + std::to_string(cb.page_bytes) +
                    " B pages of CB " + std::to_string(cb_id));
    }
    need_page_content(s, cb, tile_index, 1, false);
    const uint32_t addr = cb.page_addr((cb.rd_page() + tile_index) % cb.capacity) + element_offset * 4;
    uint32_t word = 0;
    std::memcpy(&word, &s.core.l1[addr], sizeof word);  // little-endian, as the RISC-V cores read it
    return word;
}

}  // namespace kapi
}  // namespace tt_emu
