// Named compile-time arguments (tt_emu/named_compile_time_args.hpp): a name the kernel's map lacks, at run time.
#include <cstddef>
#include <map>
#include <unordered_map>
#include <string>

#include "emu.hpp"

namespace tt_emu::kapi::detail {

void named_compile_time_arg_missing(const char* name, std::size_t length) {
    Session s = enter("get_named_compile_time_arg_val", {});
    fail(s, "no named compile-time argument \"" + std::string(name, length) +
                "\" (CreateKernel's named_compile_args do not name it)");
}

}  // namespace tt_emu::kapi::detail

namespace tt_emu {

// Named compile-time arguments reach the kernel as tt-metal's JIT passes them: KERNEL_COMPILE_TIME_ARG_MAP.
void named_args_define(KernelSpec& k, const std::unordered_map<std::string, uint32_t>& named) {
    std::string map;
    for (const auto& [name, value] : std::map<std::string, uint32_t>(named.begin(), named.end())) {
        map += (map.empty() ? "{\"" : ",{\"") + name + "\"," + std::to_string(value) + "}";
    }
    if (!map.empty()) k.defines["KERNEL_COMPILE_TIME_ARG_MAP"] = map;
}

}  // namespace tt_emu
