// Metal 2.0 host API (tt-metalium/experimental/metal2_host_api/): a Program from a ProgramSpec, and its run arguments.
// What tt-metal's MakeProgramFromSpec and JIT do for such a program, the emulator does here: each DFB becomes a CB
// (its index the DFB's place in the spec) on the cores of the kernels bound to it; each kernel is created on the
// cores of its work units with the headers tt-metal's genfiles writes for it (metal2_headers.cpp): its `dfb::`,
// `sem::` and `tensor::` bindings, its `args::` (named runtime, common runtime and compile-time arguments) and the CB
// descriptors. A tensor binding's TensorAccessorArgs are the kernel's positional compile-time arguments; its base
// address is an implicit common runtime argument after the named ones, set from the run's tensor arguments.
#include <algorithm>
#include <set>

#include "emu.hpp"
#include "metal2.hpp"
#include "tt-metalium/experimental/metal2_host_api/program_run_args.hpp"

namespace tt::tt_metal::experimental {

namespace {

constexpr const char* kMake = "MakeProgramFromSpec";
constexpr const char* kRun = "SetProgramRunArgs";

[[noreturn]] void fail(const char* call, const std::string& spec, const std::string& message) {
    detail::host_error(call, "ProgramSpec '" + spec + "': " + message);
}

template <typename T>
size_t index_of(const std::vector<T>& items, const std::string& id) {
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].unique_id == id) return i;
    }
    return items.size();
}

template <typename T>
void check_unique(const ProgramSpec& spec, const std::vector<T>& items, const char* what) {
    std::set<std::string> seen;
    for (const T& item : items) {
        if (!seen.insert(item.unique_id).second) fail(kMake, spec.name, std::string(what) + " '" + item.unique_id
            + "' is declared twice");
    }
}

// The cores of each kernel: the union of its work units' target nodes.
std::vector<CoreRangeSet> kernel_cores(const ProgramSpec& spec) {
    std::vector<std::vector<CoreRange>> ranges(spec.kernels.size());
    for (const WorkUnitSpec& wu : spec.work_units) {
        for (const KernelSpecName& name : wu.kernels) {
            const size_t k = index_of(spec.kernels, name);
            if (k == spec.kernels.size()) fail(kMake, spec.name, "work unit '" + wu.name + "' names kernel '" + name
                + "', which the spec does not declare");
            for (const CoreRange& r : wu.target_nodes.ranges()) ranges[k].push_back(r);
        }
    }
    std::vector<CoreRangeSet> out;
    for (size_t k = 0; k < spec.kernels.size(); ++k) {
        if (ranges[k].empty()) fail(kMake, spec.name, "kernel '" + spec.kernels[k].unique_id + "' is in no work unit");
        out.emplace_back(ranges[k]);
    }
    return out;
}

// Every DFB a kernel names exists; on each core a DFB has one producer and one consumer at most.
void check_dfb_bindings(const ProgramSpec& spec, const std::vector<CoreRangeSet>& cores) {
    std::map<std::pair<size_t, CoreCoord>, std::pair<int, int>> ends;
    for (size_t k = 0; k < spec.kernels.size(); ++k) {
        const KernelSpec& ks = spec.kernels[k];
        for (const DFBBinding& b : ks.dfb_bindings) {
            const size_t d = index_of(spec.dataflow_buffers, b.dfb_spec_name);
            if (d == spec.dataflow_buffers.size()) fail(kMake, spec.name, "kernel '" + ks.unique_id + "' binds DFB '"
                + b.dfb_spec_name + "', which the spec does not declare");
            if (b.endpoint_type == DFBEndpointType::RELAY) fail(kMake, spec.name, "kernel '" + ks.unique_id
                + "': relay DFB bindings are not emulated");
            for (const CoreCoord& c : tt_emu::expand_cores(cores[k], kMake)) {
                auto& [producers, consumers] = ends[{d, c}];
                (b.endpoint_type == DFBEndpointType::PRODUCER ? producers : consumers) += 1;
                if (producers > 1 || consumers > 1) {
                    fail(kMake, spec.name, "DFB '" + b.dfb_spec_name + "' has more than one " + (producers > 1
                        ? "producer" : "consumer") + " on core " + tt_emu::core_name(c) + " (kernel '" + ks.unique_id
                            + "')");
                }
            }
        }
        for (const TensorBinding& t : ks.tensor_bindings) {
            if (index_of(spec.tensor_parameters, t.tensor_parameter_name) == spec.tensor_parameters.size()) {
                fail(kMake, spec.name, "kernel '" + ks.unique_id + "' binds tensor '" + t.tensor_parameter_name
                    + "', which the spec does not declare");
            }
        }
    }
}

