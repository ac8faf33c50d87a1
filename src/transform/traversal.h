// Visiting and rewriting IR with TVM's structural walk and map (ffi.StructuralWalk / ffi.StructuralMap), the
// traversal tvm-ffi offers without IR headers: entries pair a node type with a callback, usually built from a
// typed view (`walk(body, {ir::visit<ir::For>(f)})`).
#pragma once

#include "ffi_values.h"

namespace tl {

using Visit = std::function<void(const Any&)>;
using Rewrite = std::function<Any(const Any&)>;
/*! \brief Call each entry's callback on every node of its type (or a derived one), pre-order. */
void walk(const Any& root, const std::vector<std::pair<const char*, Visit>>& entries);
/*! \brief Replace every node of an entry's type by what its callback returns; order "pre" or "post". */
Any map(const Any& root, const std::vector<std::pair<const char*, Rewrite>>& entries, const char* order = "post");

}  // namespace tl
