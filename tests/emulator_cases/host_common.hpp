// Shared by the test host programs: command line, bf16 files, the work split and fault injection.
//
// Usage: HOST <op> <Mt> <Kt> <Nt> <ncores> <fp32_dest_acc> <kernel_dir> <data_dir> [<role> <FAULT> <core>]
//   op: matmul (A: Mt x Kt tiles, B: Kt x Nt, C: Mt x Nt), add (C = A + B), exp (C = exp(A)); eltwise ops
//   use Mt x Nt tiles; l1_overflow asks for one CB page more than L1 holds. Reads data_dir/a.bin, b.bin (row-major bf16), writes data_dir/c.bin. The optional
//   fault defines FAULT_<FAULT>=<core> when compiling the <role> kernel (reader/compute/writer), which seeds
//   that bug on that core index only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>

struct CaseArgs {
    std::string op;
    uint32_t Mt = 1, Kt = 1, Nt = 1, ncores = 1;
    bool fp32 = false;
    std::string kernel_dir, data_dir, fault_role, fault, fault_core;
};

inline CaseArgs parse_args(int argc, char** argv) {
    if (argc != 9 && argc != 12) {
        std::fprintf(stderr, "usage: %s op Mt Kt Nt ncores fp32 kernel_dir data_dir [role FAULT core]\n", argv[0]);
        std::exit(64);
    }
    CaseArgs a;
    a.op = argv[1];
    a.Mt = std::stoul(argv[2]);
    a.Kt = std::stoul(argv[3]);
    a.Nt = std::stoul(argv[4]);
    a.ncores = std::stoul(argv[5]);
    a.fp32 = std::string(argv[6]) == "1";
    a.kernel_dir = argv[7];
    a.data_dir = argv[8];
    if (argc == 12) {
        a.fault_role = argv[9];
        a.fault = argv[10];
        a.fault_core = argv[11];
    }
    return a;
}

inline std::map<std::string, std::string> fault_defines(const CaseArgs& a, const std::string& role) {
    if (a.fault_role != role) return {};
    return {{"FAULT_" + a.fault, a.fault_core}};
}

inline std::vector<uint16_t> read_bf16(const std::string& path, size_t count) {
    std::vector<uint16_t> v(count);
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(count * 2));
    if (in.gcount() != static_cast<std::streamsize>(count * 2)) {
        std::fprintf(stderr, "cannot read %zu bf16 values from %s\n", count, path.c_str());
        std::exit(65);
    }
    return v;
}

inline void write_bf16(const std::string& path, const std::vector<uint16_t>& v) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 2));
}

// Core i of the run sits at (i % 8, i / 8) of the 8x8 grid.
inline tt::tt_metal::CoreCoord core_of(uint32_t i) { return {i % 8, i / 8}; }

// Contiguous split of `total` output tiles: core i gets [start, start + count).
inline void split(uint32_t total, uint32_t ncores, uint32_t i, uint32_t& start, uint32_t& count) {
    const uint32_t base = total / ncores, extra = total % ncores;
    count = base + (i < extra ? 1 : 0);
    start = i * base + (i < extra ? i : extra);
}

constexpr uint32_t kTileBytes = 2048;  // one bf16 32x32 tile per page

// The program of every case: CBs c_0, c_1 (inputs) and c_16 (output) of 2 bf16 tiles on each core, and
// reader / compute / writer kernels `<kernel_dir>/<role>_<op>.cpp` with the work split over the cores.
template <typename BufferPtr>
void build_program(tt::tt_metal::Program& program, const CaseArgs& a, const BufferPtr& A, const BufferPtr& B,
                   const BufferPtr& C) {
    using namespace tt;
    using namespace tt::tt_metal;
    std::vector<CoreRange> ranges;
    for (uint32_t i = 0; i < a.ncores; ++i) ranges.emplace_back(core_of(i));
    CoreRangeSet cores(ranges);
    for (uint8_t cb : {CBIndex::c_0, CBIndex::c_1, CBIndex::c_16}) {
        CreateCircularBuffer(program, cores,
                             CircularBufferConfig(2 * kTileBytes, {{cb, tt::DataFormat::Float16_b}})
                                 .set_page_size(cb, kTileBytes));
    }
    if (a.op == "l1_overflow") {  // 12 KiB used above + 727 tiles: one tile more than the 1464 KiB of L1
        CreateCircularBuffer(program, cores,
                             CircularBufferConfig(727 * kTileBytes, {{CBIndex::c_24, tt::DataFormat::Float16_b}})
                                 .set_page_size(CBIndex::c_24, kTileBytes));
    }
    const bool binary = a.op != "exp";
    std::vector<uint32_t> reader_ct, writer_ct;
    TensorAccessorArgs(*A).append_to(reader_ct);
    if (binary) TensorAccessorArgs(*B).append_to(reader_ct);
    TensorAccessorArgs(*C).append_to(writer_ct);
    const std::string reader_name = a.op == "matmul" ? "reader_matmul" : binary ? "reader_binary" : "reader_unary";
    KernelHandle reader = CreateKernel(
        program, a.kernel_dir + "/" + reader_name + ".cpp", cores,
        DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default,
                           .compile_args = reader_ct, .defines = fault_defines(a, "reader")});
    KernelHandle compute = CreateKernel(
        program, a.kernel_dir + "/compute_" + a.op + ".cpp", cores,
        ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .fp32_dest_acc_en = a.fp32, .math_approx_mode = false,
                      .compile_args = {}, .defines = fault_defines(a, "compute")});
    KernelHandle writer = CreateKernel(
        program, a.kernel_dir + "/writer_tiles.cpp", cores,
        DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default,
                           .compile_args = writer_ct, .defines = fault_defines(a, "writer")});
    for (uint32_t i = 0; i < a.ncores; ++i) {
        uint32_t start, count;
        split(a.Mt * a.Nt, a.ncores, i, start, count);
        const CoreCoord core = core_of(i);
        if (a.op == "matmul") {
            SetRuntimeArgs(program, reader, core, {A->address(), B->address(), a.Mt, a.Kt, a.Nt, start, count, i});
            SetRuntimeArgs(program, compute, core, {count, a.Kt, i});
        } else if (binary) {
            SetRuntimeArgs(program, reader, core, {A->address(), B->address(), start, count, i});
            SetRuntimeArgs(program, compute, core, {count, i});
        } else {
            SetRuntimeArgs(program, reader, core, {A->address(), start, count, i});
            SetRuntimeArgs(program, compute, core, {count, i});
        }
        SetRuntimeArgs(program, writer, core, {C->address(), start, count, i});
    }
}

// Rows x cols (in elements) of the three matrices.
struct Shapes {
    uint32_t a_rows, a_cols, b_rows, b_cols, c_rows, c_cols;
};
inline Shapes shapes(const CaseArgs& a) {
    if (a.op == "matmul") return {a.Mt * 32, a.Kt * 32, a.Kt * 32, a.Nt * 32, a.Mt * 32, a.Nt * 32};
    return {a.Mt * 32, a.Nt * 32, a.Mt * 32, a.Nt * 32, a.Mt * 32, a.Nt * 32};
}
