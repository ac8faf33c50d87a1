// Pages a CB has never handed out, written by the packer without cb_reserve_back; the packer's write of a page, which
// with L1 accumulation adds to what the page held before its reserve (kapi_l1_acc.cpp).
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

// The packer writes row-major fp32 `tile` into ring page `page` of `cb`: with L1 accumulation on
// (pack_reconfig_l1_acc(1)) the sum of the tile and what the page held, formed in fp32 (Float32, Float16_b and
// Float16 pages; other formats are refused as not emulated).
void pack_into(Session& s, Cb& cb, uint32_t page, const float* tile);
// Before a reserve poisons ring pages first..first+count-1 of `cb` for the sanitizer: on a core whose packer has been
// configured for L1 accumulation, what they hold is kept for it (the caller holds the core lock).
void hold_for_l1_acc(Core& core, Cb& cb, uint32_t first, uint32_t count);
// A program launches on `core`: its packer's L1 accumulation is off and nothing is kept.
void l1_acc_reset(const Core& core);

}  // namespace tt_emu
