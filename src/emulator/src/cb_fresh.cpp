// Pages a CB has never handed out, written by the packer without cb_reserve_back (cb_fresh.hpp).
#include "cb_fresh.hpp"

#include "sanitize.hpp"

namespace tt_emu {

bool reserve_fresh_pages(Session& s, Cb& cb, uint32_t pages) {
    if (pages > cb.capacity || cb.received + pages > cb.capacity) return false;  // a page was pushed before
    if (pages <= cb.reserved) return true;
    s.t.tick();
    for (uint32_t p = cb.reserved; p < pages; ++p) cb.reserved_at[cb.wr_page() + p] = s.t.clock.v[s.t.index];
    pages_reserved(s.core, cb, cb.wr_page() + cb.reserved, pages - cb.reserved);
    cb.reserved = pages;
    return true;
}

}  // namespace tt_emu
