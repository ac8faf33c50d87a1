// Helpers for the families whose ttnn 0.81.1 program factories are Metal 2.0 ProgramSpecs (KernelSpec, DFB and tensor
// bindings, named arguments): the host programs build the same spec with the emulator's metal2_host_api subset,
// MakeProgramFromSpec, SetProgramRunArgs.
#pragma once

#include <tt-metalium/experimental/metal2_host_api/program_run_args.hpp>
#include <tt-metalium/experimental/metal2_host_api/program_spec.hpp>

#include "ttnn_host.hpp"

namespace ttnn_case {

using namespace tt::tt_metal::experimental;
using tt::tt_metal::distributed::MeshDevice;

inline DataMovementHardwareConfig reader_hw() { return {.role = DataMovementRoleHint::READER}; }
inline DataMovementHardwareConfig writer_hw() { return {.role = DataMovementRoleHint::WRITER}; }

inline DataflowBufferSpec bf16_dfb(const std::string& name, uint32_t entries, uint32_t entry_size = kTileBytes) {
    return {.unique_id = name, .entry_size = entry_size, .num_entries = entries,
            .data_format_metadata = tt::DataFormat::Float16_b};
}

// Makes the program, sets its run arguments and runs it.
inline void run_spec(MeshDevice& mesh, const ProgramSpec& spec, const ProgramRunArgs& run_args) {
    Program program = MakeProgramFromSpec(mesh, spec);
    SetProgramRunArgs(program, run_args);
    EnqueueProgram(mesh.get_device(0)->command_queue(), program, false);
}

// Splits `blocks` over the first `max_cores` cores of row 0: `per` blocks each, the last core (the cliff) the rest.
struct BlockSplit {
    uint32_t ncores, per, cliff;  // cliff: blocks of the last core, 0 when every core has `per`
    CoreRangeSet full, cliff_core;
};

inline BlockSplit split_blocks(uint32_t blocks, uint32_t max_cores) {
    const uint32_t per = (blocks + max_cores - 1) / max_cores;
    const uint32_t ncores = (blocks + per - 1) / per, cliff = blocks % per;
    const uint32_t nfull = cliff ? ncores - 1 : ncores;
    BlockSplit s{ncores, per, cliff, CoreRangeSet(CoreRange({0, 0}, {nfull - 1, 0})), CoreRangeSet()};
    if (cliff) s.cliff_core = CoreRangeSet(CoreRange({nfull, 0}));
    return s;
}

}  // namespace ttnn_case
