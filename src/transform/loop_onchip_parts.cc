// On-chip buffers that tile ops use in parts (hook loops_to_tile_ops, once the element loops are tile ops). A CB moves
// whole blocks, so a T.copy or T.gemm of part of a buffer has no CB to name; where the parts are fixed, each part is
// made a buffer of its own before the tile ops are classified:
// - a leading dim every access indexes at one enclosing loop's variable (gemm_batched's `A_shared[b, :, :]` in
//   `for b in T.serial(batch)`) is dropped: iteration b only ever touches slice b, so one slice reused per iteration
//   holds the same values;
// - a 2-D buffer whose tile ops use parts with constant, tile-aligned bounds (gemm_with_stride's
//   `A_shared[:, block_K:]`) becomes one buffer per part the tile ops use; a whole-buffer T.clear/T.fill becomes a
//   fill of each part, and a part only that fill touches goes (nothing reads it).
// Anything else (an element access, a moving or unaligned bound, parts that overlap, a whole-buffer copy or gemm
// beside parts) is left as it is, and tile-op classification refuses it naming the buffer (require_full).
#include <map>

#include "loop_blocks.h"

namespace tl::loops {
namespace {

// One use of a buffer: a tile op's region (ranges) or an element access (indices, extent 1 each).
struct Use {
  std::vector<Any> mins;
  std::vector<int64_t> extents;  // -1: not a constant
  bool element = false;
  bool fill = false;
};

std::vector<Use> uses_of(const Any& body, const Any& buffer) {
  std::vector<Use> out;
  auto element = [&](const List& indices) {
    Use u{{}, {}, true, false};
    for (const Any& i : indices) {
      u.mins.push_back(i);
      u.extents.push_back(1);
    }
    out.push_back(u);
  };
  walk(body, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& s) {
                if (s.buffer().same_as(buffer)) element(s.indices());
              }),
              ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                if (l.source().same_as(buffer)) element(l.indices());
              }),
              ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& t) {
                for (const Any& arg : t.args()) {
                  auto r = ir::TensorRegion::from(arg);
                  if (!r || !r->source().same_as(buffer)) continue;
                  Use u{{}, {}, false, t.op().name() == "tirx.tile.fill"};
                  for (const Any& dim : r->region()) {
                    ir::Range range(dim);
                    auto e = ir::IntImm::from(range.extent());
                    u.mins.push_back(range.min());
                    u.extents.push_back(e ? e->value() : -1);
                  }
                  out.push_back(u);
                }
              })});
  return out;
}

std::vector<Any> onchip_buffers(const Any& body) {
  std::vector<Any> out;
  walk(body, {ir::visit<ir::AllocBuffer>([&](const ir::AllocBuffer& a) {
         if (buffer_info(a.buffer()).on_chip()) out.push_back(a.buffer());
       })});
  return out;
}

std::optional<int64_t> constant(const Any& e) {
  auto i = ir::IntImm::from(tileops::strip_casts(e));
  return i ? std::optional<int64_t>(i->value()) : std::nullopt;
}

Any range(const Any& min, int64_t extent) {
  return call("ir.Range_from_min_extent", min, int_imm(extent), Any(nullptr));
}

// (a) The leading dim of a buffer of rank >= 3 that every use indexes at the same loop variable.
Any drop_loop_dim(const Any& body, const Any& buffer) {
  BufferInfo info = buffer_info(buffer);
  if (info.shape.size() < 3) return body;
  std::vector<Use> uses = uses_of(body, buffer);
  Any index = uses.empty() ? Any(nullptr) : uses[0].mins[0];
  // The index is a loop's variable, and that loop runs once per launch (inside no other loop): a slice read before
  // it is written in its iteration would otherwise hold the value of an earlier pass of the outer loop.
  bool is_loop = false, nested = false;
  walk(body, {ir::visit<ir::For>([&](const ir::For& f) {
         is_loop |= f.loop_var().same_as(index);
         if (f.loop_var().same_as(index)) return;
         walk(f.body(), {ir::visit<ir::For>([&](const ir::For& inner) { nested |= inner.loop_var().same_as(index); })});
       })});
  is_loop = is_loop && !nested;
  bool all = is_loop && std::all_of(uses.begin(), uses.end(), [&](const Use& u) {
               return u.extents[0] == 1 && u.mins[0].same_as(index);
             });
  if (!all) return body;
  List shape;
  for (size_t d = 1; d < info.shape.size(); ++d) shape.push_back(int_imm(info.shape[d]));
  Any slice = onchip_buffer(info.name, info.dtype, shape, info.scope.c_str());
  return remap(body, buffer, slice, [](const List& idx) {
    List out;
    for (size_t d = 1; d < idx.size(); ++d) out.push_back(idx[d]);
    return out;
  });
}

