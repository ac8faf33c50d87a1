// One element of a DRAM tensor read as a value in a loop nest (LowerTTLoopsToTileOps, loop_tile_ops.cc): TileLang's
// attention-sink forward fills a fragment row with one element per head (`sinks[i] = Sinks[by]`), its layernorm
// backward reads a row statistic per row (`m_v = Mean[row]`, folded into the element-wise expression that uses it).
// The element is the same in every iteration of the nest, so no block of the nest holds it: it is copied on chip
// first, a T.copy of the one-element block `Sinks[by:by + 1]` into a new on-chip buffer of one element per dim
// (`<tensor>_elt<n>`, shape [1] for a 1-D tensor) before the nest, which then reads that buffer at 0. A block of one
// element lays each element of its dim on a tile of its own (tile_padding.cc: element i at i * 32), so the reader
// fetches the whole tile page that holds it at (0, 0) (no partial-page read, every NoC read page-aligned), and the
// element-wise recognition broadcasts that element to the blocks it meets (`*_tiles_bcast_scalar`,
// tile_ops_tree.cc).
#include "loop_blocks.h"

namespace tl::loops {

namespace {

// Whether `expr` names one of the nest's loop variables.
bool uses_nest(const Any& expr, const std::vector<ir::For>& nest) {
  bool uses = false;
  walk(expr, {ir::visit<ir::Var>([&](const ir::Var& v) {
         for (const ir::For& l : nest) uses |= v.same_as(l.loop_var());
       })});
  return uses;
}

List zeros(const ir::TensorLoad& load) {
  List out;
  for (size_t d = 0; d < load.indices().size(); ++d) out.push_back(int_imm(0));
  return out;
}

}  // namespace

std::optional<std::pair<std::vector<Any>, Any>> stage_dram_element(const std::vector<Any>& kept,
                                                                   const std::vector<ir::For>& nest,
                                                                   const ir::BufferStore& store, int* count) {
  bool moves = false;  // a nest of one iteration reads one element as a block
  for (const ir::For& l : nest) moves |= !tileops::is_const_int(l.extent(), 1);
  if (!moves) return std::nullopt;
  std::vector<Any> before;
  std::vector<std::pair<Any, Any>> staged;  // element load -> its on-chip buffer
  Any value = map(store.value(), {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                    if (buffer_info(load.source()).on_chip()) return load.any();
                    for (const Any& index : load.indices()) {
                      if (uses_nest(index, nest)) return load.any();
                    }
                    for (const Any& k : kept) {  // nsa's mask bound, the value its step's condition reads
                      if (same(k, load.any())) return load.any();
                    }
                    for (const auto& [seen, buf] : staged) {  // the same element read twice: one copy
                      if (same(seen, load.any())) return call("tirx.BufferLoad", buf, zeros(load), Any(nullptr));
                    }
                    BufferInfo tensor = buffer_info(load.source());
                    List ones, ranges;
                    for (const Any& index : load.indices()) {
                      ones.push_back(int_imm(1));
                      ranges.push_back(call("ir.Range_from_min_extent", index, int_imm(1), Any(nullptr)));
                    }
                    Any buf = onchip_buffer(tensor.name + "_elt" + std::to_string((*count)++), tensor.dtype, ones,
                                            "shared");
                    before.push_back(call("tirx.AllocBuffer", buf, ffi::Map<String, Any>(), Any(nullptr)));
                    before.push_back(tile_call("tirx.tile.copy", List{full_region(buf),
                                                                      call("tirx.BufferRegion", load.source().any(), ranges)}));
                    staged.emplace_back(load.any(), buf);
                    return call("tirx.BufferLoad", buf, zeros(load), Any(nullptr));
                  })},
                  "post");
  if (staged.empty()) return std::nullopt;
  Any body = call("tirx.BufferStore", store.buffer().any(), value, store.indices(), Any(nullptr));
  for (size_t l = nest.size(); l-- > 0;) {
    const ir::For& f = nest[l];
    body = for_loop(f.loop_var(), f.min(), f.extent(), static_cast<int>(f.kind()), body, f.annotations());
  }
  return std::make_pair(before, body);
}

}  // namespace tl::loops
