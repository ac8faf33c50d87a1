// The kernel JIT's helpers (jit_util.hpp).
#include "jit_util.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace tt_emu::jit {

std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

bool read_file(const fs::path& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream os;
    os << in.rdbuf();
    out = os.str();
    return true;
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Two 64-bit FNV-1a lanes: not cryptographic, ample for a build cache key.
std::string digest(const std::string& text) {
    uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
    for (unsigned char c : text) {
        a = (a ^ c) * 0x100000001b3ull;
        b = (b ^ c) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
    char buf[40];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a),
                  static_cast<unsigned long long>(b));
    return buf;
}


fs::path cache_root() {
    if (const char* dir = std::getenv("TT_EMU_CACHE"); dir && *dir) return dir;
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    fs::path base = xdg && *xdg ? fs::path(xdg) : fs::path(env_or("HOME", "/tmp")) / ".cache";
    return base / "tilelang" / "tt_emu";
}

// Runs a shell command, returning its exit status and combined output.
int run_command(const std::string& command, std::string& output) {
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) {
        output = "cannot start: " + command;
        return -1;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, n);
    return pclose(pipe);
}
}  // namespace tt_emu::jit
