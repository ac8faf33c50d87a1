// Emulator version of tt-metal's <api/dataflow/noc_semaphore.h> (ttnn 0.81.1): as the real header, it brings in
// api/semaphore.h (the Semaphore class).
#pragma once

#include "api/semaphore.h"
