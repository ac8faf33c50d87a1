// What tt-metal's data-movement kernels get from the firmware headers that dataflow_api.h brings in, beyond the API
// calls: risc_attribs.h's FORCE_INLINE, dataflow_api_common.h's `noc_index` (the kernel's NoC, constexpr in a kernel
// build: NOC_INDEX), risc_common.h's `my_x[NUM_NOCS]` / `my_y[NUM_NOCS]` (the calling core's NoC coordinates) and
// noc_parameters.h's L1_ALIGNMENT / DRAM_ALIGNMENT (the larger of the read and write alignments of the endpoint: the
// device record's l1_alignment and dram_alignment, of the device the kernel is built for; matmul's readers lay tiles
// out in L1 at the DRAM-aligned stride). Included by
// kernel_api_ttnn.hpp.
#pragma once

#include <cstdint>

#include "tt_emu/device_facts.hpp"

#ifndef FORCE_INLINE
#define FORCE_INLINE inline __attribute__((always_inline))
#endif

#ifndef L1_ALIGNMENT
#define L1_ALIGNMENT (static_cast<uint32_t>(::tt_emu::device::kernel_device().l1_alignment))
#endif
#ifndef DRAM_ALIGNMENT
#define DRAM_ALIGNMENT (static_cast<uint32_t>(::tt_emu::device::kernel_device().dram_alignment))
#endif

namespace tt_emu::kapi::detail {
uint8_t my_noc_coord(bool y, uint32_t noc);  // kapi_cb_info.cpp
}  // namespace tt_emu::kapi::detail

namespace tt_emu::ktypes {
// `my_x[noc]`: one kernel object serves many cores, so the coordinates are the calling core's, read at the call.
// The emulator's two NoCs share one coordinate system (the translated coordinates Wormhole's workers use).
struct MyNocCoord {
    bool y;
    uint8_t operator[](uint32_t noc) const { return kapi::detail::my_noc_coord(y, noc); }
};
}  // namespace tt_emu::ktypes

#ifdef NOC_INDEX
// Every profile's dataflow API header includes it (ttnn 0.65.0 dataflow_api.h, 0.77.0 and 0.81.1
// api/dataflow/dataflow_api.h): INVALID and VALID, which tt-metal's reduce_max_mcast kernels use without including it.
#include "hostdevcommon/common_values.hpp"
constexpr uint8_t noc_index = NOC_INDEX;
inline constexpr ::tt_emu::ktypes::MyNocCoord my_x{false};
inline constexpr ::tt_emu::ktypes::MyNocCoord my_y{true};

// The forms of ttnn 0.81.1's api/dataflow/dataflow_api.h that name the NoC (`get_noc_addr(x, y, addr, noc =
// noc_index)`, `noc_semaphore_inc(addr, incr, noc_id = noc_index, vc = NOC_UNICAST_WRITE_VC)`; ttnn's OpSignaler
// calls them with its Noc's id): the spec'ed calls, as the emulator's two NoCs share one coordinate system and an
// increment applies when issued. get_arg_addr (the L1 address of a runtime argument) is refused at the call: the
// emulator's runtime arguments do not live in L1.
inline uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc) {
    (void)noc;
    return ::tt_emu::kapi::get_noc_addr(noc_x, noc_y, addr);
}
// This core's NoC address of its L1 address `addr` (0.81.1 internal/dataflow/dataflow_api_addrgen.h; the same
// ttnn's pad reader takes it of its scratch CBs).
inline uint64_t get_noc_addr(uint32_t addr, uint8_t noc = noc_index) {
    return ::tt_emu::kapi::get_noc_addr(uint32_t{my_x[noc]}, uint32_t{my_y[noc]}, addr);
}
inline void noc_semaphore_inc(uint64_t addr, uint32_t incr, uint8_t noc_id, uint8_t vc = 0) {
    (void)noc_id;
    (void)vc;
    ::tt_emu::kapi::noc_semaphore_inc(addr, incr);
}
inline uint32_t get_arg_addr(int arg_idx) { return ::tt_emu::kapi::detail::runtime_arg_addr(arg_idx); }
#endif
