// Kernel source paths resolved as tt-metal resolves them (CreateKernel's file name).
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "emu.hpp"

namespace tt_emu {

namespace {
// Where tt-metal looks for a kernel source (tt_metal/impl/kernels/kernel.cpp, source_search_paths): the path as
// given (absolute, or relative to the working directory), then under $TT_METAL_HOME, under $TT_METAL_KERNEL_PATH,
// and under the system kernel folder that tt-metal's packages install the examples' kernels into.
constexpr const char* kSystemKernelDir = "/usr/share/tenstorrent/kernels/";

std::vector<std::filesystem::path> kernel_search_paths(const std::string& file_name) {
    const std::filesystem::path given(file_name);
    std::vector<std::filesystem::path> paths{given};
    if (given.is_absolute()) return paths;
    for (const char* var : {"TT_METAL_HOME", "TT_METAL_KERNEL_PATH"}) {
        if (const char* dir = std::getenv(var); dir && *dir) paths.push_back(std::filesystem::path(dir) / given);
    }
    paths.push_back(std::filesystem::path(kSystemKernelDir) / given);
    return paths;
}
}  // namespace

std::string resolve_kernel_path(const std::string& file_name) {
    for (const auto& path : kernel_search_paths(file_name)) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) return std::filesystem::absolute(path).lexically_normal().string();
    }
    return {};
}

std::string kernel_path_not_found(const std::string& file_name) {
    std::string searched;
    for (const auto& path : kernel_search_paths(file_name)) {
        searched += (searched.empty() ? "" : ", ") + std::filesystem::absolute(path).lexically_normal().string();
    }
    return "kernel source " + file_name + " does not exist (searched, as tt-metal does: " + searched +
           "; a relative path is read from the working directory, $TT_METAL_HOME or $TT_METAL_KERNEL_PATH)";
}

}  // namespace tt_emu
