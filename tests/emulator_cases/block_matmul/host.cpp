// A block matmul made from a Metal 2.0 ProgramSpec on one core, with the project's kernels here (reader.cpp,
// compute.cpp, writer.cpp): C (2 x 2 tiles) = A (2 x 4 tiles) x B (4 x 2 tiles) in two K blocks of 2 tiles, with
// matmul_block on the 2 x 2 output block, the first block's partial sums packed (pack_block) into the DFB `partial`
// and reloaded (copy_block) before the second, as ttnn's bmm_large_block_zm_fused_bias_activation does. The compute
// kernel binds `partial` twice, as producer and as consumer under one name, as ttnn's matmul factory binds its
// intermediate. Reads data_dir/a.bin and b.bin (bf16 tiles in tile order), writes data_dir/c.bin. The optional FAULT
// is a kernel define (FAULT_<name>) of the compute kernel, or NAME_TWO_DFBS: one accessor name for two DFBs.
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

namespace {
constexpr uint32_t kTile = 2048;

std::shared_ptr<Buffer> upload(IDevice* device, const std::string& path, uint32_t tiles) {
    auto buffer = CreateBuffer(InterleavedBufferConfig{device, tiles * kTile, kTile, BufferType::DRAM});
    std::vector<uint32_t> words(tiles * kTile / 4);
    std::ifstream(path, std::ios::binary).read(reinterpret_cast<char*>(words.data()), tiles * kTile);
    EnqueueWriteBuffer(device->command_queue(), buffer, words, false);
    return buffer;
}

DataflowBufferSpec dfb(const std::string& name, uint32_t entries) {
    return {.unique_id = name, .entry_size = kTile, .num_entries = entries,
            .data_format_metadata = tt::DataFormat::Float16_b};
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s kernel_dir data_dir [FAULT]\n", argv[0]);
        return 64;
    }
    const std::string dir = argv[1], data = argv[2], fault = argc > 3 ? argv[3] : "";
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    IDevice* device = mesh->get_device(0);
    auto A = upload(device, data + "/a.bin", 8), B = upload(device, data + "/b.bin", 8);
    auto C = CreateBuffer(InterleavedBufferConfig{device, 4 * kTile, kTile, BufferType::DRAM});

    KernelSpec::CompilerOptions compute_options;
    if (!fault.empty()) compute_options.defines = {{"FAULT_" + fault, "1"}};
    const std::string out_name = fault == "NAME_TWO_DFBS" ? "partial" : "out";
    const KernelSpec reader{
        .unique_id = "reader", .source = dir + "/reader.cpp",
        .dfb_bindings = {{"in0", "in0", DFBEndpointType::PRODUCER}, {"in1", "in1", DFBEndpointType::PRODUCER}},
        .tensor_bindings = {{"a", "a"}, {"b", "b"}},
        .hw_config = DataMovementHardwareConfig{.role = DataMovementRoleHint::READER}};
    const KernelSpec compute{
        .unique_id = "compute", .source = dir + "/compute.cpp", .compiler_options = compute_options,
        .dfb_bindings = {{"in0", "in0", DFBEndpointType::CONSUMER}, {"in1", "in1", DFBEndpointType::CONSUMER},
                         {"partial", "partial", DFBEndpointType::PRODUCER},
                         {"partial", "partial", DFBEndpointType::CONSUMER},
                         {"out", out_name, DFBEndpointType::PRODUCER}},
        .hw_config = ComputeHardwareConfig{}};
    const KernelSpec writer{
        .unique_id = "writer", .source = dir + "/writer.cpp",
        .dfb_bindings = {{"out", "out", DFBEndpointType::CONSUMER}},
        .tensor_bindings = {{"c", "c"}},
        .hw_config = DataMovementHardwareConfig{.role = DataMovementRoleHint::WRITER}};
    const ProgramSpec spec{.name = "block_matmul", .kernels = {reader, compute, writer},
                           .dataflow_buffers = {dfb("in0", 8), dfb("in1", 8), dfb("partial", 4), dfb("out", 4)},
                           .tensor_parameters = {{"a", TensorSpec(A)}, {"b", TensorSpec(B)}, {"c", TensorSpec(C)}},
                           .work_units = {{"mm", {"reader", "compute", "writer"}, CoreRangeSet(CoreRange({0, 0}))}}};
    Program program = MakeProgramFromSpec(*mesh, spec);
    SetProgramRunArgs(program, ProgramRunArgs{.tensor_args = {{"a", A}, {"b", B}, {"c", C}}});
    EnqueueProgram(device->command_queue(), program, false);
    std::vector<uint32_t> words;
    EnqueueReadBuffer(device->command_queue(), C, words, true);
    std::ofstream(data + "/c.bin", std::ios::binary).write(reinterpret_cast<const char*>(words.data()),
                                                           static_cast<std::streamsize>(words.size() * 4));
    Finish(device->command_queue());
    mesh->close();
    std::printf("done\n");
    return 0;
}
