// The device this process emulates: one of the backend spec's device records (tt_emu/device_facts.hpp), chosen at
// run time by $TT_EMU_DEVICE (tilelang sets it from the plan's device), else the spec's default device.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "emu.hpp"

namespace tt_emu {

namespace {
uint32_t chosen_device() {
    const char* name = std::getenv("TT_EMU_DEVICE");
    if (name == nullptr || *name == '\0') return device::kDefaultDevice;
    std::string known;
    for (uint32_t i = 0; i < device::kNumDevices; ++i) {
        if (std::string(name) == device::kDevices[i].name) return i;
        known += std::string(i ? ", " : "") + device::kDevices[i].name;
    }
    exit_with_error(2, "tt_emu: error: TT_EMU_DEVICE='" + std::string(name) + "' is not a device the emulator knows (" +
                           known + "; the device records of the backend spec)");
}
}  // namespace

uint32_t device_index() {
    static const uint32_t index = chosen_device();
    return index;
}

const device::Facts& dev() { return device::kDevices[device_index()]; }

}  // namespace tt_emu
