// tt_emu: tt-metal's api/debug/device_print.h (ttnn 0.77.0 and 0.81.1): DEVICE_PRINT(format, ...), an {fmt} format
// string whose '\n' ends a line, and DEVICE_PRINT_UNPACK / MATH / PACK (on that TRISC of a compute kernel),
// DEVICE_PRINT_DATA0 / DATA1 (on the data-movement kernel's NoC 0 / 1). The emulator's api/debug/dprint.h defines
// them for the profiles whose DPRINT takes a format (there DPRINT forwards to DEVICE_PRINT, as in tt-metal); printed
// as DPRINT prints (TT_METAL_DPRINT_CORES). The older profiles (ttnn 0.65.0) have no such header.
#pragma once

#include "api/debug/dprint.h"

#if !defined(TT_EMU_DPRINT_FORMAT)
#error "api/debug/device_print.h: DEVICE_PRINT came with ttnn 0.77.0; this API profile's print is the stream DPRINT << ..."
#endif
