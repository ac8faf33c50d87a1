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
// A DRAM column stored to every element of its row of a 2-D on-chip buffer (upstream gdn's chunk state:
// `G_shared[i_s2, i_v] = G[bb, i_s * block_S + i_s2, bh]`, the loop over i_v naming no dim of G) is the column read
// into a 1-D buffer by its own loop (a block copy) and then that vector's broadcast copy (tile_ops_tree.h).
// A float scalar assigned an element of a DRAM tensor (gdn's `G_last_local = G[bb, (i_s + 1) * block_S - 1, bh]`,
// then `G_last_local = T.exp2(G_last_local * 1.442695)`) is data no dataflow kernel can compute: it becomes a
// one-element on-chip buffer, the DRAM assignment a T.copy of the one-element block as above, any other assignment
// an element-wise nest of one iteration over it, and its reads that buffer's element 0 (broadcast where it meets a
// block).
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

std::optional<Any> broadcast_dram_column(const std::vector<ir::For>& nest, const ir::BufferStore& store,
                                         const ir::TensorLoad& load) {
  BufferInfo out = buffer_info(store.buffer()), tensor = buffer_info(load.source());
  List idx = store.indices();
  if (nest.size() != 2 || idx.size() != 2 || !out.on_chip() || tensor.on_chip()) return std::nullopt;
  std::vector<bool> read(2, false);  // which loop variables index the DRAM tensor
  for (size_t l = 0; l < 2; ++l) {
    const ir::For& f = nest[l];
    if (!idx[l].same_as(f.loop_var()) || !ir::IntImm::matches(f.extent()) || !tileops::is_zero(f.min())) {
      return std::nullopt;
    }
    for (const Any& index : load.indices()) read[l] = read[l] || uses_nest(index, {f});
  }
  if (read[0] == read[1]) return std::nullopt;  // a block (or gather) of the nest, or one element (above)
  const ir::For& l = nest[read[0] ? 0 : 1];
  Any v = call("ir.Var", String(l.loop_var().name()), l.loop_var().ty().any(), Any(nullptr));
  Any column = onchip_buffer(out.name + "_col", tensor.dtype, List{l.extent()}, "shared");
  Any element = map(load.any(), {ir::rewrite<ir::Var>([&](const ir::Var& x) -> Any {
                      return x.same_as(l.loop_var()) ? v : x.any();
                    })});
  Any fill = for_loop(v, l.min(), l.extent(), static_cast<int>(l.kind()),
                      call("tirx.BufferStore", column, element, List{v}, Any(nullptr)), l.annotations());
  Any value = map(store.value(), {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& x) -> Any {
                    return x.same_as(load) ? call("tirx.BufferLoad", column, List{l.loop_var()}, Any(nullptr))
                                           : x.any();
                  })});
  Any body = call("tirx.BufferStore", store.buffer().any(), value, idx, Any(nullptr));
  for (size_t n = nest.size(); n-- > 0;) {
    const ir::For& f = nest[n];
    body = for_loop(f.loop_var(), f.min(), f.extent(), static_cast<int>(f.kind()), body, f.annotations());
  }
  return seq_stmt(List{call("tirx.AllocBuffer", column, ffi::Map<String, Any>(), Any(nullptr)), fill, body});
}

Any dram_scalars_on_chip(const Any& body) {
  std::vector<std::pair<Any, Any>> moved;  // scalar -> its one-element on-chip buffer
  std::vector<Any> branching;  // scalars a condition reads or a branch assigns (argmax's `best`): left as they are
  walk(body, {ir::visit<ir::IfThenElse>([&](const ir::IfThenElse& cond) {
         walk(cond.condition(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                branching.push_back(l.source().any());
              })});
         walk(cond.any(), {ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) {
                branching.push_back(st.buffer().any());
              })});
       })});
  walk(body, {ir::visit<ir::BufferStore>([&](const ir::BufferStore& store) {
         BufferInfo info = buffer_info(store.buffer());
         if (info.scope != "local" || info.shape != std::vector<int64_t>{1} || info.index_scalar()) return;
         bool dram = false;
         walk(store.value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                dram = dram || !buffer_info(l.source()).on_chip();
              })});
         for (const auto& [seen, buf] : moved) dram = dram && !seen.same_as(store.buffer());
         for (const Any& b : branching) dram = dram && !b.same_as(store.buffer());
         if (dram) moved.emplace_back(store.buffer().any(), onchip_buffer(info.name, info.dtype, List{int_imm(1)}, "shared"));
       })});
  if (moved.empty()) return body;
  auto replacement = [&](const Any& var) -> std::optional<Any> {
    for (const auto& [seen, buf] : moved) {
      if (seen.same_as(var)) return buf;
    }
    return std::nullopt;
  };
  Any stores = map(body, {ir::rewrite<ir::BufferStore>([&](const ir::BufferStore& store) -> Any {
                     auto buf = replacement(store.buffer().any());
                     if (!buf) return store.any();
                     Any value = tileops::strip_casts(store.value());
                     if (auto load = ir::TensorLoad::from(value); load && !buffer_info(load->source()).on_chip()) {
                       List ranges;  // the one-element block of the tensor
                       for (const Any& index : load->indices()) {
                         ranges.push_back(call("ir.Range_from_min_extent", index, int_imm(1), Any(nullptr)));
                       }
                       return tile_call("tirx.tile.copy", List{full_region(*buf),
                                                               call("tirx.BufferRegion", load->source().any(), ranges)});
                     }
                     Any v = var("i_" + buffer_info(*buf).name, "int32");
                     Any own = map(store.value(), {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& l) -> Any {
                                     return l.source().same_as(store.buffer()) ? call("tirx.BufferLoad", *buf, List{v}, Any(nullptr))
                                                                              : l.any();
                                   })});
                     return for_loop(v, int_imm(0), int_imm(1), 0, call("tirx.BufferStore", *buf, own, List{v}, Any(nullptr)));
                   })},
                   "post");
  return map(stores, {ir::rewrite<ir::Var>([&](const ir::Var& x) -> Any { return replacement(x.any()).value_or(x.any()); })});
}

}  // namespace tl::loops
