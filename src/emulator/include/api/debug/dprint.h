// tt_emu: tt-metal's kernel debug print (api/debug/dprint.h), per API profile (below). The stream form:
// `DPRINT << "x = " << x << ENDL();` in any kernel,
// DPRINT_MATH / DPRINT_UNPACK / DPRINT_PACK(...) in compute kernels, DPRINT_DATA0 / DPRINT_DATA1(...) in
// data-movement kernels. As with tt-metal, nothing is printed unless TT_METAL_DPRINT_CORES names the core
// ("x,y" pairs, "(x,y),(x,y)", or "all"); a line then goes to the program's stdout as
// "<device>:(x=<x>,y=<y>):<RISC>: <text>" (RISC: BR, NC, TR0, TR1, TR2; a plain DPRINT in a compute kernel, which
// the emulator runs once rather than on three TRISCs, is tagged TR). Values: strings, characters, integers,
// floats, F32(x), U32(x), BF16(bits); manipulators ENDL(), HEX(), DEC(), OCT(), SETW(n), SETPRECISION(n), FIXED(),
// DEFAULTFLOAT().
// Tile slices: api/debug/dprint_tile.h (TSLICE).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

namespace tt_emu::kapi::detail {
void dprint_text(const char* text);
void dprint_char(char c);
void dprint_int(int64_t value);
void dprint_uint(uint64_t value);
void dprint_float(double value);
void dprint_format(int what, uint32_t value);  // 0: base (8, 10, 16), 1: width, 2: precision, 3: fixed (0 or 1)
void dprint_end();
void dprint_lines(const std::string& text);                                   // DPRINT(format, ...): '\n' ends a line
[[noreturn]] void dprint_format_error(const char* format, const char* what);  // the kernel's bad format string
bool dprint_on(int risc);  // whether the calling kernel runs on that RISC (0 BR, 1 NC, 2..4 TR0..TR2)
struct DprintRisc {        // tags the lines of its scope with one TRISC of a compute kernel
    explicit DprintRisc(int risc);
    ~DprintRisc();
    DprintRisc(const DprintRisc&) = delete;
    DprintRisc& operator=(const DprintRisc&) = delete;
};
}  // namespace tt_emu::kapi::detail

struct ENDL {};
struct HEX {};
struct DEC {};
struct OCT {};
struct FIXED {};
struct DEFAULTFLOAT {};
struct SETW {
    explicit SETW(uint32_t w) : width(w) {}
    uint32_t width;
};
struct SETPRECISION {
    explicit SETPRECISION(uint32_t p) : precision(p) {}
    uint32_t precision;
};
// Typed values (ttnn 0.65.0 debug/dprint.h; ttnn 0.77.0 and 0.81.1 keep them only as deprecated stubs of the removed
// stream API): a bfloat16's bits, a float, a 32-bit unsigned integer.
struct BF16 {
    BF16(uint16_t v) : val(v) {}  // NOLINT(google-explicit-constructor): tt-metal's is implicit
    uint16_t val;
};
struct F32 {
    F32(float v) : val(v) {}  // NOLINT(google-explicit-constructor)
    float val;
};
struct U32 {
    U32(uint32_t v) : val(v) {}  // NOLINT(google-explicit-constructor)
    uint32_t val;
};

namespace tt_emu::kapi::detail {
struct DebugPrinter {
    const DebugPrinter& operator<<(const char* text) const {
        dprint_text(text);
        return *this;
    }
    const DebugPrinter& operator<<(ENDL) const {
        dprint_end();
        return *this;
    }
    const DebugPrinter& operator<<(HEX) const {
        dprint_format(0, 16);
        return *this;
    }
    const DebugPrinter& operator<<(DEC) const {
        dprint_format(0, 10);
        return *this;
    }
    const DebugPrinter& operator<<(OCT) const {
        dprint_format(0, 8);
        return *this;
    }
    const DebugPrinter& operator<<(SETW w) const {
        dprint_format(1, w.width);
        return *this;
    }
    const DebugPrinter& operator<<(SETPRECISION p) const {
        dprint_format(2, p.precision);
        return *this;
    }
    const DebugPrinter& operator<<(FIXED) const {
        dprint_format(3, 1);
        return *this;
    }
    const DebugPrinter& operator<<(DEFAULTFLOAT) const {
        dprint_format(3, 0);
        return *this;
    }
    const DebugPrinter& operator<<(F32 v) const {
        dprint_float(v.val);
        return *this;
    }
    const DebugPrinter& operator<<(U32 v) const {
        dprint_uint(v.val);
        return *this;
    }
    const DebugPrinter& operator<<(BF16 v) const {  // the float whose upper half the bits are
        const uint32_t bits = uint32_t{v.val} << 16;
        float f;
        __builtin_memcpy(&f, &bits, sizeof f);
        dprint_float(f);
        return *this;
    }
    template <typename T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>, int> = 0>
    const DebugPrinter& operator<<(T value) const {
        if constexpr (std::is_same_v<T, char>) {
            dprint_char(value);
        } else if constexpr (std::is_floating_point_v<T>) {
            dprint_float(value);
        } else if constexpr (std::is_enum_v<T>) {
            dprint_int(static_cast<int64_t>(value));
        } else if constexpr (std::is_signed_v<T>) {
            dprint_int(value);
        } else {
            dprint_uint(value);
        }
        return *this;
    }
};
}  // namespace tt_emu::kapi::detail

