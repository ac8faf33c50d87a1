// Helpers shared by the tile-op recognisers (tile_ops_util.h).
#include "tile_ops_util.h"

namespace tl::tileops {

// Extents and shapes in messages: "[64, 32]".
std::string ints_str(const std::vector<int64_t>& xs) {
  std::string out = "[";
  for (size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + std::to_string(xs[i]);
  return out + "]";
}

std::pair<int64_t, int64_t> tile_shape() {
  Any tile = attr(device(), "TILE");
  return {as_int(item(tile, Any(int64_t(0)))), as_int(item(tile, Any(int64_t(1))))};
}

Any strip_casts(Any expr) {
  while (auto c = ir::Cast::from(expr)) expr = c->value();
  return expr;
}

bool is_zero(const Any& e) {
  Any expr = strip_casts(e);
  if (auto i = ir::IntImm::from(expr)) return i->value() == 0;
  if (auto f = ir::FloatImm::from(expr)) return f->value() == 0.0;
  return false;
}

bool is_const_int(const Any& e, int64_t value) {
  auto i = ir::IntImm::from(e);
  return i && i->value() == value;
}

// The tiles of a 2-D on-chip buffer: (rows, cols).
std::pair<int64_t, int64_t> tiles(const BufferInfo& info, const std::string& what) {
  auto [th, tw] = tile_shape();
  if (info.shape.size() != 2 && !(info.shape.size() == 1 && info.on_chip())) {
    fail(what + " '" + info.name + "' has shape " + ints_str(info.shape) +
         "; the tenstorrent backend handles 2-D tiles (and 1-D on-chip buffers as column vectors) only");
  }
  if (!truthy(fn::supported_dtype(String(info.dtype)))) {
    std::string known;
    for (const auto& [dtype, format] : as_dict(attr(device(), "DATA_FORMATS"))) {
      known += (known.empty() ? "" : ", ") + format_value(dtype);
    }
    fail(what + " '" + info.name + "' has dtype " + info.dtype + "; the tenstorrent backend computes in " + known +
         " only (for fp32 accumulation write accum_dtype=\"float\")");
  }
  if (info.shape.size() == 1) return {(info.shape[0] + th - 1) / th, 1};  // a column vector: column 0 of its tiles
  return {(info.shape[0] + th - 1) / th, (info.shape[1] + tw - 1) / tw};  // padding the user never sees
}

Region region_of(const Any& operand) {
  ir::TensorRegion region(operand);
  Region r{buffer_info(region.source()), {}, {}};
  for (const Any& dim : region.region()) {
    ir::Range range(dim);
    r.mins.push_back(range.min());
    auto extent = ir::IntImm::from(range.extent());
    if (!extent) fail("region of '" + r.info.name + "' has a dynamic extent (" + format_value(range.extent()) + ")");
    r.extents.push_back(extent->value());
  }
  return r;
}

// CBs hold whole blocks: an on-chip operand must be the whole buffer.
void require_full(const Region& r, const std::string& op) {
  bool whole = r.extents == r.info.shape;
  for (const Any& m : r.mins) whole = whole && is_const_int(m, 0);
  if (!whole) {
    fail(op + " uses part of on-chip buffer '" + r.info.name + "' (extents " + ints_str(r.extents) + " of " +
         ints_str(r.info.shape) + "); the tenstorrent backend moves whole CB blocks");
  }
}

// A block must lie inside the tensor: at a constant offset it must end inside it; at a moving offset (block
// indices, loops) the last block of a ceildiv grid may hang over the end: a tiled tensor is padded in DRAM to whole
// blocks (tile_padding.cc), but a row-major one is not, so there the extent must divide the dim (on hardware the
// block would read or write other rows).
void require_inside(const Region& tensor, const BufferInfo& onchip, size_t d) {
  int64_t dim = tensor.info.shape[d], extent = tensor.extents[d];
  auto start = ir::IntImm::from(tensor.mins[d]);
  std::string block = "T.copy of a " + ints_str(onchip.shape) + " block " + (onchip.name.empty() ? "" : "('" +
                      onchip.name + "') ") + "of tensor '" + tensor.info.name + "' (shape " +
                      ints_str(tensor.info.shape) + "): dim " + std::to_string(d);
  if (start && start->value() + extent > dim) {
    fail(block + " runs from " + std::to_string(start->value()) + " to " + std::to_string(start->value() + extent) +
         ", past the tensor's " + std::to_string(dim));
  }
  if (!start && padded_layout(tensor.info).padded[d] % extent != 0 && row_major(tensor.info)) {
    int64_t tile = d + 1 == tensor.info.shape.size() ? tile_shape().second : tile_shape().first;
    int64_t fits = 0;
    for (int64_t b = tile; b <= std::min(extent, dim); b += tile) {
      if (dim % b == 0) fits = b;
    }
    fail(block + " has " + std::to_string(dim) + " elements, not a multiple of the block's " + std::to_string(extent) +
         ", so the last block would run past the tensor (on hardware it would read or write other tiles); use a "
         "block that divides it" + (fits ? " (e.g. " + std::to_string(fits) + ")" : "") + " or pad the tensor");
  }
}

}  // namespace tl::tileops
