// Implementation of ir.h (the twin of tilelang/tenstorrent/ir.py).
#include "ir.h"

namespace tl {

Dict BufferInfo::ns() const {
  List dims;
  for (int64_t d : shape) dims.push_back(Any(d));
  return dict({{String("var"), var},
               {String("name"), String(name)},
               {String("shape"), as_tuple(dims)},
               {String("dtype"), String(dtype)},
               {String("scope"), String(scope)},
               {String("index"), Any(index)},
               {String("on_chip"), Any(on_chip())}});
}

// str() of a type's dtype field: a PrimType prints as its data type ("float16").
static std::string dtype_str(const Any& dtype) {
  if (is_a(dtype, "ir.PrimType")) return py_str(field(dtype, "dtype"));
  return py_str(dtype);
}

// Python tirx.is_buffer_var: a Var whose type is a BufferType.
static bool is_buffer_var(const Any& p) { return is_a(p, "ir.Var") && is_a(field(p, "ty"), "tirx.BufferType"); }

BufferInfo buffer_info(const Any& v, int64_t index) {
  Any ty = field(v, "ty");
  BufferInfo info;
  info.var = v;
  info.name = as_str(field(v, "name"));
  for (const Any& dim : as_list(field(ty, "shape"))) {
    if (!is_a(dim, "ir.IntImm")) {
      fail("buffer '" + info.name + "' has a dynamic shape (" + py_str(dim) +
           "); the tenstorrent backend needs static shapes");
    }
    info.shape.push_back(as_int(dim));
  }
  info.dtype = dtype_str(field(ty, "dtype"));
  info.scope = py_str(field(ty, "storage_scope"));
  if (info.scope.empty()) info.scope = "global";
  info.index = index;
  return info;
}

std::vector<BufferInfo> tensor_params(const Any& func) {
  std::vector<BufferInfo> out;
  for (const Any& p : as_list(field(func, "params"))) {
    if (is_buffer_var(p)) out.push_back(buffer_info(p, static_cast<int64_t>(out.size())));
  }
  return out;
}

std::vector<BufferInfo> onchip_buffers(const Any& func) {
  std::vector<BufferInfo> out;
  walk(field(func, "body"), {{"tirx.AllocBuffer", [&](const Any& s) { out.push_back(buffer_info(field(s, "buffer"))); }}});
  for (const BufferInfo& b : out) {
    int count = 0;
    for (const BufferInfo& other : out) count += other.name == b.name;
    if (count > 1) fail("two on-chip buffers are named '" + b.name + "'; CB descriptors are keyed by buffer name");
  }
  return out;
}

std::vector<std::pair<const Intrinsic*, Any>> tt_calls(const Any& stmt) {
  std::vector<std::pair<const Intrinsic*, Any>> found;
  walk(stmt, {{"ir.Call", [&](const Any& c) {
                 const Intrinsic* record = intrinsic_of(c);
                 if (record != nullptr) found.emplace_back(record, c);
               }}});
  return found;
}

Any map_evaluates(const Any& stmt, const std::function<std::optional<Any>(const Any&)>& rewrite) {
  return map(stmt, {{"tirx.Evaluate", [&](const Any& ev) -> Any {
                       std::optional<Any> replacement = rewrite(ev);
                       return replacement ? *replacement : ev;
                     }}},
             "post");
}

}  // namespace tl
