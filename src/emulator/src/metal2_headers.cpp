// The Metal 2.0 headers of a kernel (metal2.hpp), as tt-metal's genfiles writes them: DFB tokens sorted by name,
// semaphore tokens (`constexpr ::SemaphoreBindingToken name{id, scope}`) and tensor tokens in binding order, named
// RTAs and CRTAs at their byte offsets in schema order (the implicit tensor addresses
// advance the CRTA offset but are not exposed in `args::`) and named CTAs sorted by name. tt-metal also emits
// get_vararg / get_common_vararg for arguments past the named ones; the emulator's run arguments are all named, so it
// does not.
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "emu.hpp"
#include "metal2.hpp"

namespace tt_emu::metal2 {

namespace {

bool identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(),
        [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool implicit(const std::string& crta) { return crta.rfind(kTensorAddrPrefix, 0) == 0; }

// Bytes of a 32x32 tile of `format` (tt-metal's tile_size), as the descriptors give it.
uint32_t tile_bytes(tt::DataFormat format) {
    using F = tt::DataFormat;
    switch (format) {
        case F::Float32: case F::Int32: case F::UInt32: case F::Tf32: return 4096;
        case F::Float16: case F::Float16_b: case F::UInt16: return 2048;
        case F::Bfp8: case F::Bfp8_b: return 1088;
        case F::Bfp4: case F::Bfp4_b: return 576;
        case F::Bfp2: case F::Bfp2_b: return 320;
        case F::UInt8: case F::Int8: case F::Lf8: return 1024;
        default: return 0;
    }
}

std::string bindings(const Layout& l) {
    std::ostringstream o;
    o << "// AUTO-GENERATED (tt_emu, as tt-metal's genfiles) - do not edit.\n#pragma once\n\n";
    o << "#include \"api/dataflow/dfb_binding_token.h\"\n#include \"api/dataflow/semaphore_binding_token.h\"\n"
         "#include \"api/tensor/tensor_binding_token.h\"\n\n";
    std::vector<std::pair<std::string, uint16_t>> dfbs = l.dfbs;
    std::sort(dfbs.begin(), dfbs.end());
    o << "namespace dfb {\n";
    for (const auto& [name, id] : dfbs) o << "constexpr DFBBindingToken<> " << name << "{" << id << "};\n";
    // Gen1 (Wormhole) data-movement bindings always resolve to LOCAL_NONATOMIC (tt-metal's semaphore_binding_token.h).
    o << "}  // namespace dfb\nnamespace sem {\n";
    for (const auto& [name, id] : l.sems) {
        o << "constexpr ::SemaphoreBindingToken " << name << "{" << id << "u, ::SemScope::LOCAL_NONATOMIC};\n";
    }
    o << "}  // namespace sem\nnamespace tensor {\n";
    for (const TensorSlot& t : l.tensors) {
        o << "using " << t.name << "_t = ::tensor_accessor::TensorBindingToken<" << t.cta_offset << "u, "
          << t.addr_crta_offset << "u>;\nconstexpr " << t.name << "_t " << t.name << "{};\n";
    }
    o << "}  // namespace tensor\n";
    return o.str();
}

std::string args(const Layout& l) {
    std::ostringstream o;
    o << "// AUTO-GENERATED (tt_emu, as tt-metal's genfiles) - do not edit.\n#pragma once\n\n";
    o << "#include \"experimental/kernel_args.h\"\n\nnamespace args {\n";
    for (size_t i = 0; i < l.rtas.size(); ++i) {
        o << "constexpr experimental::RtaArg<uint32_t> " << l.rtas[i] << "{" << i * 4 << "};\n";
    }
    for (size_t i = 0; i < l.crtas.size(); ++i) {
        if (implicit(l.crtas[i])) continue;
        o << "constexpr experimental::CrtaArg<uint32_t> " << l.crtas[i] << "{" << i * 4 << "};\n";
    }
    std::vector<std::pair<std::string, uint32_t>> ctas = l.ctas;
    std::sort(ctas.begin(), ctas.end());
    for (const auto& [name, value] : ctas) {
        o << "constexpr experimental::CtaVal<uint32_t> " << name << "{" << value << "u};\n";
    }
    o << "}  // namespace args\n";
    return o.str();
}

std::string descriptors(const Layout& l) {
    std::ostringstream o;
    o << "// AUTO-GENERATED (tt_emu, as tt-metal's chlkc_descriptors.h) - do not edit.\n#pragma once\n\n"
         "#include <cstdint>\n\n#define DFB_DESCRIPTORS_DEFINED\n";
    auto array = [&](const char* name, auto value_of) {
        o << "constexpr std::uint32_t " << name << "[32] = {";
        for (size_t i = 0; i < 32; ++i) {
            o << (i ? ", " : "") << (i < l.formats.size() ? value_of(l.formats[i]) : value_of(tt::DataFormat::Invalid));
        }
        o << "};\n";
    };
    auto format = [](tt::DataFormat f) { return static_cast<uint32_t>(f); };
    auto dim = [](tt::DataFormat f) { return f == tt::DataFormat::Invalid ? 0u : 32u; };
    for (const char* name : {"unpack_src_format", "unpack_dst_format", "pack_src_format",
        "pack_dst_format"}) array(name, format);
    for (const char* name : {"unpack_tile_r_dim", "unpack_tile_c_dim", "pack_tile_r_dim",
        "pack_tile_c_dim"}) array(name, dim);
    for (const char* name : {"unpack_tile_size", "pack_tile_size"}) array(name, tile_bytes);
    // tt-metal's dataflow_api.h reads these descriptors in constexpr get_dataformat / get_tile_size (kernel_lib's
    // prepare_reduce_scaler takes a DFB's format as a template argument); they replace the run-time calls the
    // rendered dataflow_api.h declares for kernels without descriptors (its declaration guards).
    if (!l.compute) {
        o << "\n#include \"tt_emu/kernel_api.hpp\"\n#define TT_EMU_DECLARED_get_dataformat_1\n"
             "#define TT_EMU_DECLARED_get_tile_size_1\nconstexpr inline DataFormat get_dataformat(const std::int32_t "
             "operand) { return DataFormat(unpack_src_format[operand]); }\nconstexpr inline std::int32_t "
             "get_tile_size(const std::int32_t operand) { return static_cast<std::int32_t>(unpack_tile_size[operand]); "
             "}\n";
    }
    // chlkc_dst_accum_mode.h, the DST sync mode of the JIT's defines, and what api/compute/common.h brings in.
    if (l.compute) {
        o << "\nenum DstSync { SyncHalf = 0, SyncFull = 1 };\nconstexpr bool DST_ACCUM_MODE = "
          << (l.fp32_dest_acc ? "true" : "false") << ";\n#define DST_SYNC_MODE DstSync::"
          << (l.dst_full_sync ? "SyncFull" : "SyncHalf") << "\n#define ENABLE_FP32_DEST_ACC " << int(l.fp32_dest_acc)
          << "\n#include \"llk_defs.h\"\nconstexpr ckernel::MathFidelity MATH_FIDELITY = "
             "static_cast<ckernel::MathFidelity>(" << l.math_fidelity << ");"
          << "\n#include \"api/compute/common_globals.h\"\n#include \"api/debug/assert.h\"\n"
             "#include \"internal/circular_buffer_interface.h\"\n";
    }
    return o.str();
}

}  // namespace

std::string check_names(const Layout& l) {
    std::set<std::string> dfb_names, sem_names, tensor_names, arg_names;
    for (const auto& [name, id] : l.dfbs) {
        if (!identifier(name)) return "DFB accessor name '" + name + "' is not a C++ identifier";
        if (!dfb_names.insert(name).second) return "DFB accessor name '" + name + "' is bound twice";
    }
    for (const auto& [name, id] : l.sems) {
        if (!identifier(name)) return "semaphore accessor name '" + name + "' is not a C++ identifier";
        if (!sem_names.insert(name).second) return "semaphore accessor name '" + name + "' is bound twice";
    }
    for (const TensorSlot& t : l.tensors) {
        if (!identifier(t.name)) return "tensor accessor name '" + t.name + "' is not a C++ identifier";
        if (!tensor_names.insert(t.name).second) return "tensor accessor name '" + t.name + "' is bound twice";
    }
    std::vector<std::string> all = l.rtas;
    for (const std::string& c : l.crtas) {
        if (!implicit(c)) all.push_back(c);
    }
    for (const auto& [name, value] : l.ctas) all.push_back(name);
    for (const std::string& name : all) {
        if (!identifier(name)) return "argument name '" + name + "' is not a C++ identifier";
        if (!arg_names.insert(name).second) return "argument '" + name
            + "' is named twice (runtime, common and compile-time arguments share `args::`)";
    }
    return "";
}

std::vector<GeneratedHeader> headers(const Layout& l) {
    return {{"chlkc_descriptors.h", descriptors(l), true},
            {"kernel_bindings_generated.h", bindings(l), false},
            {"kernel_args_generated.h", args(l), false}};
}

GeneratedHeader dm_descriptors(const std::vector<tt::DataFormat>& formats) {
    Layout l;
    l.formats = formats;
    return {"chlkc_descriptors.h", descriptors(l), true};
}

}  // namespace tt_emu::metal2
