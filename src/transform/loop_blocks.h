// What the loop recognisers of LowerTTLoopsToTileOps share (loop_tile_ops.cc: copies, gemms, staged element-wise
// stores; loop_blocks.cc: which block of a buffer a loop nest moves; loop_views.cc: tensor views and overwritten
// blocks).
#pragma once

#include <functional>
#include <variant>

#include "cpu_loops.h"
#include "tile_ops_util.h"

namespace tl::loops {

/*! \brief Whether `a` and `b` are structurally equal (ffi.StructuralEqual, variables by identity). */
bool same(const Any& a, const Any& b);
/*! \brief Whether `node` names the variable `var`. */
bool names(const Any& node, const Any& var);
/*! \brief Whether `expr` loads an element of `buffer`. */
bool reads(const Any& expr, const Any& buffer);

/*! \brief "loop (i, j) storing dst[i, j] = value", for messages. */
std::string nest_text(const std::vector<ir::For>& loops, const ir::BufferStore& store);

/*! \brief How one buffer access depends on a nest's variables: per dim, the loop (index into the nest) that steps it
 * (-1: none) and the index with the nest's variables at zero. */
struct Placement {
  std::vector<int> loop_of_dim;
  std::vector<Any> base;
};
/*! \brief The placement of `indices` (each affine, every loop stepping one dim with stride 1), or why not. */
std::variant<Placement, std::string> place(const List& indices, const std::vector<ir::For>& loops);
/*! \brief The loops in the order of the dims they step. */
std::vector<int> dim_order(const Placement& p);
/*! \brief The region of `buffer` a placement covers over the loops' ranges. */
Any region(const Any& buffer, const Placement& p, const std::vector<ir::For>& loops);
Any full_region(const Any& buffer);
/*! \brief A new on-chip buffer (`scope` shared or local.fragment). */
Any onchip_buffer(const std::string& name, const std::string& dtype, const List& shape, const char* scope);
/*! \brief A tile primitive call (tirx.tile.copy, tirx.tile.gemm) of `args`. */
Any tile_call(const char* op, const List& args);

/*! \brief A block of a buffer that a nest moves: its region, and the loops in the order of the dims they step. */
struct Block {
  Any region;
  std::vector<int> order;
};
Any simplified(const cpu::Analyzer& analyzer, const Any& expr);
/*! \brief Rows [r0, r0 + rows) and columns [c0, c0 + cols) of a tensor's folded matrix as a region of the tensor,
 * when the rows start and end on whole sub-blocks of the dims they span; or why not. */
std::variant<Any, std::string> rows_region(const Any& buffer, const Any& r0, int64_t rows, const Any& c0, int64_t cols,
                                           const cpu::Analyzer& analyzer);
/*! \brief The block of `buffer` that `indices` (simplified over the loop ranges) read over the nest: a block slice,
 * or a block of consecutive rows of an N-D tensor's folded matrix; or why not. */
std::variant<Block, std::string> block_of(const Any& buffer, const List& indices, const std::vector<ir::For>& loops,
                                          const cpu::Analyzer& analyzer);

/*! \brief `func` with `body`, where tile ops on blocks of `T.Tensor((rows, cols), dtype, tensor.data)` views that are
 * a tensor's folded matrix become tile ops on the matrix (a tensor accessed only through views of one shape becomes
 * that 2-D tensor) or on the tensor's regions; the views go. */
Any resolve_views(const Any& func, const Any& body, const cpu::Analyzer& analyzer);
/*! \brief In a statement sequence, a tile op writing an on-chip block whole that is written whole again before
 * anything reads it is dropped (its CB would have no consumer), and so is a store of one DRAM element that a later
 * copy or fill of a block the analyzer proves holds it overwrites before anything else mentions the tensor. */
Any drop_overwritten(const Any& stmt, const cpu::Analyzer& analyzer);
/*! \brief A nest whose body is several stores (after bound values), each store a nest of its own in body order, when
 * every buffer the body writes is accessed there at one index naming each iteration's own element (loop_fission.cc);
 * otherwise the nest unchanged. */
Any split_nest(const Any& stmt);
/*! \brief For a nest (of more than one iteration) whose stored value reads elements of DRAM tensors that are the same
 * in every iteration (`sinks[i] = Sinks[by]`): the statements that copy each on chip into a new one-element buffer
 * (`<tensor>_elt<count>`, `count` incremented), and the nest reading those buffers at 0 (loop_dram_element.cc).
 * Elements an if's condition reads (`kept`) stay: the kernels read such a value for the if (tile_ops_flag_step.cc). */
std::optional<std::pair<std::vector<Any>, Any>> stage_dram_element(const std::vector<Any>& kept,
                                                                   const std::vector<ir::For>& nest,
                                                                   const ir::BufferStore& store, int* count);
/*! \brief `X[i, j] = T[f(i)]` over a nest of two loops into a 2-D on-chip buffer, where one loop names no dim of the
 * DRAM tensor T (a column stored to every element of its row): a new 1-D on-chip buffer `<X>_col` filled by its own
 * loop over the other, a block copy, then the nest storing `<X>_col[i]` (a broadcast copy); nothing otherwise
 * (loop_dram_element.cc). */
std::optional<Any> broadcast_dram_column(const std::vector<ir::For>& nest, const ir::BufferStore& store,
                                         const ir::TensorLoad& load);
/*! \brief Float scalars assigned an element of a DRAM tensor as one-element on-chip buffers: that assignment a
 * T.copy of the element, any other an element-wise nest of one iteration (loop_dram_element.cc). */
Any dram_scalars_on_chip(const Any& body);

/*! \brief `acc[i] = acc[i] + term` over a nest of two loops, i and k (a 1-D on-chip accumulator reduced over k:
 * gemv's per-thread dot product after SerializeThreads): the terms stored into a new [I, K] on-chip buffer, then
 * T.reduce_sum of its rows onto acc (loop_reductions.cc); nothing for any other nest. */
std::optional<Any> as_row_sum(const std::vector<ir::For>& loops, const ir::BufferStore& store);

/*! \brief Per-thread arrays and their loops as the block recognisers read them (loop_thread_arrays.cc): a loop that
 * runs its body at one iteration (`if tk == 0`) is that iteration, a loop around one store that does not name it
 * runs once, and (loop_array_shapes.cc) local arrays lose the dims every store fills alike and 2-D ones that a DRAM
 * copy fills in the other dim order are transposed, with the arrays stored together with them. */
Any normalize_thread_arrays(const Any& body);
/*! \brief Loop bodies `if c: X[idx] = a else: X[idx] = b` whose guard c names an enclosing loop's variable, as the
 * store `X[idx] = T.if_then_else(c, a, b)` (loop_guards.cc; an index mask where c is affine in the indices). */
Any guards_to_selects(const Any& body);
Any reshape_thread_arrays(const Any& body);
/*! \brief After loop fission: runs merged into one loop (loop_merge.cc), copied arrays transposed, idle loops dropped,
 * loops ordered as the stores' dims. */
Any settle_thread_arrays(const Any& body);
Any transpose_thread_arrays(const Any& body);
/*! \brief How an access's indices (a tile op's region: its ranges) map from one buffer to another. */
using IndexMap = std::function<List(const List&)>;
/*! \brief `body` with `from` replaced by `to` (allocation, element accesses, tile-op regions), every access's indices
 * mapped by `f` (loop_array_shapes.cc). */
Any remap(const Any& body, const Any& from, const Any& to, const IndexMap& f);
/*! \brief On-chip buffers used in parts as whole buffers (loop_onchip_parts.cc): a dim every access indexes at the
 * same enclosing loop's variable is dropped (`A_shared[b, :, :]`: one slice reused per iteration); a 2-D buffer whose
 * tile ops use tile-aligned parts becomes one buffer per part (a whole T.clear clears each part; a part no tile op
 * uses goes). Anything else stays as it is (refused later, naming the buffer). */
Any split_onchip_parts(const Any& body);
Any merge_runs(const Any& body);

}  // namespace tl::loops
