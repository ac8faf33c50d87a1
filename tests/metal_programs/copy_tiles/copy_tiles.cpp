// Copies bf16 tiles DRAM -> CB -> DRAM through a reader and a writer on one core, with the mesh API, tt_stl's
// TT_FATAL, fmt and tt-logger as tt-metal's examples use them; checks the copy and prints "Test Passed".
#include <fmt/format.h>

#include <random>
#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt::tt_metal;

int main() {
    constexpr uint32_t num_tiles = 8;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * tt::constants::TILE_HW;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig size{.size = tile_bytes * num_tiles};
    auto src = distributed::MeshBuffer::create(size, dram, mesh.get());
    auto dst = distributed::MeshBuffer::create(size, dram, mesh.get());

    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};
    CreateCircularBuffer(program, core,
                         CircularBufferConfig(2 * tile_bytes, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(tt::CBIndex::c_0, tile_bytes));
    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src->get_backing_buffer()).append_to(reader_args);
    TensorAccessorArgs(*dst->get_backing_buffer()).append_to(writer_args);
    KernelHandle reader = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "copy_tiles/kernels/reader.cpp", core,
                                       DataMovementConfig{.processor = DataMovementProcessor::RISCV_1,
                                                          .noc = NOC::RISCV_1_default, .compile_args = reader_args});
    KernelHandle writer = CreateKernel(program, OVERRIDE_KERNEL_PREFIX "copy_tiles/kernels/writer.cpp", core,
                                       DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                          .noc = NOC::RISCV_0_default, .compile_args = writer_args});
    SetRuntimeArgs(program, reader, core, {src->address(), num_tiles});
    SetRuntimeArgs(program, writer, core, {dst->address(), num_tiles});

    std::vector<bfloat16> input(tt::constants::TILE_HW * num_tiles);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    for (auto& v : input) v = bfloat16(dist(rng));
    distributed::EnqueueWriteMeshBuffer(cq, src, input, false);
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);
    std::vector<bfloat16> output;
    distributed::EnqueueReadMeshBuffer(cq, output, dst, true);
    TT_FATAL(output.size() == input.size(), "read {} values, wrote {}", output.size(), input.size());
    for (size_t i = 0; i < input.size(); ++i) {
        TT_FATAL(output[i] == input[i], "value {} is {} after the copy, {} before", i, output[i].to_float(),
                 static_cast<float>(input[i]));
    }
    log_info(tt::LogTest, "copied {} tiles", num_tiles);
    mesh->close();
    fmt::print("Test Passed\n");
    return 0;
}