// A tile op with other operands, its options kept.
Any with_args(const ir::TilePrimitiveCall& t, const List& args) {
  return call("tirx.TilePrimitiveCall", call("ir.GetOp", t.op().name()), args, ffi::Map<String, Any>(), t.config(),
              Any(nullptr), call("tirx.ExecScope", String("thread")));
}

// (b) How a 2-D buffer splits: the cuts per dim (sorted, from 0 to the dim) and the buffer of each part a tile op
// uses, by (row cell, column cell).
struct Parts {
  std::vector<std::vector<int64_t>> cuts;
  std::map<std::pair<int, int>, Any> buffers;

  // The cell of `cuts[d]` that [lo, lo + extent) is, or -1.
  int cell(int64_t lo, int64_t extent, size_t d) const {
    auto at = std::find(cuts[d].begin(), cuts[d].end(), lo);
    if (at == cuts[d].end() || at + 1 == cuts[d].end() || *(at + 1) != lo + extent) return -1;
    return static_cast<int>(at - cuts[d].begin());
  }
};

bool whole(const Use& u, const BufferInfo& info) {
  auto at_zero = [](const Any& m) { return constant(m) == std::optional<int64_t>(0); };
  return u.extents == info.shape && std::all_of(u.mins.begin(), u.mins.end(), at_zero);
}

// The cuts of the parts the tile ops use (constant, tile-aligned bounds), or nothing where the buffer stays whole.
std::optional<std::vector<std::vector<int64_t>>> cuts_of(const std::vector<Use>& uses, const BufferInfo& info) {
  auto [th, tw] = tileops::tile_shape();
  std::vector<int64_t> tile{th, tw};
  std::vector<std::vector<int64_t>> cuts(2);
  bool partial = false;
  for (const Use& u : uses) {
    if (u.element) return std::nullopt;
    if (whole(u, info)) {
      if (!u.fill) return std::nullopt;  // a whole-buffer copy or gemm needs the buffer whole
      continue;
    }
    partial = true;
    for (size_t d = 0; d < 2; ++d) {
      auto lo = constant(u.mins[d]);
      if (!lo || u.extents[d] < 0) return std::nullopt;
      for (int64_t b : {*lo, *lo + u.extents[d]}) {
        if (b > info.shape[d] || (b % tile[d] != 0 && b != info.shape[d])) return std::nullopt;  // refused later
        cuts[d].push_back(b);
      }
    }
  }
  if (!partial) return std::nullopt;
  for (size_t d = 0; d < 2; ++d) {
    cuts[d].push_back(0);
    cuts[d].push_back(info.shape[d]);
    std::sort(cuts[d].begin(), cuts[d].end());
    cuts[d].erase(std::unique(cuts[d].begin(), cuts[d].end()), cuts[d].end());
  }
  return cuts;
}

