// Pages a CB has never handed out, written by the packer without cb_reserve_back.
#pragma once

#include <cstdint>

#include "emu.hpp"

namespace tt_emu {

// On hardware a compute kernel's cb_reserve_back only waits for free pages (llk_wait_for_free_tiles reads the
// consumer's tiles_acked and moves no pointer; pack_tile writes at fifo_wr_ptr, which cb_push_back advances), so
// packing into pages that were never pushed is safe without it: no consumer can hold them. tt-metal's
// add_2_integers_in_compute packs and pushes its one tile that way. Reserves the first `pages` pages at the back
// as cb_reserve_back would and returns true when every one of them is such a page; false (nothing reserved) when
// one was pushed before, so that only the consumer's pop, which cb_reserve_back waits for, frees it.
bool reserve_fresh_pages(Session& s, Cb& cb, uint32_t pages);

}  // namespace tt_emu
