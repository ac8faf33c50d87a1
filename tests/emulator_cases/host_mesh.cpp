// Test host program, mesh-device API (profile metal_d5f9bc4a); see host_common.hpp for the command line.
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "host_common.hpp"

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const CaseArgs a = parse_args(argc, argv);
    const Shapes s = shapes(a);
    std::shared_ptr<distributed::MeshDevice> mesh = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh->mesh_command_queue();
    distributed::MeshWorkload workload;
    distributed::MeshCoordinateRange device_range(mesh->shape());
    distributed::DeviceLocalBufferConfig dram{.page_size = kTileBytes, .buffer_type = BufferType::DRAM};
    auto create = [&](uint32_t rows, uint32_t cols) {
        return distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = rows * cols * 2u}, dram,
                                               mesh.get());
    };
    auto A = create(s.a_rows, s.a_cols);
    auto B = create(s.b_rows, s.b_cols);
    auto C = create(s.c_rows, s.c_cols);

    Program program = CreateProgram();
    build_program(program, a, A, B, C);

    auto a_host = read_bf16(a.data_dir + "/a.bin", size_t{s.a_rows} * s.a_cols);
    distributed::EnqueueWriteMeshBuffer(cq, A, tilize_nfaces(a_host, s.a_rows, s.a_cols), false);
    if (a.op != "exp") {
        auto b_host = read_bf16(a.data_dir + "/b.bin", size_t{s.b_rows} * s.b_cols);
        distributed::EnqueueWriteMeshBuffer(cq, B, tilize_nfaces(b_host, s.b_rows, s.b_cols), false);
    }
    workload.add_program(device_range, std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<uint16_t> tiles;
    distributed::EnqueueReadMeshBuffer(cq, tiles, C, true);
    distributed::Finish(cq);
    write_bf16(a.data_dir + "/c.bin", untilize_nfaces(tiles, s.c_rows, s.c_cols));
    mesh->close();
    std::printf("done: %s on %u core(s)\n", a.op.c_str(), a.ncores);
    return 0;
}
