// Programs as the host builds them (kernels, CBs, semaphores) and the kernel JIT (jit.cpp). Included by emu.hpp
// after the core and DRAM declarations it uses; include emu.hpp, not this header.
#pragma once

namespace tt_emu {

// ------------------------------------------------------------------ programs (host side)

enum class KernelKind { Riscv0, Riscv1, Compute };
const char* kind_name(KernelKind kind);

struct KernelBinary {
    std::string path;     // kernel source
    std::string so_path;  // compiled object in the cache
    std::string log;      // compiler output
    bool ok = false;
    bool cached = false;
    double seconds = 0.0;
    void (*entry)() = nullptr;
};

// A header the JIT writes for one kernel and includes before it (tt-metal's genfiles: a Metal 2.0 kernel's
// kernel_bindings_generated.h and kernel_args_generated.h, and the CB descriptors of chlkc_descriptors.h).
struct GeneratedHeader {
    std::string name;
    std::string text;
    bool before_prelude = false;  // included before the profile's prelude headers (the descriptors)
};

struct KernelSpec {
    std::string path;
    std::string name;  // file stem: how reports and errors name the kernel
    KernelKind kind = KernelKind::Riscv0;
    int noc = 0;  // data-movement kernels: the NoC (0 or 1) their transfers use
    std::vector<CoreCoord> cores;
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    bool fp32_dest_acc = false;
    int math_fidelity = 4;              // MathFidelity value
    std::vector<uint8_t> unpack_to_dest;  // ComputeConfig unpack_to_dest_mode, per CB (UnpackToDestMode values)
    bool dst_full_sync = false;
    std::map<CoreCoord, std::vector<uint32_t>> runtime_args;
    std::vector<uint32_t> common_args;
    std::vector<GeneratedHeader> generated_headers;  // Metal 2.0 kernels (metal2_host.cpp)
    std::shared_future<std::shared_ptr<KernelBinary>> binary;
};

struct CbSpec {
    uint8_t index = 0;
    DataFormat format = DataFormat::Invalid;
    uint32_t page_size = 0;
    uint32_t total_size = 0;
    uint32_t address = 0;  // L1 byte address on its cores
};

struct SemaphoreSpec {
    uint32_t id = 0;  // L1 address semaphore_base() + id * kSemaphoreStride on each of its cores
    std::vector<CoreCoord> cores;
    uint32_t initial_value = 0;
};

// A kernel made from a ProgramSpec (metal2_host.cpp): its handle and what its run arguments are named.
struct Metal2Kernel {
    uint32_t handle = 0;
    std::vector<std::string> runtime_arg_names;         // per core, in order
    std::vector<std::string> common_runtime_arg_names;  // the named ones, then one address per tensor binding
    std::vector<std::string> tensor_parameters;         // of the tensor bindings, in order
};

struct ProgramState {
    std::map<std::string, Metal2Kernel> metal2_kernels;  // by KernelSpec unique_id
    std::vector<KernelSpec> kernels;  // KernelHandle = index
    std::map<CoreCoord, std::vector<CbSpec>> cbs;
    std::map<CoreCoord, uint32_t> l1_used;
    std::vector<SemaphoreSpec> semaphores;  // id = index
};

std::vector<CoreCoord> expand_cores(const tt::tt_metal::CoreSpec& spec, const char* call);
// A kernel source path as tt-metal's CreateKernel finds it (host.cpp): absolute, or the first of the working
// directory, $TT_METAL_HOME, $TT_METAL_KERNEL_PATH and the system kernel folder that holds it; empty if none does.
std::string resolve_kernel_path(const std::string& file_name);
std::string kernel_path_not_found(const std::string& file_name);  // the error naming every folder searched

// CreateKernel's named_compile_args as the define tt-metal's JIT passes (kapi_named_args.cpp).
void named_args_define(KernelSpec& k, const std::unordered_map<std::string, uint32_t>& named);
// CreateKernel with the headers the JIT writes for the kernel (a Metal 2.0 kernel's, metal2_host.cpp).
tt::tt_metal::KernelHandle create_kernel(tt::tt_metal::Program& program, const std::string& file_name,
                                         const tt::tt_metal::CoreSpec& core_spec,
                                         const std::variant<tt::tt_metal::DataMovementConfig,
                                                            tt::tt_metal::ComputeConfig>& config,
                                         std::vector<GeneratedHeader> generated_headers);

// ------------------------------------------------------------------ JIT (jit.cpp)

std::shared_future<std::shared_ptr<KernelBinary>> compile_kernel_async(const KernelSpec& spec);

}  // namespace tt_emu
