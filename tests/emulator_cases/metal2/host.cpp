// A program made from a Metal 2.0 ProgramSpec (tt-metalium/experimental/metal2_host_api): 4 bf16 tiles copied
// through two DFBs on 2 cores by the project's kernels here (reader.cpp, compute.cpp, writer.cpp), with named
// compile-time, runtime and common runtime arguments and tensor bindings. Reads data_dir/a.bin, writes data_dir/c.bin
// (5 pages: the copy lands one page on, the writer's common page_offset). The optional FAULT breaks one thing: a
// kernel define (ASSERT: compute) or the spec or run arguments (the others), each a clear error; ALIASED adds a DFB
// aliased with `out` (alias_with), which the compute kernel checks shares out's L1.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/experimental/metal2_host_api/program_run_args.hpp>
#include <tt-metalium/experimental/metal2_host_api/program_spec.hpp>
#include <tt-metalium/host_api.hpp>

using namespace tt::tt_metal;
using namespace tt::tt_metal::experimental;

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s kernel_dir data_dir [FAULT]\n", argv[0]);
        return 64;
    }
    const std::string dir = argv[1], data = argv[2], fault = argc > 3 ? argv[3] : "";
    constexpr uint32_t kTiles = 4, kTile = 2048;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    IDevice* device = mesh->get_device(0);
    auto A = CreateBuffer(InterleavedBufferConfig{device, kTiles * kTile, kTile, BufferType::DRAM});
    auto C = CreateBuffer(InterleavedBufferConfig{device, (kTiles + 1) * kTile, kTile, BufferType::DRAM});
    std::vector<uint32_t> words(kTiles * kTile / 4);
    std::ifstream(data + "/a.bin", std::ios::binary).read(reinterpret_cast<char*>(words.data()), kTiles * kTile);
    EnqueueWriteBuffer(device->command_queue(), A, words, false);
    EnqueueWriteBuffer(device->command_queue(), C, std::vector<uint32_t>((kTiles + 1) * kTile / 4, 0), false);

    auto defines = [&](const char* name) {
        return fault == name ? KernelSpec::CompilerOptions{.defines = {{std::string("FAULT_") + name, "1"}}}
                             : KernelSpec::CompilerOptions{};
    };
    const DataflowBufferSpec in{.unique_id = "in", .entry_size = kTile, .num_entries = 2,
                                .data_format_metadata = tt::DataFormat::Float16_b};
    DataflowBufferSpec out = in;
    out.unique_id = "out";
    KernelSpec reader{.unique_id = "reader", .source = dir + "/reader.cpp",
                      .dfb_bindings = {{fault == "UNKNOWN_DFB" ? "nope" : "in", fault == "BAD_NAME" ? "in-0" : "in",
                                        DFBEndpointType::PRODUCER}},
                      .semaphore_bindings = {{fault == "UNKNOWN_SEM" ? "nope" : "reads", "reads"}},
                      .tensor_bindings = {{"input", "src"}},
                      .compile_time_args = {{"tile_bytes", kTile}},
                      .runtime_arg_schema = {.runtime_arg_names = {"tiles", "first"},
                                             .common_runtime_arg_names = {"halves"}},
                      .hw_config = DataMovementHardwareConfig{.role = DataMovementRoleHint::READER}};
    const bool aliased = fault.starts_with("ALIAS");
    KernelSpec compute{.unique_id = "compute", .source = dir + "/compute.cpp",
                       .compiler_options = defines(fault == "NOT_EMULATED" || fault == "ALIASED" ? fault.c_str()
                                                                                                 : "ASSERT"),
                       .dfb_bindings = {{"in", "in", DFBEndpointType::CONSUMER},
                                        {"out", "out", fault == "TWO_PRODUCERS" ? DFBEndpointType::CONSUMER
                                                                                : DFBEndpointType::PRODUCER}},
                       .runtime_arg_schema = {.runtime_arg_names = {"tiles"}},
                       .hw_config = ComputeHardwareConfig{}};
    KernelSpec writer{.unique_id = "writer", .source = dir + "/writer.cpp",
                      .dfb_bindings = {{"out", "out", DFBEndpointType::CONSUMER}},
                      .tensor_bindings = {{"output", "dst"}},
                      .runtime_arg_schema = {.runtime_arg_names = {"tiles", "first"},
                                             .common_runtime_arg_names = {"page_offset"}},
                      .hw_config = DataMovementHardwareConfig{.role = DataMovementRoleHint::WRITER}};
    if (fault == "SEM_TWICE") reader.semaphore_bindings.push_back({"reads", "reads_again"});
    if (fault == "COMPUTE_SEM") compute.semaphore_bindings.push_back({"reads", "reads"});
    // ALIAS*: a DFB `scratch` aliased with `out` (one L1 block; compute asserts it under ALIASED), or a broken alias.
    DataflowBufferSpec scratch = out;
    scratch.unique_id = "scratch";
    if (aliased) {
        out.alias_with = {fault == "ALIAS_UNKNOWN" ? "nope" : "scratch"};
        if (fault != "ALIAS_ONE_WAY") scratch.alias_with = {"out"};
        if (fault == "ALIAS_SIZE") scratch.num_entries = 1;
        // Bound to the compute kernel only, as tt-metal's reuse matmul factory binds intermed0 (aliased with out).
        compute.dfb_bindings.push_back({"scratch", "scratch", DFBEndpointType::PRODUCER});
    }
    const CoreRangeSet cores(CoreRange({0, 0}, {1, 0}));
    ProgramSpec spec{.name = "metal2_copy", .kernels = {reader, compute, writer},
                           .dataflow_buffers = aliased ? std::vector{in, out, scratch} : std::vector{in, out},
                           .semaphores = {{"reads", cores, 5}},
                           .tensor_parameters = {{"input", TensorSpec(A)}, {"output", TensorSpec(C)}},
                           .work_units = {{"copy", {"reader", "compute", "writer"}, cores}}};
    if (fault == "ALIAS_CORES") {  // scratch also on core (0,1), where out is not
        spec.kernels.push_back({.unique_id = "stray", .source = dir + "/writer.cpp",
                                .dfb_bindings = {{"scratch", "out", DFBEndpointType::CONSUMER}},
                                .hw_config = DataMovementHardwareConfig{.role = DataMovementRoleHint::WRITER}});
        spec.work_units.push_back({"stray", {"stray"}, CoreRangeSet(CoreRange({0, 1}))});
    }
    Program program = MakeProgramFromSpec(*mesh, spec);

    ProgramRunArgs run{.kernel_run_args = {{.kernel = "reader", .common_runtime_arg_values = {{"halves", 2}}},
                                           {.kernel = "compute"},
                                           {.kernel = "writer", .common_runtime_arg_values = {{"page_offset", 1}}}},
                       .tensor_args = {{"input", A}, {"output", C}}};
    if (fault == "NO_TENSOR") run.tensor_args.erase("output");
    for (uint32_t core = 0; core < 2; ++core) {
        const uint32_t first = core * kTiles / 2;
        if (fault == "MISSING_ARG") {
            AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, {core, 0}, {{"tiles", kTiles / 2}});
        } else {
            AddRuntimeArgsForNode(run.kernel_run_args[0].runtime_arg_values, {core, 0},
                                  {{"tiles", kTiles / 2}, {"first", first}});
        }
        AddRuntimeArgsForNode(run.kernel_run_args[1].runtime_arg_values, {core, 0},
                              {{fault == "UNKNOWN_ARG" ? "bogus" : "tiles", kTiles / 2}});
        AddRuntimeArgsForNode(run.kernel_run_args[2].runtime_arg_values, {core, 0},
                              {{"tiles", kTiles / 2}, {"first", first}});
    }
    SetProgramRunArgs(program, run);
    EnqueueProgram(device->command_queue(), program, false);
    EnqueueReadBuffer(device->command_queue(), C, words, true);
    std::ofstream(data + "/c.bin", std::ios::binary).write(reinterpret_cast<const char*>(words.data()),
                                                           static_cast<std::streamsize>(words.size() * 4));
    Finish(device->command_queue());
    mesh->close();
    std::printf("done\n");
    return 0;
}
