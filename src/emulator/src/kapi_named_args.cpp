// Named compile-time arguments (tt_emu/named_compile_time_args.hpp): a name the kernel's map lacks, at run time.
#include <cstddef>
#include <string>

#include "emu.hpp"

namespace tt_emu::kapi::detail {

void named_compile_time_arg_missing(const char* name, std::size_t length) {
    Session s = enter("get_named_compile_time_arg_val", {});
    fail(s, "no named compile-time argument \"" + std::string(name, length) +
                "\" (CreateKernel's named_compile_args do not name it)");
}

}  // namespace tt_emu::kapi::detail
