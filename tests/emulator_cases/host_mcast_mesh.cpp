// Multicast test host program, mesh-device API (profile metal_d5f9bc4a); see mcast_common.hpp.
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

#include "mcast_common.hpp"

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    const McastArgs a = parse_mcast_args(argc, argv);
    std::shared_ptr<distributed::MeshDevice> mesh = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh->mesh_command_queue();
    distributed::DeviceLocalBufferConfig dram{.page_size = kMcastTileBytes, .buffer_type = BufferType::DRAM};
    const uint32_t bytes = mcast_bytes_in(a);
    const uint32_t ncores = static_cast<uint32_t>(mcast_cores(a).size());
    auto in = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = bytes}, dram, mesh.get());
    auto out = distributed::MeshBuffer::create(distributed::ReplicatedBufferConfig{.size = ncores * bytes}, dram,
                                               mesh.get());

    Program program = CreateProgram();
    build_mcast_program(program, a, *mesh, in, out);
    distributed::EnqueueWriteMeshBuffer(cq, in, read_words(a.data_dir + "/in.bin", bytes), false);
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    std::vector<uint32_t> result;
    distributed::EnqueueReadMeshBuffer(cq, result, out, true);
    distributed::Finish(cq);
    write_words(a.data_dir + "/out.bin", result);
    mesh->close();
    return 0;
}
