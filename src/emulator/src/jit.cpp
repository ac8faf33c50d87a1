// Kernel JIT, like tt-metal's: each kernel source is compiled with its compile-time arguments and defines
// into a shared object, cached by a hash of (source, command, emulator headers), and loaded with dlopen.
// The cache is shared between processes, so objects are written to a temporary name and renamed.
#include <atomic>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "emu.hpp"
#include "file_lock.hpp"
#include "tt_emu/preludes.hpp"

namespace fs = std::filesystem;

namespace tt_emu {

namespace {

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

// Every header under the include roots (emulator API and the generated per-profile headers), once per process.
const std::string& headers_digest(const std::vector<fs::path>& roots) {
    static std::once_flag once;
    static std::string result;
    std::call_once(once, [&] {
        std::string all;
        for (const fs::path& root : roots) {
            std::vector<fs::path> files;
            std::error_code ec;
            for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it); it.increment(ec)) {
                if (it->is_regular_file()) files.push_back(it->path());
            }
            std::sort(files.begin(), files.end());
            for (auto& f : files) {
                std::string text;
                read_file(f, text);
                all += f.lexically_relative(root).string() + '\0' + text + '\0';
            }
        }
        result = digest(all);
    });
    return result;
}

std::vector<fs::path> split_roots(const std::string& text, const fs::path& base) {
    std::vector<fs::path> roots;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ':');) {
        if (!item.empty()) roots.push_back((base / item).lexically_normal());
    }
    return roots;
}

// $TT_EMU_INCLUDE: the include roots, ':'-separated (a checkout keeps hand-written and generated headers apart).
// Unset (a program built with CMake against the emulator's package and run directly): the roots next to this
// library, where the build put them (TT_EMU_INCLUDE_FROM_LIB: an installed package's emulator/include, else the
// checkout's two trees, relative to the library's folder; CMakeLists.txt defines both).
std::vector<fs::path> include_roots() {
    if (const std::string text = env_or("TT_EMU_INCLUDE", ""); !text.empty()) return split_roots(text, {});
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&include_roots), &info) == 0 || info.dli_fname == nullptr) return {};
    const fs::path lib_dir = fs::absolute(info.dli_fname).parent_path();
    for (const char* candidate : {TT_EMU_INCLUDE_FROM_LIB_INSTALLED, TT_EMU_INCLUDE_FROM_LIB_BUILD}) {
        std::vector<fs::path> roots = split_roots(candidate, lib_dir);
        std::error_code ec;
        if (!roots.empty() && fs::is_directory(roots.front() / "tt-metalium", ec)) return roots;
    }
    return {};
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

// What tt-metal's JIT puts around a kernel: its firmware wrapper (brisck.cc / ncrisck.cc) includes the dataflow API
// before a reader or writer, so that it may call the API without an #include, and the build defines the processor
// (COMPILE_FOR_BRISC / COMPILE_FOR_NCRISC), the kernel's NoC and NoC mode (kernel.cpp's process_defines). Every
// compute API header includes api/compute/common.h, which declares get_arg_val and includes reg_api.h, pack.h,
// reconfig_data_format.h, cb_api.h and compute_kernel_hw_startup.h, so a compute kernel that includes only
// eltwise_binary.h calls cb_wait_front and pack_tile; the emulator's rendered headers declare only their own calls,
// so a compute kernel gets those headers included before it. Which headers, per profile, is rendered from the
// intrinsic specs (tt_emu/preludes.hpp).
// Under $TT_METAL_HOME (a tt-metal source tree, or the ttnn wheel's package folder), kernels include their own
// helpers by paths from the tree's root, from ttnn/ and from ttnn/cpp/ (`ttnn/cpp/ttnn/kernel_lib/...`,
// `ttnn/operations/...`), as tt-metal's JIT lets them. These roots come after the emulator's: a kernel API header
// the emulator lacks is a compile error naming it, never tt-metal's hardware header of the same name.
std::string source_tree_flags() {
    const std::string home = env_or("TT_METAL_HOME", "");
    if (home.empty()) return "";
    std::string flags;
    for (const char* sub : {"", "ttnn", "ttnn/cpp"}) {
        std::error_code ec;
        const fs::path dir = fs::path(home) / sub;
        if (fs::is_directory(dir, ec)) flags += " -I" + shell_quote(dir.lexically_normal().string());
    }
    return flags;
}

