// Kernel debug print (api/debug/dprint.h): each kernel builds its line in its own thread state, and a line ends
// at ENDL(). As tt-metal's debug print server does, lines are shown only for the cores TT_METAL_DPRINT_CORES
// names ("x,y" pairs, optionally in parentheses, or "all"), prefixed with the device, the core's logical
// coordinates and the RISC; they go to stdout, a whole line at a time.
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "emu.hpp"
#include "api/debug/dprint.h"

namespace tt_emu {
namespace {

struct DprintCores {
    bool enabled = false;
    bool all = false;
    std::set<std::pair<size_t, size_t>> cores;
};

const DprintCores& dprint_cores() {
    static const DprintCores parsed = [] {
        DprintCores out;
        const char* text = std::getenv("TT_METAL_DPRINT_CORES");
        if (text == nullptr || *text == '\0') return out;
        out.enabled = true;
        const std::string value = text;
        if (value == "all" || value == "worker" || value == "all_worker") {
            out.all = true;
            return out;
        }
        std::vector<size_t> numbers;
        size_t current = 0;
        bool in_number = false;
        for (char c : value + ",") {
            if (c >= '0' && c <= '9') {
                current = current * 10 + size_t(c - '0');
                in_number = true;
            } else if (in_number) {
                numbers.push_back(current);
                current = 0;
                in_number = false;
            }
        }
        for (size_t i = 0; i + 1 < numbers.size(); i += 2) out.cores.insert({numbers[i], numbers[i + 1]});
        return out;
    }();
    return parsed;
}

std::mutex& stdout_lock() {
    static std::mutex mu;
    return mu;
}

KernelThread& caller(const char* call) {
    KernelThread* t = current_thread();
    if (t == nullptr) {
        std::fprintf(stderr, "tt_emu: error: %s called outside a kernel\n", call);
        std::abort();
    }
    return *t;
}

const char* risc_name(const KernelThread& t) {
    static const char* const trisc[] = {"TR0", "TR1", "TR2"};
    if (t.dprint_risc >= 2 && t.dprint_risc <= 4) return trisc[t.dprint_risc - 2];
    switch (t.spec->kind) {
        case KernelKind::Riscv0: return "BR";
        case KernelKind::Riscv1: return "NC";
        case KernelKind::Compute: return "TR";
    }
    return "?";
}

}  // namespace

namespace kapi::detail {

void dprint_text(const char* text) { caller("DPRINT").dprint_line += text ? text : "(null)"; }

void dprint_char(char c) { caller("DPRINT").dprint_line += c; }

void dprint_int(int64_t value) {
    KernelThread& t = caller("DPRINT");
    std::ostringstream os;
    if (t.dprint_width) os.width(t.dprint_width);
    if (t.dprint_base == 16) {
        os << std::hex << static_cast<uint64_t>(value);
    } else if (t.dprint_base == 8) {
        os << std::oct << static_cast<uint64_t>(value);
    } else {
        os << value;
    }
    t.dprint_line += os.str();
}

void dprint_uint(uint64_t value) {
    KernelThread& t = caller("DPRINT");
    std::ostringstream os;
    if (t.dprint_width) os.width(t.dprint_width);
    os << (t.dprint_base == 16 ? std::hex : t.dprint_base == 8 ? std::oct : std::dec) << value;
    t.dprint_line += os.str();
}

void dprint_float(double value) {
    KernelThread& t = caller("DPRINT");
    std::ostringstream os;
    if (t.dprint_width) os.width(t.dprint_width);
    os.precision(t.dprint_precision);
    if (t.dprint_fixed) os << std::fixed;
    os << value;
    t.dprint_line += os.str();
}

void dprint_format(int what, uint32_t value) {
    KernelThread& t = caller("DPRINT");
    switch (what) {
        case 0: t.dprint_base = value; break;
        case 1: t.dprint_width = value; break;
        case 2: t.dprint_precision = value; break;
        default: t.dprint_fixed = value != 0; break;
    }
}

void dprint_end() {
    KernelThread& t = caller("DPRINT");
    std::string line;
    line.swap(t.dprint_line);
    const DprintCores& cores = dprint_cores();
    if (!cores.enabled) return;
    const CoreCoord& c = t.core->coord;
    if (!cores.all && !cores.cores.count({c.x, c.y})) return;
    const std::string text = "0:(x=" + std::to_string(c.x) + ",y=" + std::to_string(c.y) + "):" + risc_name(t) +
                             ": " + line + "\n";
    std::lock_guard<std::mutex> hold(stdout_lock());
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

// DPRINT(format, ...) of the profiles whose api/debug/dprint.h forwards to DEVICE_PRINT: the formatted text, whose
// '\n' ends a line.
void dprint_lines(const std::string& text) {
    KernelThread& t = caller("DPRINT");
    for (char c : text) {
        if (c == '\n') {
            dprint_end();
        } else {
            t.dprint_line += c;
        }
    }
}

[[noreturn]] void dprint_format_error(const char* format, const char* what) {
    std::fprintf(stderr, "tt_emu: error: DPRINT(\"%s\", ...) in kernel %s: %s\n", format, caller("DPRINT").name().c_str(),
                 what);
    std::abort();
}

bool dprint_on(int risc) {
    const KernelThread& t = caller("DPRINT_DATA0/1");
    if (risc >= 2) return t.spec->kind == KernelKind::Compute;  // DPRINT_UNPACK / MATH / PACK: TRISC code only
    return (risc == 0 && t.spec->kind == KernelKind::Riscv0) || (risc == 1 && t.spec->kind == KernelKind::Riscv1);
}

DprintRisc::DprintRisc(int risc) {
    caller("DPRINT_MATH/UNPACK/PACK").dprint_risc = risc;
}

DprintRisc::~DprintRisc() { caller("DPRINT_MATH/UNPACK/PACK").dprint_risc = -1; }

}  // namespace kapi::detail
}  // namespace tt_emu
