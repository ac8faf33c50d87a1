// DRAM -> an L1 buffer used as scratch -> DRAM, as tt-metal's loopback example does: one data-movement kernel on
// one core, InterleavedAddrGenFast with designated initialisers, the L1 buffer's address as a runtime argument.
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt::tt_metal;

int main() {
    constexpr uint32_t num_tiles = 5;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * tt::constants::TILE_HW;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    auto& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::DeviceLocalBufferConfig l1{.page_size = tile_bytes, .buffer_type = BufferType::L1};
    auto scratch = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile_bytes}, l1, mesh.get());
    auto src = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile_bytes * num_tiles}, dram, mesh.get());
    auto dst = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = tile_bytes * num_tiles}, dram, mesh.get());
    TT_FATAL(scratch->get_backing_buffer()->buffer_type() == BufferType::L1, "an L1 buffer");

    Program program = CreateProgram();
    KernelHandle copy = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "l1_scratch/kernels/copy.cpp", CoreCoord{0, 0},
                                     DataMovementConfig{.processor = DataMovementProcessor::RISCV_0});
    SetRuntimeArgs(program, copy, CoreCoord{0, 0}, {scratch->address(), src->address(), dst->address(), num_tiles});
    std::vector<bfloat16> input(tt::constants::TILE_HW * num_tiles);
    for (size_t i = 0; i < input.size(); ++i) input[i] = bfloat16(float(i % 251) - 100.0f);
    distributed::EnqueueWriteMeshBuffer(cq, src, input, false);
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, true);
    std::vector<bfloat16> output;
    distributed::EnqueueReadMeshBuffer(cq, output, dst, true);
    bool pass = output == input;
    fmt::print("{}\n", pass ? "Test Passed" : "Test Failed");
    return pass ? 0 : 1;
}