// The API profile's print (the backend spec's api_profiles.*.dprint; the JIT defines TT_EMU_DPRINT_FORMAT for
// 'format'). ttnn 0.77.0 and 0.81.1 (api/debug/dprint.h): `DPRINT(format, ...)` forwards to DEVICE_PRINT, an {fmt}
// format string whose '\n' ends a line; the stream form reaches an object named DPRINT whose operator<< fails
// to compile with tt-metal's message; DPRINT_DATA0/1 print when the kernel's NoC is 0/1, DPRINT_UNPACK/MATH/PACK
// on that TRISC. Older profiles (ttnn 0.65.0 debug/dprint.h) have only the stream form.
#if defined(TT_EMU_DPRINT_FORMAT)
#include <fmt/format.h>

namespace tt_emu::kapi::detail {
template <typename... Args>
void dprint_formatted(const char* format, const Args&... args) {
    std::string text;
    try {
        text = ::fmt::format(format, args...);
    } catch (const ::fmt::format_error& e) {
        dprint_format_error(format, e.what());
    }
    dprint_lines(text);
}
}  // namespace tt_emu::kapi::detail

class OldStyleDevicePrint {};
inline OldStyleDevicePrint DPRINT;
template <typename Type>
OldStyleDevicePrint operator<<(OldStyleDevicePrint dp, Type) {
    static_assert(sizeof(Type) == 0, "Old style DPRINT is deprecated. Use DPRINT(format, ...) instead.");
    return dp;
}
// DEVICE_PRINT (api/debug/device_print.h, which 0.77.0's and 0.81.1's dprint.h include): DPRINT and its per-RISC
// forms forward to it, as there.
#define DEVICE_PRINT(format, ...) ::tt_emu::kapi::detail::dprint_formatted(format, ##__VA_ARGS__)
#define TT_EMU_DPRINT_TRISC_(risc, ...)                                      \
    do {                                                                     \
        if (::tt_emu::kapi::detail::dprint_on(risc)) {                       \
            ::tt_emu::kapi::detail::DprintRisc tt_emu_dprint_risc_{risc};   \
            __VA_ARGS__;                                                     \
        }                                                                    \
    } while (0)
#define DEVICE_PRINT_UNPACK(format, ...) TT_EMU_DPRINT_TRISC_(2, DEVICE_PRINT(format, ##__VA_ARGS__))
#define DEVICE_PRINT_MATH(format, ...) TT_EMU_DPRINT_TRISC_(3, DEVICE_PRINT(format, ##__VA_ARGS__))
#define DEVICE_PRINT_PACK(format, ...) TT_EMU_DPRINT_TRISC_(4, DEVICE_PRINT(format, ##__VA_ARGS__))
#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#define DEVICE_PRINT_DATA0(format, ...) \
    if (NOC_INDEX == 0) { DEVICE_PRINT(format, ##__VA_ARGS__); }
#define DEVICE_PRINT_DATA1(format, ...) \
    if (NOC_INDEX == 1) { DEVICE_PRINT(format, ##__VA_ARGS__); }
#else
#define DEVICE_PRINT_DATA0(format, ...)
#define DEVICE_PRINT_DATA1(format, ...)
#endif
#define DPRINT(format, ...) DEVICE_PRINT(format, ##__VA_ARGS__)
#define DPRINT_UNPACK(format, ...) DEVICE_PRINT_UNPACK(format, ##__VA_ARGS__)
#define DPRINT_MATH(format, ...) DEVICE_PRINT_MATH(format, ##__VA_ARGS__)
#define DPRINT_PACK(format, ...) DEVICE_PRINT_PACK(format, ##__VA_ARGS__)
#define DPRINT_DATA0(format, ...) DEVICE_PRINT_DATA0(format, ##__VA_ARGS__)
#define DPRINT_DATA1(format, ...) DEVICE_PRINT_DATA1(format, ##__VA_ARGS__)
#else
#define DPRINT (::tt_emu::kapi::detail::DebugPrinter{})
#define TT_EMU_DPRINT_TRISC_(risc, x)                                        \
    do {                                                                     \
        if (::tt_emu::kapi::detail::dprint_on(risc)) {                       \
            ::tt_emu::kapi::detail::DprintRisc tt_emu_dprint_risc_{risc};   \
            x;                                                               \
        }                                                                    \
    } while (0)
#define DPRINT_UNPACK(x) TT_EMU_DPRINT_TRISC_(2, x)
#define DPRINT_MATH(x) TT_EMU_DPRINT_TRISC_(3, x)
#define DPRINT_PACK(x) TT_EMU_DPRINT_TRISC_(4, x)
#define DPRINT_DATA0(x)                                       \
    do {                                                      \
        if (::tt_emu::kapi::detail::dprint_on(0)) { x; }      \
    } while (0)
#define DPRINT_DATA1(x)                                       \
    do {                                                      \
        if (::tt_emu::kapi::detail::dprint_on(1)) { x; }      \
    } while (0)
#endif
