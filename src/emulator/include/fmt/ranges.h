// tt_emu: {fmt}'s <fmt/ranges.h> is part of the emulator's one fmt header.
#pragma once

#include "fmt/format.h"
