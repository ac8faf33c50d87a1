// One element of a DRAM tensor read as a value in a loop nest (LowerTTLoopsToTileOps, loop_tile_ops.cc): TileLang's
// attention-sink forward fills a fragment row with one element per head (`sinks[i] = Sinks[by]`), its layernorm
// backward reads a row statistic per row (`m_v = Mean[row]`, folded into the element-wise expression that uses it).
// The element is the same in every iteration of the nest: no block of the nest holds it, and the tenstorrent
// backend moves DRAM by blocks of tiles (or row pages) and has no broadcast of a single element read from DRAM
// into compute yet (issue 28). Such a nest is refused naming the element, the tensor, the loop and the store.
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

}  // namespace

void refuse_dram_element(const std::vector<ir::For>& nest, const ir::BufferStore& store) {
  bool moves = false;  // a nest of one iteration reads one element as a block
  for (const ir::For& l : nest) moves |= !tileops::is_const_int(l.extent(), 1);
  if (!moves) return;
  std::optional<ir::TensorLoad> element;
  walk(store.value(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& load) {
         if (element || buffer_info(load.source()).on_chip()) return;
         bool indexed = false;
         for (const Any& index : load.indices()) indexed |= uses_nest(index, nest);
         if (!indexed) element = load;
       })});
  if (!element) return;
  fail(nest_text(nest, store) + " reads one element " + format_value(element->any()) + " of DRAM tensor '" +
       ir::Var(element->source()).name() + "', the same in every iteration of the loop, and uses it as a value " +
       "across on-chip buffer '" + ir::Var(store.buffer()).name() + "'; the tenstorrent backend reads DRAM by " +
       "blocks of tiles and cannot yet broadcast a single DRAM element into a compute kernel (issue 28)");
}

}  // namespace tl::loops
