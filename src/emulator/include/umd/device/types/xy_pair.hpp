// tt_emu: UMD's <umd/device/types/xy_pair.hpp>. tt-metal's CoreCoord is UMD's xy_pair (core_coord.hpp:
// `using CoreCoord = tt_xy_pair;`), and tt-metal's programming examples restate that alias (matmul_common/bmm_op.hpp),
// so tt_xy_pair here names the emulator's CoreCoord: the two aliases then denote one type.
#pragma once

#include "tt-metalium/host_api.hpp"

namespace tt::umd {
using xy_pair = tt::tt_metal::CoreCoord;
}  // namespace tt::umd

using tt_xy_pair = tt::umd::xy_pair;
