// Kernel PCHs (jit_util.hpp): the API headers every kernel of a kind includes, precompiled once per command and
// cache (`kernel_pch/<key>/`, keyed like an object), so that a kernel's compile parses only its own text.
// A compute kernel's: its profile's prelude headers (jit.cpp, compute_flags); a data-movement kernel's, or a kernel's
// with CB descriptors (which come before the preludes): {fmt}'s standard headers (a {fmt}-DPRINT profile's
// api/debug/dprint.h) and tt_emu/kernel_api.hpp. They are built with every define of the kernel's command but its
// compile-time arguments and its own defines, and none of their headers reads those: KERNEL_COMPILE_TIME_ARGS is read
// by tt_emu/compile_time_args.hpp alone, which the JIT includes after the PCH (TT_EMU_KERNEL_PCH). GCC checks the rest:
// a PCH whose headers read a macro the kernel's command defines otherwise is not used, and the kernel compiles from
// the headers' text (beside the .gch), with the same result; a PCH that fails to build is not used (`failed` beside it
// says why). Measured per kernel compile: docs/building.md, "CI time".
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>

#include "jit_util.hpp"

namespace fs = std::filesystem;

namespace tt_emu::jit {

std::string kernel_pch_flags(const std::string& cxx, const std::string& flags, const std::string& headers,
                             const std::string& text) {
    const fs::path dir = cache_root() / "kernel_pch" / digest(cxx + ' ' + flags + '\0' + text + '\0' + headers);
    const fs::path header = dir / "tt_emu_kernel_pch.hpp", gch = dir / "tt_emu_kernel_pch.hpp.gch";
    std::error_code ec;
    fs::create_directories(dir, ec);
    // One builder (process or thread: each opens the lock) while the others wait for its PCH; closing unlocks.
    const int lock = ::open((dir / ".build.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (lock >= 0) ::flock(lock, LOCK_EX);
    struct Unlock {
        int fd;
        ~Unlock() { if (fd >= 0) ::close(fd); }
    } unlock{lock};
    if (fs::exists(dir / "failed", ec)) return "";  // this compiler cannot build it: not tried again per kernel
    if (!fs::exists(gch, ec)) {
        const std::string tmp = gch.string() + ".tmp." + std::to_string(getpid());
        std::ofstream(tmp + ".hpp", std::ios::binary) << text;
        fs::rename(tmp + ".hpp", header, ec);
        std::string output;
        if (run_command(cxx + " " + flags + " -x c++-header " + shell_quote(header.string()) + " -o " +
                            shell_quote(tmp), output) != 0) {
            fs::remove(tmp, ec);
            std::ofstream(dir / "failed", std::ios::binary) << output;
            return "";
        }
        fs::rename(tmp, gch, ec);
    }
    return " -include " + shell_quote(header.string());
}

}  // namespace tt_emu::jit
