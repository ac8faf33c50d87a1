// The backend spec's API profile (generated/emulator/profile.cmake), the default of $TT_EMU_PROFILE, compiled into
// this unit alone (CMakeLists.txt): a checkout whose spec names another profile recompiles this file, not every unit
// of the library. It includes nothing, so that it costs next to nothing to compile.
#ifndef TT_EMU_DEFAULT_PROFILE
#error "build the emulator with -DTT_EMU_DEFAULT_PROFILE=\"<api profile>\""
#endif

namespace tt_emu {

const char* default_profile();  // declared in emu.hpp too; a different signature would not link

const char* default_profile() { return TT_EMU_DEFAULT_PROFILE; }

}  // namespace tt_emu
