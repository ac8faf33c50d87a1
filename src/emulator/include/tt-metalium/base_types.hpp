// tt_emu: tt-metal's <tt-metalium/base_types.hpp> (MathFidelity, UnpackToDestMode); declared in the emulator's host_api.hpp.
#pragma once

#include "tt-metalium/host_api.hpp"
