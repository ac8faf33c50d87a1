// tt_emu: tt-metal's <hostdevcommon/kernel_structs.h>, shared by host programs and kernels (tt-metal's programming
// examples include it from both): the CB names tt::CBIndex and the older tt::CB.
#pragma once

#include "tt_emu/cb_index.hpp"
