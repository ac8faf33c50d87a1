// tt_emu: the subset of tt-metal's Metal 2.0 host API (tt_metal/api/tt-metalium/experimental/metal2_host_api/, as
// ttnn 0.81.1's program factories use it) that builds a Program from a declarative ProgramSpec: dataflow buffers
// (DFBs; on Wormhole each is a CB), tensor parameters, kernels with named bindings (`dfb::in`, `tensor::src`), named
// compile-time arguments and a named runtime-argument schema, and work units placing kernels on cores.
// MakeProgramFromSpec creates the CBs and kernels; the JIT writes each kernel's kernel_bindings_generated.h and
// kernel_args_generated.h (tt-metal's genfiles) and includes them before it. Field order is tt-metal's, so the
// factories' designated initialisers compile.
//
// Where tt-metal names ttnn's tensor types the emulator takes its own buffers: a TensorParameter's `spec` is built
// from a Buffer (the emulator has interleaved DRAM tensors only, so a spec is the buffer's page layout), and a run's
// tensor arguments are Buffers (tt-metal: MeshTensors). Semaphores (SemaphoreSpec, a KernelSpec's SemaphoreBindings,
// `sem::name` in the kernel) are data-movement semaphores in L1 on Wormhole: a binding's scope is LOCAL_NONATOMIC.
// Tile shapes other than 32x32, borrowed DFB memory, compute-kernel semaphores, register-backed semaphores,
// scratchpads and Gen2 (Quasar) configurations are not emulated.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tt-metalium/distributed.hpp"
#include "tt-metalium/host_api.hpp"
#include "tt-metalium/tensor_accessor_args.hpp"

namespace tt::tt_metal {

enum class UnpackMode : uint8_t { UnpackToSrc, UnpackToDest };

// tt-metal's TensorSpec describes a ttnn tensor (shape, dtype, layout, memory config); the emulator's is the
// TensorAccessorArgs of an interleaved DRAM buffer of that layout, which is what a kernel binding compiles in.
class TensorSpec {
public:
    explicit TensorSpec(const Buffer& buffer) : args_(TensorAccessorArgs(buffer).get_compile_time_args()) {}
    explicit TensorSpec(const std::shared_ptr<Buffer>& buffer) : TensorSpec(*buffer) {}
    const std::vector<uint32_t>& accessor_compile_time_args() const { return args_; }

private:
    std::vector<uint32_t> args_;
};

namespace experimental {

using DFBSpecName = std::string;
using TensorParamName = std::string;
using KernelSpecName = std::string;
using WorkUnitSpecName = std::string;
using SemaphoreSpecName = std::string;

template <typename T>
using Group = std::vector<T>;

struct DataflowBufferSpec {
    DFBSpecName unique_id;
    uint32_t entry_size = 0;   // bytes of one entry (a tile page)
    uint32_t num_entries = 0;  // entries the ring holds
    tt::DataFormat data_format_metadata = tt::DataFormat::Invalid;
    // DFBs that share this one's backing L1 (tt-metal's alias_with): logically distinct FIFOs (each its own CB index
    // and pointers) over one block of memory, as a CircularBufferConfig of several indices is. Every alias has the
    // same total size, lives on the same cores, and names each of the others (checked at MakeProgramFromSpec).
    std::vector<DFBSpecName> alias_with = {};
};

// A semaphore: one L1 word on each of its target nodes, at the same semaphore id on all of them. Program-scoped: any
// kernel may bind it, and a kernel reaches another node's word over the NoC (`up(noc, x, y, v)`, `set_multicast`).
// tt-metal's target_nodes is a NodeCoord, NodeRange or NodeRangeSet; the emulator takes a CoreRangeSet.
struct SemaphoreSpec {
    SemaphoreSpecName unique_id;
    CoreRangeSet target_nodes;
    uint32_t initial_value = 0;
};

struct TensorParameter {
    TensorParamName unique_id;
    TensorSpec spec;
};

enum class DFBEndpointType { PRODUCER, CONSUMER, RELAY };

struct DFBBinding {
    DFBSpecName dfb_spec_name;
    std::string accessor_name;  // `dfb::<accessor_name>` in the kernel
    DFBEndpointType endpoint_type = DFBEndpointType::PRODUCER;
};

struct SemaphoreBinding {
    SemaphoreSpecName semaphore_spec_name;
    std::string accessor_name;  // `sem::<accessor_name>` in the kernel, a SemaphoreBindingToken
};

struct TensorBinding {
    TensorParamName tensor_parameter_name;
    std::string accessor_name;  // `tensor::<accessor_name>` in the kernel
};

struct DataMovementHardwareConfig {
    // READER / WRITER: the conventional Gen1 placement (a reader on RISCV_1 and NOC_1, a writer on RISCV_0 and
    // NOC_0); UNSPECIFIED: gen1_config says.
    enum class RoleHint { READER, WRITER, UNSPECIFIED };
    RoleHint role = RoleHint::UNSPECIFIED;
    struct Gen1Config {
        DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
        NOC noc = NOC::RISCV_0_default;
        NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
    };
    std::optional<Gen1Config> gen1_config = std::nullopt;
};
using DataMovementRoleHint = DataMovementHardwareConfig::RoleHint;

struct ComputeHardwareConfig {
    MathFidelity fpu_math_fidelity = MathFidelity::HiFi4;
    bool enable_32_bit_dest = false;
    bool double_buffer_dest = true;  // false: dst_full_sync_en
    std::map<DFBSpecName, UnpackMode> unpack_modes;
};

struct KernelSpec {
    KernelSpecName unique_id;
    std::string source;  // a kernel path, resolved as CreateKernel resolves it
    struct CompilerOptions {
        using Defines = std::vector<std::pair<std::string, std::string>>;
        Defines defines = {};
        KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2;
    };
    CompilerOptions compiler_options = {};
    std::vector<DFBBinding> dfb_bindings;
    std::vector<SemaphoreBinding> semaphore_bindings;
    std::vector<TensorBinding> tensor_bindings;
    std::vector<std::pair<std::string, uint32_t>> compile_time_args;  // `args::<name>`, compile-time constants
    struct RuntimeArgSchema {
        std::vector<std::string> runtime_arg_names;         // `args::<name>`, per core
        std::vector<std::string> common_runtime_arg_names;  // `args::<name>`, shared by the kernel's cores
    };
    RuntimeArgSchema runtime_arg_schema = {};
    std::variant<DataMovementHardwareConfig, ComputeHardwareConfig> hw_config;
};

struct WorkUnitSpec {
    WorkUnitSpecName name;
    std::vector<KernelSpecName> kernels;
    CoreRangeSet target_nodes;
};

struct ProgramSpec {
    std::string name;
    Group<KernelSpec> kernels;
    Group<DataflowBufferSpec> dataflow_buffers;
    Group<SemaphoreSpec> semaphores;
    Group<TensorParameter> tensor_parameters;
    Group<WorkUnitSpec> work_units;
};

// Validates the spec (every name it refers to declared once, one producer and one consumer per DFB on a core, a
// kernel kind per core at most once, a semaphore bound once per kernel and by data-movement kernels only) and builds
// the Program: a CB per DFB on the cores of the kernels bound to it, a semaphore per SemaphoreSpec on its target
// nodes (CreateSemaphore), each kernel on the cores of its work units. A bad spec is a host error naming the spec
// and what is wrong.
Program MakeProgramFromSpec(distributed::MeshDevice& mesh_device, const ProgramSpec& spec, bool = false);

}  // namespace experimental
}  // namespace tt::tt_metal
