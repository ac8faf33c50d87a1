// tt_emu: tt-metal's older spelling of tt_stl/assert.hpp.
#pragma once

#include "tt_stl/assert.hpp"
