// What the engines read of a PrimFunc (ir.h).
#include "ir.h"

#include "records.h"

namespace tl {

Dict BufferInfo::ns() const {
  List dims;
  for (int64_t d : shape) dims.push_back(Any(d));
  List padded_dims, block_dims;
  for (int64_t d : padded.empty() ? shape : padded) padded_dims.push_back(Any(d));
  for (size_t d = 0; d < shape.size(); ++d) block_dims.push_back(Any(blocks.empty() ? int64_t(0) : blocks[d]));
  namespace b = records::buffer_info;
  return dict({{String(b::kVar), var},
               {String(b::kName), String(name)},
               {String(b::kShape), dims},
               {String(b::kDtype), String(dtype)},
               {String(b::kScope), String(scope)},
               {String(b::kIndex), Any(index)},
               // The extent tiled as rows: shape[-2], or 0 for a 1-D tensor (a row vector, padded to one tile row).
               {String(b::kRowExtent), Any(shape.size() > 1 ? shape[shape.size() - 2] : int64_t(0))},
               {String(b::kOnChip), Any(on_chip())},
               {String(b::kRowMajor), Any(row_major)},
               {String(b::kTransposed), Any(transposed)},
               {String(b::kPadded), padded_dims},
               {String(b::kBlocks), block_dims}});
}

static bool is_buffer_var(const Any& p) {
  auto v = ir::Var::from(p);
  return v && ir::BufferType::matches(v->ty());
}

BufferInfo buffer_info(const Any& value, int64_t index) {
  ir::Var v(value);
  ir::BufferType type(v.ty());
  BufferInfo info;
  info.var = v;
  info.name = v.name();
  for (const Any& dim : type.shape()) {
    if (!ir::IntImm::matches(dim)) {
      fail("buffer '" + info.name + "' has a dynamic shape (" + format_value(dim) +
           "); the tenstorrent backend needs static shapes");
    }
    info.shape.push_back(ir::IntImm(dim).value());
  }
  info.dtype = type.dtype().dtype();
  info.scope = type.storage_scope();
  if (info.scope.empty()) info.scope = "global";
  info.index = index;
  return info;
}

std::vector<BufferInfo> tensor_params(const Any& func) {
  std::vector<BufferInfo> out;
  for (const Any& p : ir::PrimFunc(func).params()) {
    if (is_buffer_var(p)) out.push_back(buffer_info(p, static_cast<int64_t>(out.size())));
  }
  return out;
}

std::vector<BufferInfo> onchip_buffers(const Any& func) {
  std::vector<BufferInfo> out;
  walk(ir::PrimFunc(func).body(),
       {ir::visit<ir::AllocBuffer>([&](const ir::AllocBuffer& s) { out.push_back(buffer_info(s.buffer())); })});
  for (const BufferInfo& b : out) {
    int count = 0;
    for (const BufferInfo& other : out) count += other.name == b.name;
    if (count > 1) fail("two on-chip buffers are named '" + b.name + "'; CB descriptors are keyed by buffer name");
  }
  return out;
}

std::optional<ir::IterVar> launch_of(const ir::AttrStmt& stmt) {
  if (stmt.attr_key() != keys::kThreadExtent) return std::nullopt;
  return ir::IterVar::from(stmt.node());
}

std::vector<std::pair<const Intrinsic*, Any>> tt_calls(const Any& stmt) {
  std::vector<std::pair<const Intrinsic*, Any>> found;
  walk(stmt, {ir::visit<ir::Call>([&](const ir::Call& c) {
         const Intrinsic* record = intrinsic_of(c);
         if (record != nullptr) found.emplace_back(record, c);
       })});
  return found;
}

Any map_evaluates(const Any& stmt, const std::function<std::optional<Any>(const ir::Evaluate&)>& rewrite) {
  return map(stmt, {ir::rewrite<ir::Evaluate>([&](const ir::Evaluate& ev) -> Any {
               std::optional<Any> replacement = rewrite(ev);
               return replacement ? *replacement : ev.any();
             })},
             "post");
}

}  // namespace tl
