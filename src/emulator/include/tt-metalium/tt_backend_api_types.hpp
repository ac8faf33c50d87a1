// tt_emu: tt-metal's <tt-metalium/tt_backend_api_types.hpp> (tt::DataFormat, tt::ARCH, MathFidelity); the emulator
// declares them in its host_api.hpp.
#pragma once

#include "tt-metalium/host_api.hpp"
