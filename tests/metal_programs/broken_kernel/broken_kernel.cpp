// A program whose kernel does not compile: the tool reports the run as failed, with the compiler's error.
#include <tt-metalium/host_api.hpp>

#ifndef OVERRIDE_KERNEL_PREFIX
#define OVERRIDE_KERNEL_PREFIX ""
#endif

using namespace tt::tt_metal;

int main() {
    IDevice* device = CreateDevice(0);
    Program program = CreateProgram();
    CreateKernel(program, OVERRIDE_KERNEL_PREFIX "broken_kernel/kernels/broken.cpp", CoreCoord{0, 0},
                 DataMovementConfig{.processor = DataMovementProcessor::RISCV_0});
    EnqueueProgram(device->command_queue(), program, true);
    CloseDevice(device);
    fmt::print("Test Passed\n");
    return 0;
}
