// tt_emu: the 2025 layout's <debug/dprint.h> (api/debug/dprint.h since).
#pragma once

#include "api/debug/dprint.h"