// A semaphore per SemaphoreSpec on its target nodes; its id, by the spec's order.
std::vector<uint32_t> create_semaphores(Program& program, const ProgramSpec& spec) {
    std::vector<uint32_t> ids;
    for (const SemaphoreSpec& s : spec.semaphores) {
        if (s.target_nodes.ranges().empty()) fail(kMake, spec.name, "semaphore '" + s.unique_id
            + "' has no target nodes");
        ids.push_back(CreateSemaphore(program, s.target_nodes, s.initial_value));
    }
    return ids;
}

// The `sem::` tokens of a kernel: each binding names a declared semaphore, once, from a data-movement kernel (tt-metal
// binds compute semaphores on Blackhole and Quasar only, the Tensix sync unit's; the emulator models Wormhole).
std::vector<std::pair<std::string, uint32_t>> semaphore_tokens(const ProgramSpec& spec, const KernelSpec& ks,
                                                               const std::vector<uint32_t>& ids) {
    std::vector<std::pair<std::string, uint32_t>> tokens;
    std::map<std::string, std::string> bound;  // spec name -> accessor name
    for (const SemaphoreBinding& b : ks.semaphore_bindings) {
        const size_t s = index_of(spec.semaphores, b.semaphore_spec_name);
        if (s == spec.semaphores.size()) fail(kMake, spec.name, "kernel '" + ks.unique_id + "' binds semaphore '"
            + b.semaphore_spec_name + "', which the spec does not declare");
        if (std::holds_alternative<ComputeHardwareConfig>(ks.hw_config)) fail(kMake, spec.name, "kernel '"
            + ks.unique_id + "' is a compute kernel with semaphore bindings ('" + b.semaphore_spec_name
            + "'): compute semaphores are Blackhole's and Quasar's (the Tensix sync unit), not Wormhole's");
        if (!bound.emplace(b.semaphore_spec_name, b.accessor_name).second) fail(kMake, spec.name, "kernel '"
            + ks.unique_id + "' binds semaphore '" + b.semaphore_spec_name + "' more than once (accessor names '"
            + bound[b.semaphore_spec_name] + "' and '" + b.accessor_name + "')");
        tokens.emplace_back(b.accessor_name, ids[s]);
    }
    return tokens;
}

// The cores a DFB lives on (those of the kernels bound to it), one range per core in order.
std::vector<CoreRange> dfb_placement(const ProgramSpec& spec, const std::vector<CoreRangeSet>& cores, size_t d) {
    const DataflowBufferSpec& dfb = spec.dataflow_buffers[d];
    std::vector<CoreRange> on;
    for (size_t k = 0; k < spec.kernels.size(); ++k) {
        for (const DFBBinding& b : spec.kernels[k].dfb_bindings) {
            if (b.dfb_spec_name != dfb.unique_id) continue;
            for (const CoreCoord& c : tt_emu::expand_cores(cores[k], kMake)) on.emplace_back(c);
        }
    }
    if (on.empty()) fail(kMake, spec.name, "DFB '" + dfb.unique_id + "' is bound to no kernel");
    if (dfb.entry_size == 0 || dfb.num_entries == 0) fail(kMake, spec.name, "DFB '" + dfb.unique_id
        + "' has no entries (entry_size and num_entries must be positive)");
    std::sort(on.begin(), on.end(), [](const CoreRange& a, const CoreRange& b) { return a.start_coord < b.start_coord; });
    on.erase(std::unique(on.begin(), on.end(), [](const CoreRange& a,
        const CoreRange& b) { return a.start_coord == b.start_coord; }), on.end());
    return on;
}

bool same_cores(const std::vector<CoreRange>& a, const std::vector<CoreRange>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const CoreRange& x, const CoreRange& y) { return x.start_coord == y.start_coord; });
}

