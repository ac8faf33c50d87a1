// Chips of a mesh (mesh_host.cpp): each emulated chip has its own DRAM and L1 buffers (dram.cpp keeps one registry
// per chip); the host's allocations and a program's kernels use the current chip's. A single-chip program runs on
// chip 0.
#pragma once

#include <cstdint>
#include <string>

namespace tt_emu {

constexpr uint32_t kMaxChips = 64;
uint32_t current_chip();
void set_current_chip(uint32_t chip);
// "device (r,c) " naming the current chip of a mesh of more than one chip in reports, else "".
std::string chip_prefix();
// Columns of the open mesh of more than one chip (0: none, or a single chip): chip c is at (c / cols, c % cols).
uint32_t mesh_columns();

}  // namespace tt_emu
