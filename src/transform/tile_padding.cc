// Tensors and blocks of any shape (tile_ops.h, tile_ops_util.h): the padded DRAM layout of every tensor (InferTTLayout
// records it in tt.buffers; the host programs pad and crop) and block offsets in that layout.
#include <algorithm>

#include "engine_common.h"
#include "tile_ops_util.h"
#include "records.h"

namespace tl {

using namespace tileops;  // NOLINT: the recognisers' shared helpers

namespace {

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// The dims of a tensor that are tiled: the last two (rows, cols), a 1-D tensor's one (cols).
std::vector<size_t> tiled_dims(size_t n) {
  if (n == 1) return {0};
  return {n - 2, n - 1};
}

int64_t tile_of(size_t d, size_t n) { return d + 1 == n ? tile_shape().second : tile_shape().first; }

// A row-major tensor (one DRAM page per row of its last dim; a block is rows of one dim, (B, S, H, D)'s S) is padded
// in the dim its blocks span to a whole number of every block, so the last block's rows are pages of the tensor
// (the host uploads the rows with padding rows after each run of S). The host places it as the matrices of the dims
// from that one on, so blocks may span one dim only.
void row_major_padding(const std::string& name, PaddedLayout& layout, const std::vector<std::set<int64_t>>& seen) {
  std::vector<int64_t> padded_dims;
  for (size_t d = 0; d + 1 < layout.shape.size(); ++d) {
    for (int64_t e : seen[d]) layout.padded[d] = std::max(layout.padded[d], round_up(layout.shape[d], e));
    if (layout.padded[d] != layout.shape[d]) padded_dims.push_back(static_cast<int64_t>(d));
  }
  // its last dim to whole tiles: a page is one row of the tilizer's input (head dim 40 of a (B, S, H, D) tensor:
  // pages of 64 elements, the last 24 the tensor's pad value, which the host writes and crops)
  size_t last = layout.shape.size() - 1;
  layout.padded[last] = round_up(layout.shape[last], tile_of(last, layout.shape.size()));
  if (padded_dims.size() > 1) {
    fail("tensor '" + name + "' (shape " + ints_str(layout.shape) + ", laid out row-major) is copied in blocks that "
         "do not divide dims " + ints_str(padded_dims) + "; a row-major tensor is padded in one dim only (the "
         "sequence of a (batch, seq, heads, dim) tensor): use blocks that divide the others");
  }
}

// The 2-D tensors every use of which is a T.copy of one column to or from a 1-D on-chip buffer of its length
// (upstream top-k's `topk_gates[bx * blk_m + i, k] = max_val[i]`, a copy once LowerTTLoopsToTileOps has read it): a
// column vector holds its values in column 0 of its tiles, and neither the NoC (16-byte aligned) nor the FPU (19-bit
// SrcA/SrcB) moves them into column k of a tile exactly, but a row of a tile is whole aligned bytes per face, so DRAM
// holds such a tensor's transpose, where the column is a row (each on a tile row of its own: blocks of one row).
std::set<std::string> transposed_tensors(const Any& func) {
  std::map<std::string, bool> columns;  // tensor -> whether every use seen is such a column copy
  auto other = [&](const std::string& name) { columns[name] = false; };
  auto tile_call = [&](const ir::TilePrimitiveCall& call) {
    std::vector<Region> regions;
    for (const Any& a : call.args()) {
      if (ir::TensorRegion::matches(a)) regions.push_back(region_of(a));
    }
    bool copy = call.op().name() == "tirx.tile.copy" && regions.size() == 2;
    for (size_t i = 0; i < regions.size(); ++i) {
      const Region& r = regions[i];
      if (r.info.on_chip()) continue;
      const BufferInfo* vec = copy ? &regions[1 - i].info : nullptr;
      // a 1-D buffer [L] or a row [1, L], of any tensor of 2 dims or more (GDN's G[bb, s, bh] or Beta[bb, s, bh] of a
      // (B, S, H) tensor): the tensor's last two dims' matrix is transposed, its leading dims stay
      size_t n = r.info.shape.size();
      bool fits = vec != nullptr && vec->on_chip() && n >= 2 &&
                  (vec->shape.size() == 1 || (vec->shape.size() == 2 && vec->shape[0] == 1));
      bool column = fits && r.extents[n - 2] == vec->shape.back() && r.extents[n - 1] == 1;
      for (size_t d = 0; column && d + 2 < n; ++d) column = r.extents[d] == 1;
      if (column) columns.emplace(r.info.name, true);
      if (!column) other(r.info.name);
    }
  };
  walk(ir::PrimFunc(func).body(),
       {ir::visit<ir::TilePrimitiveCall>(tile_call),
        ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& load) { other(load.source().name()); }),
        ir::visit<ir::BufferStore>([&](const ir::BufferStore& store) { other(store.buffer().name()); })});
  std::set<std::string> out;
  for (const auto& [name, only_columns] : columns) {
    if (only_columns) out.insert(name);
  }
  return out;
}

}  // namespace

