// Expression trees and broadcasts of element-wise T.Parallel stores (tile_ops_util.h): a store whose value nests
// several operations, or combines a block x[i, j] with a [block_M] column vector v[i] (held as column-vector tiles,
// column 0 valid) or with a 1-D tensor w[j] (read by the reader as a row vector: row 0 of N/32 tiles, as
// InferTTLayout tiles a 1-D tensor) or with one element s[0] of a [1] buffer (a DRAM element copied on chip,
// loop_dram_element.cc: `*_tiles_bcast_scalar`, element (0, 0) of its tile), becomes one tile op per operation, in evaluation order, each writing a new on-chip value that the
// next reads; the last writes the store's buffer. An SFPU function of the value the previous op just made runs in
// that op (after its operation, in DST). Division by a buffer is its reciprocal (SFPU) times the dividend.
// Anything this cannot split (a DRAM read, shifted indices, another function) is refused naming the operand.
#include "ir_build.h"
#include "tile_ops_tree.h"

namespace tl::tileops {

using tree::Tree;

namespace {

// The nest with a loop of extent 1 in front for each leading dim of extent 1 that the store indexes at 0 beyond its
// loops (upstream clamp_value_range's `A_frag[0, i]` of a [1, N] fragment under one T.Parallel over i): the tree
// then reads such dims as it reads the variable of a loop of extent 1.
std::vector<ir::For> with_unit_dims(const std::vector<ir::For>& loops, const ir::BufferStore& store) {
  BufferInfo out = buffer_info(store.buffer());
  size_t extra = store.indices().size() > loops.size() ? store.indices().size() - loops.size() : 0;
  if (extra >= out.shape.size()) return loops;
  for (size_t d = 0; d < extra; ++d) {
    if (out.shape[d] != 1 || !is_const_int(store.indices()[d], 0)) return loops;
  }
  std::vector<ir::For> all;
  for (size_t d = 0; d < extra; ++d) {
    all.push_back(ir::For(for_loop(var("unit" + std::to_string(d), "int32"), int_imm(0), int_imm(1), 0,
                                   loops[0].any())));
  }
  all.insert(all.end(), loops.begin(), loops.end());
  return all;
}

}  // namespace

std::vector<TileOp> classify_store(const std::vector<ir::For>& nest, const ir::BufferStore& store, size_t first) {
  std::vector<Any> nest_vars;
  for (const ir::For& loop : nest) nest_vars.push_back(loop.loop_var());
  bool masked = masks::index_mask(nest_vars, store.any(), std::numeric_limits<int64_t>::max()).has_value();
  std::vector<ir::For> loops = masked ? nest : with_unit_dims(nest, store);
  UnitLoops unit(loops);  // TVM's Simplify reads the variable of a loop of extent 1 as 0 (blk_m = 1 row blocks)
  Tree tree(loops, store, first, nest[0].any());
  BufferInfo out = buffer_info(store.buffer());
  bool covers = store.indices().size() == loops.size();
  std::string uncovered = covers ? "" : std::to_string(store.indices().size()) + " indices in " +
                                            std::to_string(loops.size()) + " loops";
  for (size_t i = 0; covers && i < loops.size(); ++i) {
    auto extent = ir::IntImm::from(loops[i].extent());
    covers = is_index(store.indices()[i], loops[i].loop_var()) && extent && i < out.shape.size() &&
             extent->value() == out.shape[i];
    if (!covers) {
      uncovered = "index " + std::to_string(i) + " is " + format_value(store.indices()[i]) + " in the loop over " +
                  format_value(loops[i].loop_var()) + " of extent " + format_value(loops[i].extent());
    }
  }
  std::vector<Any> lvars;
  for (const ir::For& loop : loops) lvars.push_back(loop.loop_var());
  // A copy of an on-chip buffer of the store's shape and dtype at the loop indices (what a mask the analyzer proves
  // constant over the block leaves, `acc[i, j] = A_s[i, j]`) is T.copy's alias of one CB; in place it is nothing.
  if (auto load = ir::TensorLoad::from(store.value()); load && out.on_chip() && covers) {
    BufferInfo src = buffer_info(load->source());
    if (src.on_chip() && src.shape == out.shape && src.dtype == out.dtype && same_indices(load->indices(), lvars) &&
        load->indices().size() == lvars.size()) {
      if (src.var.same_as(out.var)) return {};
      return {TileOp{tile_op::kCopyLocal, nest[0], out, {src}}};
    }
  }
  // AddTTConstants refused the masks of unsupported forms and folded the constant ones.
  if (auto mask = masks::index_mask(lvars, store.any(), std::numeric_limits<int64_t>::max())) {
    if (!out.on_chip() || !covers) {
      fail("element-wise store '" + mask->text + "' must write an on-chip buffer whole " + ints_str(out.shape) +
           " with the loop variables as indices (T.Parallel over the buffer shape)" +
           (out.on_chip() ? "; " + uncovered : "; '" + out.name + "' is a DRAM tensor"));
    }
    return mask_ops(nest, out, *mask, first);
  }
  std::optional<std::vector<TileOp>> ops;
  if (out.on_chip() && covers) ops = tree.split(store.value());
  if (!ops && tree.bad()) {
    const auto& [expr, why] = *tree.bad();
    std::vector<Any> lvars;
    for (const ir::For& loop : loops) lvars.push_back(loop.loop_var());
    fail("element-wise store '" + out.name + "[...] = " + format_value(store.value()) + "': operand " +
         format_value(expr) + " " + (why.empty() ? refusal(expr, out, lvars) : why));
  }
  // A store the tree does not split (a copy, a constant, a T.Cast of a buffer, a DRAM store) and one op without a
  // broadcast are forms the op map has as they stand: the recogniser's own op and messages.
  if (!ops || (tree.size() == 1 && !tree.broadcasts() && !tree.clamps())) return {classify_eltwise(nest, store)};
  return *ops;
}

}  // namespace tl::tileops
