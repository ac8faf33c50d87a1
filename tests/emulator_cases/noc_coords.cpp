// Prints worker_core_from_logical_core of every logical core of the 8x8 grid ("x y noc_x noc_y" lines) through
// both host APIs (they must agree); with an argument "x y", maps that logical core on the mesh device only.
#include <cstdio>
#include <string>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>

using namespace tt::tt_metal;

int main(int argc, char** argv) {
    auto mesh = distributed::MeshDevice::create_unit_mesh(0);
    if (argc == 3) {
        const CoreCoord noc = mesh->worker_core_from_logical_core({std::stoul(argv[1]), std::stoul(argv[2])});
        std::printf("%zu %zu\n", noc.x, noc.y);
        return 0;
    }
    IDevice* device = mesh->get_device(0);
    for (size_t y = 0; y < 8; ++y) {
        for (size_t x = 0; x < 8; ++x) {
            const CoreCoord a = mesh->worker_core_from_logical_core({x, y});
            const CoreCoord b = device->worker_core_from_logical_core({x, y});
            if (!(a == b)) return 1;
            std::printf("%zu %zu %zu %zu\n", x, y, a.x, a.y);
        }
    }
    return 0;
}
