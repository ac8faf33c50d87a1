// tt_emu: tt-metal's tt::stl::Span (tt_stl/span.hpp), which ttnn 0.81.1's host functions take as std::span (their
// exported symbols name std::span<T const>).
#pragma once

#include <cstddef>
#include <span>

namespace tt::stl {
template <class T, std::size_t Extent = std::dynamic_extent>
using Span = std::span<T, Extent>;
}  // namespace tt::stl
