// tt_emu: {fmt}'s <fmt/core.h> is part of the emulator's one fmt header.
#pragma once

#include "fmt/format.h"