const Prelude* prelude_of(const std::string& profile) {
    for (const Prelude& p : kPreludes) {
        if (profile == p.profile) return &p;
    }
    return nullptr;
}

std::string data_movement_flags(const std::string& profile, KernelKind kind, int noc) {
    std::string flags = kind == KernelKind::Riscv0 ? " -DCOMPILE_FOR_BRISC" : " -DCOMPILE_FOR_NCRISC";
    flags += " -DNOC_INDEX=" + std::to_string(noc) + " -DNOC_MODE=0";
    // dataflow_api.h brings DPRINT in every profile's tt-metal (its sanitizer header includes the device print header:
    // ttnn 0.81.1 and 0.77.0 internal/debug/sanitize.h, 0.65.0 debug/sanitize.h): a data-movement kernel may print
    // without including it, as add_2_integers_in_riscv does. The emulator's one print header serves every profile
    // (TT_EMU_DPRINT_FORMAT selects the profile's form).
    flags += " -include api/debug/dprint.h";
    const Prelude* p = prelude_of(profile);
    return p && *p->dataflow ? flags + " -include " + p->dataflow : flags;
}

std::string compute_flags(const std::string& profile) {
    std::string flags;
    if (const Prelude* p = prelude_of(profile)) {
        for (const char* header : p->compute) {
            if (header != nullptr) flags += std::string(" -include ") + header;
        }
    }
    return flags;
}

// Each kernel object has its size and digest beside it (`<object>.digest`), written before the object is renamed
// into place, so a truncated or overwritten object is found before it is loaded.
std::string object_digest(const std::string& bytes) { return std::to_string(bytes.size()) + " " + digest(bytes); }

// True when the cached object exists and matches its recorded digest (then marked used: the bounded cache,
// tilelang.tenstorrent.cache, keeps what was used recently); else `problem` says why ('' when there is none).
bool cached_object(const fs::path& so, std::string& problem) {
    std::error_code ec;
    if (!fs::exists(so, ec)) return false;
    std::string bytes, recorded;
    if (!read_file(so, bytes) || !read_file(so.string() + ".digest", recorded)) {
        problem = "has no readable digest";
        return false;
    }
    if (object_digest(bytes) != recorded) {
        problem = "does not match its recorded digest (" + std::to_string(bytes.size()) + " bytes)";
        return false;
    }
    fs::last_write_time(so, fs::file_time_type::clock::now(), ec);
    return true;
}

