// Emulator version of tt-llk's common/inc/ckernel_defs.h (ttnn 0.81.1, wormhole_b0), as far as ttnn's kernels name
// it: `ckernel::ThreadId` (declared with the mailbox calls in the emulator's ckernel.h).
#pragma once

#include "ckernel.h"
