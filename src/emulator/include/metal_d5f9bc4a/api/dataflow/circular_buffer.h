// <api/dataflow/circular_buffer.h>: ttnn 0.77.0's wheel ships it with the kernel-facing API of 0.81.1's
// (the Device 2.0 dataflow objects: Noc transfers between named ends, CircularBuffer, TensorAccessor pages as ends;
// 0.81.1 changed only internals, such as Quasar paths and read/write notes), so the emulator's version for this
// profile is ttnn_0_81's, one file.
#pragma once
#include "../../../ttnn_0_81/api/dataflow/circular_buffer.h"
