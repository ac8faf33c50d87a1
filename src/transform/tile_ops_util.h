// Helpers shared by the tile-op recognisers (tile_ops.cc: copies, gemm, fill, the walk; tile_ops_eltwise.cc:
// element-wise stores).
#pragma once

#include <optional>
#include <utility>

#include "tile_ops.h"

namespace tl::tileops {

/*! \brief Extents and shapes in messages: "[64, 32]". */
std::string ints_str(const std::vector<int64_t>& xs);
/*! \brief The device tile (rows, cols). */
std::pair<int64_t, int64_t> tile_shape();
Any strip_casts(Any expr);
bool is_zero(const Any& e);
bool is_const_int(const Any& e, int64_t value);
/*! \brief The tiles of a 2-D on-chip buffer (rows, cols), or of a 1-D one [M] held as a column vector (M/32, 1);
 * other shapes are refused naming `what` and the buffer. */
std::pair<int64_t, int64_t> tiles(const BufferInfo& info, const std::string& what);

/*! \brief A tile-op operand: its buffer, where the region starts and its (static) extents. */
struct Region {
  BufferInfo info;
  std::vector<Any> mins;
  std::vector<int64_t> extents;
};
Region region_of(const Any& operand);
/*! \brief CBs hold whole blocks: an on-chip operand must be the whole buffer. */
void require_full(const Region& r, const std::string& op);

/*! \brief (loops, store) when `stmt` is a loop nest whose innermost body is one BufferStore. */
std::optional<std::pair<std::vector<ir::For>, ir::BufferStore>> eltwise_nest(Any stmt);
/*! \brief The element-wise op of a T.Parallel store, or a refusal naming the construct. */
TileOp classify_eltwise(const std::vector<ir::For>& loops, const ir::BufferStore& store);

/*! \brief A block of a tensor moved to (`in`) or from an on-chip buffer: a copy_in or copy_out op. */
TileOp tensor_copy(const ir::TilePrimitiveCall& stmt, const Region& tensor, const BufferInfo& onchip, bool in);
/*! \brief T.atomic_add's tile form (tile_ops_atomic.cc): atomic_in, an element-wise add, atomic_out. */
std::vector<TileOp> classify_atomic(const ir::TilePrimitiveCall& stmt);
/*! \brief The element form (a T.Parallel nest over a whole fragment) as the same three ops, or nullopt. */
std::optional<std::vector<TileOp>> atomic_nest(const ir::For& loop);
/*! \brief The turn fields of the atomic ops: member (blockIdx.z), members (the grid's z extent), step. */
void atomic_order(std::vector<TileOp>& ops, const Any& func);
/*! \brief A row reduction (tile_ops_reduce.cc), or a refusal naming the construct and what is accepted. */
TileOp classify_reduce(const ir::TilePrimitiveCall& stmt);
/*! \brief Before the first reduction of `ops`: the read of the scaler tile (the constant tensor of `func`) that
 * every reduction then reads as its second input. */
void add_reduce_scaler(std::vector<TileOp>& ops, const Any& func);
/*! \brief Before every T.copy out of a value carried across a loop (tile_loops.cc): a copy on chip into a buffer of
 * its own, which the writer reads (the carried CB's reader is the compute kernel). */
void copy_out_carried(std::vector<TileOp>& ops);

}  // namespace tl::tileops