// The parts of `buffer`, each part use one cell of the cuts (parts that overlap stay refused), or nothing.
std::optional<Parts> parts_of(const Any& body, const Any& buffer) {
  BufferInfo info = buffer_info(buffer);
  if (info.shape.size() != 2) return std::nullopt;
  std::vector<Use> uses = uses_of(body, buffer);
  auto cuts = cuts_of(uses, info);
  if (!cuts) return std::nullopt;
  Parts parts{*cuts, {}};
  for (const Use& u : uses) {
    if (whole(u, info)) continue;
    int r = parts.cell(*constant(u.mins[0]), u.extents[0], 0), c = parts.cell(*constant(u.mins[1]), u.extents[1], 1);
    if (r < 0 || c < 0) return std::nullopt;
    if (parts.buffers.count({r, c})) continue;
    int64_t r0 = parts.cuts[0][static_cast<size_t>(r)], c0 = parts.cuts[1][static_cast<size_t>(c)];
    parts.buffers[{r, c}] = onchip_buffer(info.name + "_" + std::to_string(r0) + "_" + std::to_string(c0), info.dtype,
                                          List{int_imm(u.extents[0]), int_imm(u.extents[1])}, info.scope.c_str());
  }
  return parts;
}

Any whole_region(const Any& part) {
  List dims;
  for (int64_t e : buffer_info(part).shape) dims.push_back(range(int_imm(0), e));
  return call("tirx.BufferRegion", part, dims);
}

// The part buffer a region of the buffer is, or nothing for the whole buffer.
std::optional<Any> part_of(const ir::TensorRegion& r, const BufferInfo& info, const Parts& parts) {
  Use u{{}, {}, false, false};
  for (const Any& dim : r.region()) {
    u.mins.push_back(ir::Range(dim).min());
    u.extents.push_back(ir::IntImm::from(ir::Range(dim).extent())->value());
  }
  if (whole(u, info)) return std::nullopt;
  int row = parts.cell(*constant(u.mins[0]), u.extents[0], 0), col = parts.cell(*constant(u.mins[1]), u.extents[1], 1);
  return parts.buffers.at({row, col});  // every part use was checked to be one cell
}

// A tile op on the parts: each region of the buffer the part's buffer; a whole-buffer fill a fill of each part.
Any on_parts(const ir::TilePrimitiveCall& t, const Any& buffer, const Parts& parts) {
  BufferInfo info = buffer_info(buffer);
  List args;
  bool touched = false;
  std::optional<size_t> whole_fill;
  for (size_t n = 0; n < t.args().size(); ++n) {
    Any arg = t.args()[n];
    auto r = ir::TensorRegion::from(arg);
    if (!r || !r->source().same_as(buffer)) {
      args.push_back(arg);
      continue;
    }
    touched = true;
    auto part = part_of(*r, info, parts);
    if (!part) whole_fill = n;  // only fills use the whole buffer here (cuts_of)
    args.push_back(part ? whole_region(*part) : arg);
  }
  if (!touched) return t.any();
  if (!whole_fill) return with_args(t, args);
  std::vector<Any> fills;
  for (const auto& [key, part] : parts.buffers) {
    args.Set(static_cast<int64_t>(*whole_fill), whole_region(part));
    fills.push_back(with_args(t, args));
  }
  return seq(fills);
}

Any split_parts(const Any& body, const Any& buffer) {
  auto parts = parts_of(body, buffer);
  if (!parts) return body;
  return map(body, {ir::rewrite<ir::AllocBuffer>([&](const ir::AllocBuffer& a) -> Any {
                      if (!a.buffer().same_as(buffer)) return a.any();
                      std::vector<Any> allocs;
                      for (const auto& [key, part] : parts->buffers) {
                        allocs.push_back(call("tirx.AllocBuffer", part, ffi::Map<String, Any>(), Any(nullptr)));
                      }
                      return seq(allocs);
                    }),
                    ir::rewrite<ir::TilePrimitiveCall>(
                        [&](const ir::TilePrimitiveCall& t) -> Any { return on_parts(t, buffer, *parts); })},
             "post");
}

}  // namespace

Any split_onchip_parts(const Any& body) {
  Any out = body;
  for (const Any& b : onchip_buffers(out)) out = drop_loop_dim(out, b);
  for (const Any& b : onchip_buffers(out)) out = split_parts(out, b);
  return out;
}

}  // namespace tl::loops
