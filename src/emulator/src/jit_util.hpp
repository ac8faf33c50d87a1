// What the kernel JIT (jit.cpp) and its kernel PCHs (jit_pch.cpp) share: file, shell and cache helpers.
#pragma once

#include <filesystem>
#include <string>

namespace tt_emu::jit {

std::string env_or(const char* name, const std::string& fallback);
bool read_file(const std::filesystem::path& path, std::string& out);
std::string shell_quote(const std::string& s);
std::string digest(const std::string& text);  // a build cache key
std::filesystem::path cache_root();           // $TT_EMU_CACHE, else the user's cache folder
int run_command(const std::string& command, std::string& output);  // its exit status and combined output

// The flags that include a PCH of `text` (#include lines) built with `flags` into `kernel_pch/<key>/` (jit_pch.cpp),
// or "" where the compiler cannot build it; `headers` is the digest of the emulator's headers.
std::string kernel_pch_flags(const std::string& cxx, const std::string& flags, const std::string& headers,
                             const std::string& text);

}  // namespace tt_emu::jit
