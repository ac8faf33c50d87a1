// tt_emu: the run arguments of a Program made from a ProgramSpec (tt-metal's
// experimental/metal2_host_api/program_run_args.hpp, as ttnn 0.81.1's factories use it): per kernel, the named
// runtime arguments of each core and the named common runtime arguments; per tensor parameter, the tensor (the
// emulator's Buffer; tt-metal: a MeshTensor), whose address reaches the kernels bound to it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tt-metalium/experimental/metal2_host_api/program_spec.hpp"

namespace tt::tt_metal::experimental {

struct ProgramRunArgs {
    using NamedArgs = std::vector<std::pair<std::string, uint32_t>>;
    struct KernelRunArgs {
        KernelSpecName kernel;
        std::vector<std::pair<CoreCoord, NamedArgs>> runtime_arg_values;
        NamedArgs common_runtime_arg_values;
    };
    std::vector<KernelRunArgs> kernel_run_args;
    std::map<TensorParamName, std::shared_ptr<Buffer>> tensor_args;
};
using KernelRunArgs = ProgramRunArgs::KernelRunArgs;

// Adds (or extends) the named runtime arguments of one core.
void AddRuntimeArgsForNode(std::vector<std::pair<CoreCoord, ProgramRunArgs::NamedArgs>>& values, const CoreCoord& node,
                           std::initializer_list<std::pair<std::string, uint32_t>> args);

// Sets every kernel's runtime arguments from `run_args`, in its schema's order: each core's named arguments (all of
// them, on every core of the kernel), the named common arguments, and each bound tensor's address. A name the
// schema lacks, a missing one, a core the kernel does not run on or an unknown tensor is a host error.
void SetProgramRunArgs(Program& program, const ProgramRunArgs& run_args, bool = false);

}  // namespace tt::tt_metal::experimental