// d and the DFBs it aliases (alias_with): each alias declared, naming every other member of the group (a strict clique),
// of the same total size and on the same cores (one block of each core's L1). tt-metal's migration guide also asks for
// "the same set of kernels", but its own ported reuse matmul factory aliases `out` (bound to the compute kernel and the
// writer) with `intermed0` (bound to the compute kernel only): the emulator holds the aliases to what sharing L1 needs.
std::vector<size_t> alias_group(const ProgramSpec& spec, const std::vector<CoreRangeSet>& cores, size_t d) {
    const DataflowBufferSpec& dfb = spec.dataflow_buffers[d];
    std::vector<size_t> group{d};
    for (const DFBSpecName& name : dfb.alias_with) {
        const size_t a = index_of(spec.dataflow_buffers, name);
        if (a == spec.dataflow_buffers.size()) fail(kMake, spec.name, "DFB '" + dfb.unique_id + "' aliases '" + name
            + "', which the spec does not declare");
        if (a == d) fail(kMake, spec.name, "DFB '" + dfb.unique_id + "' names itself in alias_with");
        group.push_back(a);
    }
    const std::vector<CoreRange> on = dfb_placement(spec, cores, d);
    for (size_t a : group) {
        const DataflowBufferSpec& other = spec.dataflow_buffers[a];
        for (size_t b : group) {
            const auto& names = other.alias_with;
            if (a != b && std::find(names.begin(), names.end(), spec.dataflow_buffers[b].unique_id) == names.end()) {
                fail(kMake, spec.name, "DFB '" + other.unique_id + "' is aliased with '"
                    + spec.dataflow_buffers[b].unique_id + "' but does not name it in alias_with (aliases must"
                    " declare each other)");
            }
        }
        if (other.entry_size * other.num_entries != dfb.entry_size * dfb.num_entries) fail(kMake, spec.name,
            "aliased DFBs '" + dfb.unique_id + "' and '" + other.unique_id + "' differ in total size ("
            + std::to_string(dfb.entry_size * dfb.num_entries) + " and "
            + std::to_string(other.entry_size * other.num_entries) + " bytes)");
        if (!same_cores(dfb_placement(spec, cores, a), on)) fail(kMake, spec.name, "aliased DFBs '" + dfb.unique_id
            + "' and '" + other.unique_id + "' are on different cores (their kernels' work units)");
    }
    return group;
}

// A CB per DFB, its index the DFB's place in the spec; aliased DFBs are one CB config of several indices (one block
// of L1, a FIFO per index), as tt-metal's factories build shared CBs.
void create_dfbs(Program& program, const ProgramSpec& spec, const std::vector<CoreRangeSet>& cores) {
    if (spec.dataflow_buffers.size() > 32) fail(kMake, spec.name, "more than 32 DFBs (a Wormhole core has 32 CBs)");
    std::set<size_t> created;
    for (size_t d = 0; d < spec.dataflow_buffers.size(); ++d) {
        const std::vector<size_t> group = alias_group(spec, cores, d);
        if (created.count(d)) continue;
        std::map<uint8_t, tt::DataFormat> formats;
        for (size_t a : group) formats[static_cast<uint8_t>(a)] = spec.dataflow_buffers[a].data_format_metadata;
        const DataflowBufferSpec& dfb = spec.dataflow_buffers[d];
        CircularBufferConfig config(dfb.entry_size * dfb.num_entries, formats);
        for (size_t a : group) {
            config.set_page_size(static_cast<uint8_t>(a), spec.dataflow_buffers[a].entry_size);
            created.insert(a);
        }
        CreateCircularBuffer(program, CoreRangeSet(dfb_placement(spec, cores, d)), config);
    }
}