std::map<std::string, PaddedLayout> padded_layouts(const Any& func, const std::set<std::string>& row_major) {
  std::map<std::string, PaddedLayout> out;
  std::map<std::string, std::vector<std::set<int64_t>>> extents;  // per tensor and dim: the extents of its blocks
  std::set<std::string> transposed = transposed_tensors(func);
  for (const BufferInfo& t : tensor_params(func)) {
    std::vector<int64_t> shape = t.shape;  // a transposed tensor: the transpose's
    if (transposed.count(t.name)) std::swap(shape[shape.size() - 2], shape.back());
    PaddedLayout layout{shape, shape, std::vector<int64_t>(t.shape.size(), 0), transposed.count(t.name) > 0};
    if (!row_major.count(t.name)) {
      for (size_t d : tiled_dims(shape.size())) layout.padded[d] = round_up(shape[d], tile_of(d, shape.size()));
    }
    out[t.name] = layout;
    extents[t.name].resize(t.shape.size());
  }
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
         if (call.op().name() != "tirx.tile.copy") return;
         for (const Any& operand : {call.args()[0], call.args()[1]}) {
           if (!ir::TensorRegion::matches(operand)) continue;
           Region r = region_of(operand);
           if (r.info.on_chip() || !out.count(r.info.name)) continue;
           if (row_major.count(r.info.name)) {  // the dims a block of rows spans (the last is whole rows)
             for (size_t d = 0; d + 1 < r.info.shape.size(); ++d) {
               if (r.extents[d] != 1) extents[r.info.name][d].insert(r.extents[d]);
             }
             continue;
           }
           if (transposed.count(r.info.name)) std::swap(r.extents[r.extents.size() - 2], r.extents.back());
           for (size_t d : tiled_dims(r.info.shape.size())) extents[r.info.name][d].insert(r.extents[d]);
         }
       })});
  for (auto& [name, layout] : out) {
    size_t n = layout.shape.size();
    if (row_major.count(name)) {
      row_major_padding(name, layout, extents[name]);
      continue;
    }
    for (size_t d : tiled_dims(n)) {
      const std::set<int64_t>& seen = extents[name][d];
      int64_t tile = tile_of(d, n), dim = layout.shape[d];
      bool whole_tiles = std::all_of(seen.begin(), seen.end(), [&](int64_t e) { return e % tile == 0; });
      if (whole_tiles) {  // blocks of whole tiles: pad the dim to a whole number of every block
        for (int64_t e : seen) layout.padded[d] = std::max(layout.padded[d], round_up(dim, e));
        continue;
      }
      if (seen.size() > 1) {
        std::vector<int64_t> list(seen.begin(), seen.end());
        fail("tensor '" + name + "' (shape " + ints_str(layout.shape) + ") is copied in blocks of " + ints_str(list) +
             " elements along dim " + std::to_string(d) + "; blocks that are not whole " + std::to_string(tile) +
             "-element tiles are laid out one per run of tiles, so every block of a dim must have one extent");
      }
      int64_t e = *seen.begin();
      if (e >= dim) continue;  // one block covers the dim: whole tiles of it, padded at the end
      layout.blocks[d] = e;
      layout.padded[d] = (dim + e - 1) / e * round_up(e, tile);
    }
  }
  return out;
}

namespace tileops {

namespace {
thread_local const std::map<std::string, PaddedLayout>* padded_now = nullptr;
}  // namespace

PaddedLayouts::PaddedLayouts(const Any& func) {
  for (const auto& [name, layout] : attr_dict(func, keys::kTtBuffers)) {
    Dict entry = as_dict(layout);
    if (!entry.count(String(records::buffer::kPaddedShape))) continue;
    PaddedLayout p;
    for (const Any& v : as_list(entry.at(String(records::buffer::kShape)))) p.shape.push_back(as_int(v));
    for (const Any& v : as_list(entry.at(String(records::buffer::kPaddedShape)))) p.padded.push_back(as_int(v));
    for (const Any& v : as_list(entry.at(String(records::buffer::kBlocks)))) p.blocks.push_back(as_int(v));
    Any transposed = get(entry, records::buffer::kTransposed);
    p.transposed = transposed != nullptr && truthy(transposed);
    if (p.transposed) std::swap(p.shape[p.shape.size() - 2], p.shape.back());  // the transpose's, as padded is
    layouts_[as_str(name)] = p;
  }
  padded_now = &layouts_;
}

PaddedLayouts::~PaddedLayouts() { padded_now = nullptr; }

PaddedLayout padded_layout(const BufferInfo& tensor) {
  if (padded_now != nullptr) {
    auto it = padded_now->find(tensor.name);
    if (it != padded_now->end()) return it->second;
  }
  return {tensor.shape, tensor.shape, std::vector<int64_t>(tensor.shape.size(), 0)};
}

Any padded_offset(const Region& tensor, size_t d) {
  PaddedLayout layout = padded_layout(tensor.info);
  int64_t e = layout.blocks[d];
  const Any& start = tensor.mins[d];
  if (e == 0) return start;
  if (!truthy(fn::aligned(start, Any(e)))) {
    fail("block of '" + tensor.info.name + "' starts at " + format_value(start) + " in dim " + std::to_string(d) +
         ", not a multiple of its extent " + std::to_string(e) + "; a block that is not whole tiles is laid out on "
         "tiles of its own, so it must start at a multiple of its extent");
  }
  int64_t run = round_up(e, tile_of(d, layout.shape.size()));
  Any offset = fn::mul(fn::floordiv(start, Any(e)), Any(run));
  if (ir::IntImm::from(offset)) return offset;
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  return call("sym.AnalyzerSimplify", analyzer, offset, int64_t(2));
}

}  // namespace tileops
}  // namespace tl

