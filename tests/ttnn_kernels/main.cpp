// Host program of tests/test_ttnn_kernels.py: runs one family of the ttnn wheel's kernels (see ttnn_host.hpp for
// the command line) and writes its result for the test to compare with numpy.
#include "eltwise.hpp"
#include "transpose.hpp"

int main(int argc, char** argv) {
    using namespace ttnn_case;
    const Args a = parse(argc, argv);
    IDevice* device = CreateDevice(0);
    if (a.family == "eltwise_binary") {
        eltwise_binary(device, a);
    } else if (a.family == "eltwise_unary") {
        eltwise_unary(device, a);
    } else if (a.family == "transpose") {
        transpose_wh(device, a);
    } else {
        std::fprintf(stderr, "unknown family %s\n", a.family.c_str());
        return 64;
    }
    Finish(device->command_queue());
    CloseDevice(device);
    std::printf("done: %s %s %ux%u\n", a.family.c_str(), a.variant.c_str(), a.rows, a.cols);
    return 0;
}