std::variant<DataMovementConfig, ComputeConfig> kernel_config(const ProgramSpec& spec, const KernelSpec& ks,
                                                               std::vector<uint32_t> ctas) {
    std::map<std::string, std::string> defines(ks.compiler_options.defines.begin(), ks.compiler_options.defines.end());
    if (const auto* dm = std::get_if<DataMovementHardwareConfig>(&ks.hw_config)) {
        DataMovementConfig c;
        if (dm->role == DataMovementRoleHint::READER) c = ReaderDataMovementConfig();
        if (dm->role == DataMovementRoleHint::WRITER) c = WriterDataMovementConfig();
        if (dm->role == DataMovementRoleHint::UNSPECIFIED) {
            if (!dm->gen1_config) fail(kMake, spec.name, "kernel '" + ks.unique_id
                + "': a data-movement kernel needs a READER or WRITER role or a gen1_config");
            c.processor = dm->gen1_config->processor;
            c.noc = dm->gen1_config->noc;
            c.noc_mode = dm->gen1_config->noc_mode;
        }
        c.compile_args = std::move(ctas);
        c.defines = std::move(defines);
        return c;
    }
    const auto& hw = std::get<ComputeHardwareConfig>(ks.hw_config);
    ComputeConfig c{.math_fidelity = hw.fpu_math_fidelity, .fp32_dest_acc_en = hw.enable_32_bit_dest,
                    .dst_full_sync_en = !hw.double_buffer_dest};
    for (const auto& [name, mode] : hw.unpack_modes) {
        const size_t d = index_of(spec.dataflow_buffers, name);
        if (d == spec.dataflow_buffers.size()) fail(kMake, spec.name, "kernel '" + ks.unique_id
            + "' sets the unpack mode of DFB '" + name + "', which the spec does not declare");
        if (c.unpack_to_dest_mode.size() <= d) c.unpack_to_dest_mode.resize(d + 1, UnpackToDestMode::Default);
        c.unpack_to_dest_mode[d] = mode == UnpackMode::UnpackToDest
            ? UnpackToDestMode::UnpackToDestFp32 : UnpackToDestMode::Default;
    }
    c.compile_args = std::move(ctas);
    c.defines = std::move(defines);
    return c;
}

}  // namespace

Program MakeProgramFromSpec(distributed::MeshDevice&, const ProgramSpec& spec, bool) {
    check_unique(spec, spec.kernels, "kernel");
    check_unique(spec, spec.dataflow_buffers, "DFB");
    check_unique(spec, spec.semaphores, "semaphore");
    check_unique(spec, spec.tensor_parameters, "tensor parameter");
    const std::vector<CoreRangeSet> cores = kernel_cores(spec);
    check_dfb_bindings(spec, cores);
    Program program = CreateProgram();
    create_dfbs(program, spec, cores);
    const std::vector<uint32_t> sem_ids = create_semaphores(program, spec);
    for (size_t k = 0; k < spec.kernels.size(); ++k) {
        const KernelSpec& ks = spec.kernels[k];
        tt_emu::Metal2Kernel m;
        m.runtime_arg_names = ks.runtime_arg_schema.runtime_arg_names;
        m.common_runtime_arg_names = ks.runtime_arg_schema.common_runtime_arg_names;
        tt_emu::metal2::Layout layout;
        std::vector<uint32_t> ctas;
        for (const TensorBinding& t : ks.tensor_bindings) {
            const TensorParameter& param = spec.tensor_parameters[index_of(spec.tensor_parameters,
                t.tensor_parameter_name)];
            layout.tensors.push_back({t.accessor_name, uint32_t(ctas.size()),
                uint32_t(m.common_runtime_arg_names.size() * 4)});
            m.common_runtime_arg_names.push_back(std::string(tt_emu::metal2::kTensorAddrPrefix) + t.accessor_name);
            m.tensor_parameters.push_back(t.tensor_parameter_name);
            const std::vector<uint32_t>& args = param.spec.accessor_compile_time_args();
            ctas.insert(ctas.end(), args.begin(), args.end());
        }
        for (const DFBBinding& b : ks.dfb_bindings) {
            // A kernel that both fills and drains a DFB (matmul's partials) binds it twice under one name, as
            // tt-metal's factories do: one `dfb::` token. A name bound to two DFBs stays an error (check_names).
            const std::pair<std::string, uint16_t> token(b.accessor_name,
                                                         uint16_t(index_of(spec.dataflow_buffers, b.dfb_spec_name)));
            if (std::find(layout.dfbs.begin(), layout.dfbs.end(), token) == layout.dfbs.end()) {
                layout.dfbs.push_back(token);
            }
        }
        layout.sems = semaphore_tokens(spec, ks, sem_ids);
        for (const DataflowBufferSpec& d : spec.dataflow_buffers) layout.formats.push_back(d.data_format_metadata);
        layout.rtas = m.runtime_arg_names;
        layout.crtas = m.common_runtime_arg_names;
        layout.ctas = ks.compile_time_args;
        if (const auto* hw = std::get_if<ComputeHardwareConfig>(&ks.hw_config)) {
            layout.compute = true;
            layout.fp32_dest_acc = hw->enable_32_bit_dest;
            layout.dst_full_sync = !hw->double_buffer_dest;
            layout.math_fidelity = static_cast<uint32_t>(hw->fpu_math_fidelity);
        }
        const std::string problem = tt_emu::metal2::check_names(layout);
        if (!problem.empty()) fail(kMake, spec.name, "kernel '" + ks.unique_id + "': " + problem);
        m.handle = tt_emu::create_kernel(program, ks.source, cores[k], kernel_config(spec, ks, std::move(ctas)),
                                         tt_emu::metal2::headers(layout));
        program.state().metal2_kernels[ks.unique_id] = std::move(m);
    }
    return program;
}

