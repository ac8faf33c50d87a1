// Transpose of the last two dims (WH) with ttnn 0.81.1's legacy transpose kernels, on one core, as tt-metal's
// single-core transpose_wh program factory ran them before its Metal 2.0 port:
// reader_unary_transpose_wh_interleaved.cpp reads the N x Ht x Wt tiles in N-W-H order (CT: the input's accessor
// args; RT: src, N, Ht, Wt, HtWt) into c_0, transpose_wh.cpp transposes each tile into c_16 (RT: N * Ht * Wt), and
// writer_unary_interleaved_start_id.cpp writes them in order (CT: c_16, the output's accessor args; RT: dst,
// pages, first page). CBs of two tiles.
#pragma once

#include "ttnn_host.hpp"

namespace ttnn_case {

inline void transpose_wh(IDevice* device, const Args& a) {
    const uint32_t Ht = a.rows / 32, Wt = a.cols / 32, tiles = Ht * Wt, bytes = tiles * kTileBytes;
    auto A = dram(device, bytes), C = dram(device, bytes);
    upload(device, A, a, "a", a.rows, a.cols);
    Program program = CreateProgram();
    const CoreRangeSet core(CoreRange(CoreCoord{0, 0}));
    cb(program, core, CBIndex::c_0, 2);
    cb(program, core, CBIndex::c_16, 2);
    KernelHandle reader = CreateKernel(
        program, kernel("data_movement/transpose/device/kernels/dataflow/reader_unary_transpose_wh_interleaved.cpp"),
        core, reader_config(accessor_args(A)));
    KernelHandle compute = CreateKernel(
        program, kernel("data_movement/transpose/device/kernels/compute/transpose_wh.cpp"), core, ComputeConfig{});
    KernelHandle writer = CreateKernel(
        program, kernel("eltwise/unary/device/kernels/dataflow/writer_unary_interleaved_start_id.cpp"), core,
        writer_config(accessor_args(C, {CBIndex::c_16})));
    SetRuntimeArgs(program, reader, CoreCoord{0, 0}, {A->address(), 1, Ht, Wt, tiles});
    SetRuntimeArgs(program, compute, CoreCoord{0, 0}, {tiles});
    SetRuntimeArgs(program, writer, CoreCoord{0, 0}, {C->address(), tiles, 0});
    EnqueueProgram(device->command_queue(), program, false);
    download(device, C, a, a.cols, a.rows);
}

}  // namespace ttnn_case
