// Emulator version of tt-metal's <api/compute/common_globals.h> (ttnn 0.81.1): ALWI, and the MATH / PACK / UNPACK
// wrappers that keep a statement on one of the three TRISCs. The emulator runs a compute kernel once, as the three
// TRISCs together, so each wrapper keeps its statement.
#pragma once

#include "ckernel.h"               // as tt-metal's: ckernel::ThreadId, load_blocking, mailbox_read
#include "tt_emu/llk_api.hpp"  // the LLK calls kernel_lib names (declared, refused where called)

#ifndef ALWI
#define ALWI inline __attribute__((always_inline))
#endif
#ifndef MATH
#define MATH(...) __VA_ARGS__
#endif
#ifndef PACK
#define PACK(...) __VA_ARGS__
#endif
#ifndef UNPACK
#define UNPACK(...) __VA_ARGS__
#endif