void AddRuntimeArgsForNode(std::vector<std::pair<CoreCoord, ProgramRunArgs::NamedArgs>>& values, const CoreCoord& node,
                           std::initializer_list<std::pair<std::string, uint32_t>> args) {
    for (auto& [core, named] : values) {
        if (core == node) {
            named.insert(named.end(), args.begin(), args.end());
            return;
        }
    }
    values.emplace_back(node, ProgramRunArgs::NamedArgs(args));
}

namespace {

// The values of `names`, in order, from `given` (each name once, nothing else).
std::vector<uint32_t> in_order(const std::vector<std::string>& names, const ProgramRunArgs::NamedArgs& given,
                               const std::string& where) {
    std::map<std::string, uint32_t> by_name;
    for (const auto& [name, value] : given) {
        if (std::find(names.begin(), names.end(), name) == names.end()) detail::host_error(kRun, where + ": '" + name
            + "' is not in the kernel's runtime argument schema");
        if (!by_name.emplace(name, value).second) detail::host_error(kRun, where + ": '" + name + "' is given twice");
    }
    std::vector<uint32_t> out;
    for (const std::string& name : names) {
        auto it = by_name.find(name);
        if (it == by_name.end()) detail::host_error(kRun, where + ": no value for '" + name + "'");
        out.push_back(it->second);
    }
    return out;
}

}  // namespace

void SetProgramRunArgs(Program& program, const ProgramRunArgs& run_args, bool) {
    auto& kernels = program.state().metal2_kernels;
    std::map<std::string, const KernelRunArgs*> by_kernel;
    for (const KernelRunArgs& ka : run_args.kernel_run_args) {
        if (!kernels.count(ka.kernel)) detail::host_error(kRun, "run arguments for kernel '" + ka.kernel
            + "', which the program does not have");
        by_kernel[ka.kernel] = &ka;
    }
    std::map<std::string, uint32_t> addresses;
    for (const auto& [name, buffer] : run_args.tensor_args) addresses[name] = buffer->address();
    for (auto& [name, m] : kernels) {
        const KernelRunArgs* ka = by_kernel.count(name) ? by_kernel[name] : nullptr;
        const std::vector<std::string> named_crtas(m.common_runtime_arg_names.begin(),
            m.common_runtime_arg_names.end() - m.tensor_parameters.size());
        std::vector<uint32_t> common = in_order(named_crtas, ka
            ? ka->common_runtime_arg_values : ProgramRunArgs::NamedArgs{}, "kernel '" + name + "' common arguments");
        for (const std::string& param : m.tensor_parameters) {
            if (!addresses.count(param)) detail::host_error(kRun, "kernel '" + name + "' binds tensor '" + param
                + "', but the run arguments give no tensor for it");
            common.push_back(addresses[param]);
        }
        SetCommonRuntimeArgs(program, m.handle, common);
        if (!ka) continue;
        for (const auto& [core, named] : ka->runtime_arg_values) {
            SetRuntimeArgs(program, m.handle, core, in_order(m.runtime_arg_names, named, "kernel '" + name
                + "' on core " + tt_emu::core_name(core)));
        }
    }
}

}  // namespace tt::tt_metal::experimental