// Compile to a name unique per process and thread, record the digest, rename into place (concurrent builders of
// one key write the same bytes).
bool build_object(const fs::path& so, const std::string& command_prefix, std::string& log) {
    std::error_code ec;
    fs::create_directories(so.parent_path(), ec);
    const std::string tmp = so.string() + ".tmp." + std::to_string(getpid()) + "." +
                            std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    const std::string command = command_prefix + shell_quote(tmp);
    std::string output;
    if (run_command(command, output) != 0) {
        log = "$ " + command + "\n" + output;
        fs::remove(tmp, ec);
        return false;
    }
    std::string bytes;
    if (!read_file(tmp, bytes)) {
        log = "cannot read the object just built: " + tmp;
        return false;
    }
    {
        std::ofstream out(tmp + ".digest", std::ios::binary);
        out << object_digest(bytes);
    }
    fs::rename(tmp + ".digest", so.string() + ".digest", ec);
    if (!ec) fs::rename(tmp, so, ec);
    if (ec) {
        log = "cannot store " + so.string() + ": " + ec.message();
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

// Writes a kernel's generated headers into a folder named by their digest (so a cached object's key, which holds
// the folder in its flags, covers their text) and returns the flags that include them, in order.
std::string generated_header_flags(const std::vector<GeneratedHeader>& headers, bool before_prelude,
                                   std::string& log) {
    if (headers.empty()) return "";
    std::string all;
    for (const GeneratedHeader& h : headers) all += h.name + '\0' + h.text + '\0';
    const fs::path dir = cache_root() / "generated" / digest(all);
    std::string flags;
    std::error_code ec;
    fs::create_directories(dir, ec);
    for (const GeneratedHeader& h : headers) {
        const fs::path file = dir / h.name;
        std::string existing;
        if (!read_file(file, existing) || existing != h.text) {
            // A name of its own per writer: the reader and writer kernels of one program share their headers and
            // are compiled on threads of one process, so the process id alone is not unique.
            static std::atomic<unsigned> writers{0};
            const std::string tmp = file.string() + ".tmp." + std::to_string(getpid()) + "." + std::to_string(++writers);
            std::ofstream(tmp, std::ios::binary) << h.text;
            fs::rename(tmp, file, ec);
            if (ec) log = "cannot write the generated header " + file.string() + ": " + ec.message();
        }
        if (h.before_prelude == before_prelude) flags += " -include " + shell_quote(file.string());
    }
    return flags;
}

// A data-movement kernel of a profile whose DPRINT is {fmt}'s form includes fmt/format.h (api/debug/dprint.h), whose
// standard headers (<sstream>, <iomanip>, <string>) are 0.8 of the 1.0 CPU-s such a kernel costs to compile. They
// are precompiled once per command (`kernel_pch/<key>/`, keyed like an object) and included first; fmt/format.h
// reads no macro, so the kernels' own defines do not matter. GCC falls back to the header's text (beside the .gch)
// where the PCH does not fit the command; a PCH that fails to build is not used (`failed` beside it says why).
std::string kernel_pch_flags(const std::string& cxx, const std::string& flags, const std::vector<fs::path>& roots) {
    const fs::path dir = cache_root() / "kernel_pch" / digest(cxx + ' ' + flags + '\0' + headers_digest(roots));
    const fs::path header = dir / "tt_emu_kernel_pch.hpp", gch = dir / "tt_emu_kernel_pch.hpp.gch";
    std::error_code ec;
    fs::create_directories(dir, ec);
    // One builder (process or thread: each opens the lock) while the others wait for its PCH; closing unlocks.
    const FileLock lock((dir / ".build.lock").string());
    if (fs::exists(dir / "failed", ec)) return "";  // this compiler cannot build it: not tried again per kernel
    if (!fs::exists(gch, ec)) {
        const std::string tmp = gch.string() + ".tmp." + std::to_string(getpid());
        std::ofstream(tmp + ".hpp", std::ios::binary) << "#include <fmt/format.h>\n";
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

std::shared_ptr<KernelBinary> compile(const std::string& path, const std::vector<uint32_t>& compile_args,
                                      const std::map<std::string, std::string>& defines, KernelKind kind, int noc,
                                      const std::vector<GeneratedHeader>& generated) {
    auto bin = std::make_shared<KernelBinary>();
    bin->path = path;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<fs::path> roots = include_roots();
    if (roots.empty()) {
        bin->log = "TT_EMU_INCLUDE is not set and no include root lies next to the emulator library (set it to the "
                   "emulator's include roots, ':'-separated: python -m tilelang.tenstorrent.emulator --include)";
        return bin;
    }
    std::string source;
    if (!read_file(path, source)) {
        bin->log = "cannot read the kernel source " + path;
        return bin;
    }
    const std::string profile = env_or("TT_EMU_PROFILE", default_profile());
    const std::string cxx = env_or("CXX", "g++");
    std::string args;
    for (size_t i = 0; i < compile_args.size(); ++i) args += (i ? "," : "") + std::to_string(compile_args[i]);
    // A kernel with generated headers (from a ProgramSpec, or a data-movement kernel with its CB descriptors) is
    // C++20: ttnn 0.81.1's kernel_lib and pad_tile.hpp take DataFormat template arguments, which
    // tt-metal's compiler accepts in C++17 with its -ftt-nttp (the emulator's DataFormat is a literal class).
    // tt-metal's warning flags for kernels (jit_build/build.cpp): -Werror, but an unused variable or function, an
    // unused-but-set variable, a deprecated call, parentheses and multi-statement macros are no error.
    std::string flags = std::string(generated.empty() ? "-std=c++17" : "-std=c++20") +
                        " -O2 -fPIC -shared -Wall -Werror -Wno-unknown-pragmas -Wno-deprecated-declarations"
                        " -Wno-error=multistatement-macros -Wno-error=parentheses"
                        " -Wno-error=unused-but-set-variable -Wno-unused-variable -Wno-unused-function"
                        // An L1 address (uint32_t) cast to a pointer, `(uint32_t*)l1_addr` (add_2_integers_in_riscv):
                        // on the 32-bit RISC-V cores both have one size; the emulator's L1 windows lie below 2 GiB.
                        " -Wno-int-to-pointer-cast"
                        // C++20 (above) deprecates compound assignment to volatile, which C++17 kernels do.
                        " -Wno-volatile";
    for (const fs::path& root : roots) flags += " -I" + shell_quote((root / profile).string());
    for (const fs::path& root : roots) flags += " -I" + shell_quote(root.string());
    flags += source_tree_flags();
    const bool fmt_dprint = kind != KernelKind::Compute && prelude_of(profile) && prelude_of(profile)->dprint_format;
    if (fmt_dprint) flags += kernel_pch_flags(cxx, flags, roots);
    flags += " -DKERNEL_COMPILE_TIME_ARGS=" + args;
    flags += " -DTT_EMU_DEVICE=" + std::to_string(device_index());  // built for the emulated device, as tt-metal's JIT
    flags += generated_header_flags(generated, true, bin->log);
    flags += kind == KernelKind::Compute ? compute_flags(profile) : data_movement_flags(profile, kind, noc);
    if (const Prelude* p = prelude_of(profile); p && p->dprint_format) flags += " -DTT_EMU_DPRINT_FORMAT";
    flags += generated_header_flags(generated, false, bin->log);
    if (!bin->log.empty()) return bin;
    for (auto& [name, value] : defines) flags += " " + shell_quote("-D" + name + (value.empty() ? "" : "=" + value));
    if (defines.count("KERNEL_COMPILE_TIME_ARG_MAP")) flags += " -include tt_emu/named_compile_time_args.hpp";

    const std::string key = digest(source + '\0' + cxx + ' ' + flags + '\0' + headers_digest(roots));
    const fs::path dir = cache_root() / "kernels";
    std::error_code ec_dir;
    const fs::path so = dir / (fs::path(path).stem().string() + "-" + key + ".so");
    bin->so_path = so.string();
    const std::string command_prefix = cxx + " " + flags + " " + shell_quote(path) + " -o ";
    void* handle = nullptr;
    std::string problem;  // why a cached object was not used
    if (cached_object(so, problem)) {
        bin->cached = true;
        handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) problem = std::string("does not load (") + dlerror() + ")";
    }
    std::unique_ptr<FileLock> building;  // one build of a key (a program's identical kernels, two test processes):
    if (!handle && problem.empty()) {      // the others wait for it (`<object>.lock`, pruned with the object) and load it
        fs::create_directories(dir, ec_dir);
        building = std::make_unique<FileLock>(so.string() + ".lock");
        if (cached_object(so, problem) && (handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL))) bin->cached = true;
    }
    if (!handle) {
        if (!problem.empty())  // a corrupt entry (or one pruned meanwhile): say so, then rebuild it
            std::fprintf(stderr, "tt_emu: cache entry %s %s; it is rebuilt (the cache is %s, $TT_EMU_CACHE)\n",
                         so.c_str(), problem.c_str(), cache_root().c_str());
        bin->cached = false;
        if (!build_object(so, command_prefix, bin->log)) return bin;
        handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            bin->log = std::string("dlopen failed: ") + dlerror();
            return bin;
        }
    }
    // `void kernel_main()`, or `namespace NAMESPACE { void MAIN }` (NAMESPACE = tt_emu_kernel).
    void* entry = dlsym(handle, "_Z11kernel_mainv");
    if (!entry) entry = dlsym(handle, "_ZN13tt_emu_kernel11kernel_mainEv");
    if (!entry) {
        bin->log = path + ": defines neither `void kernel_main()` nor `namespace NAMESPACE { void MAIN { ... } }`";
        return bin;
    }
    bin->entry = reinterpret_cast<void (*)()>(entry);
    bin->ok = true;
    bin->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return bin;
}

}  // namespace

std::shared_future<std::shared_ptr<KernelBinary>> compile_kernel_async(const KernelSpec& spec) {
    return std::async(std::launch::async, compile, spec.path, spec.compile_args, spec.defines, spec.kind, spec.noc,
                      spec.generated_headers)
        .share();
}

}  // namespace tt_emu
