// Host program of tests/emulator/test_ttnn_kernels.py: runs one family of the ttnn wheel's kernels (see ttnn_host.hpp for
// the command line) and writes its result for the test to compare with numpy.
#include <tt-metalium/distributed.hpp>

#include "eltwise.hpp"
#include "layernorm.hpp"
#include "matmul.hpp"
#include "matmul_mcast1d.hpp"
#include "matmul_mcast_program.hpp"
#include "reduce.hpp"
#include "softmax.hpp"
#include "tilize.hpp"
#include "transpose.hpp"
#include "untilize.hpp"

int main(int argc, char** argv) {
    using namespace ttnn_case;
    const Args a = parse(argc, argv);
    std::shared_ptr<MeshDevice> mesh = MeshDevice::create_unit_mesh(0);
    IDevice* device = mesh->get_device(0);
    if (a.family == "eltwise_binary") {
        eltwise_binary(device, a);
    } else if (a.family == "eltwise_unary") {
        eltwise_unary(device, a);
    } else if (a.family == "transpose") {
        if (a.variant == "metal2") {
            transpose_wh_metal2(*mesh, a);
        } else {
            transpose_wh(device, a);
        }
    } else if (a.family == "tilize") {
        tilize(*mesh, a);
    } else if (a.family == "reduce") {
        if (a.variant.ends_with("_h")) {
            reduce_h(*mesh, a);
        } else {
            reduce_w(*mesh, a);
        }
    } else if (a.family == "matmul") {
        if (a.variant.starts_with("mcast2d")) {
            matmul_mcast2d(device, a);
        } else if (a.variant.starts_with("mcast1d")) {
            matmul_mcast1d(*mesh, a);
        } else {
            matmul_reuse(*mesh, a);
        }
    } else if (a.family == "softmax") {
        softmax(*mesh, a);
    } else if (a.family == "layernorm") {
        layernorm(*mesh, a);
    } else if (a.family == "untilize") {
        untilize(*mesh, a);
    } else {
        std::fprintf(stderr, "unknown family %s\n", a.family.c_str());
        return 64;
    }
    Finish(device->command_queue());
    mesh->close();
    std::printf("done: %s %s %ux%u\n", a.family.c_str(), a.variant.c_str(), a.rows, a.cols);
    return 0;
}
