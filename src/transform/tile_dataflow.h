// The dataflow between the on-chip buffers of a kernel's tile operations: every value a tile op writes is a
// stream, and every stream becomes one circular buffer (index by class range, depth by the rule's expression).
#pragma once

#include <functional>

#include "tile_ops.h"

namespace tl {

struct Stream {
  std::string key;  // "<buffer>#<version>", or "<buffer>#partial"
  BufferInfo buffer;
  std::string dtype;  // dtype of the CB pages
  int64_t pages = 0;  // tiles of one block
  std::string producer;
  size_t producer_op = 0;               // the op (index in program order) that writes it
  std::vector<std::string> consumers;   // the role of each read
  std::vector<size_t> consumer_ops;     // the op (index in program order) of each read
  bool absorbed = false;  // a zero fill that a gemm's accumulation absorbs (no CB)
  bool carried = false;   // carried across the iterations of a loop: holds the old block and the new one
  std::vector<std::string> shares;  // the keys of other streams in this CB (values dead before the next is made)
  std::string cls;        // input | output | intermediate
  int64_t index = -1;
  int64_t pages_depth = 0;
};

/*! \brief The data format and page bytes of a CB that holds a block-float DRAM tensor's pages. */
struct BlockFloatCB {
  Any data_format;
  int64_t page_bytes = 0;
};
/*! \brief By stream key, the CBs a copy fills from, or drains into, a tensor stored as a block float in DRAM
 * (tt.buffers' dram_format; tile_dram_formats.cc); refuses a block-float tensor that another op than a whole-block
 * copy moves, and a CB between two tensors of different formats. */
std::map<std::string, BlockFloatCB> block_float_cbs(const Any& func, const std::vector<TileOp>& ops,
                                                   const std::vector<Stream>& streams);

/*! \brief Whether a gemm (its tile op, the tiles of its output block) accumulates through a partial-sum CB. */
using NeedsPartial = std::function<bool(const TileOp& gemm, int64_t pages)>;

/*! \brief Streams of the ops' inputs and outputs with CB indices and depths (`depth`: class -> expression
 * over `pages` and `stages`); sets the ops' reads/writes/partial. */
std::vector<Stream> dataflow(std::vector<TileOp>& ops, int64_t stages, const ExprMap& depth,
                             const NeedsPartial& needs_partial);

/*! \brief Values kept across loop iterations (tile_loops.cc): a value written in a loop and read in the next
 * iteration shares the CB of the value it starts from (`streams` loses the loop's stream); a value read in a loop
 * it was not made in is refused unless it is loop-invariant or carried. Before the streams are classified. */
void carry_streams(std::vector<TileOp>& ops, std::vector<Stream>& streams);
/*! \brief Who waits for and frees each stream's block: a value read inside a loop it was not made in is waited for
 * before the loop and freed after it (hold/release ops appended to `ops`); a carried value is waited for and freed
 * in every iteration. After the streams are classified. */
void place_waits(std::vector<TileOp>& ops, const std::vector<Stream>& streams);

/*! \brief The function with its scalars written once with index arithmetic (scalars.cc: one-element local buffers,
 * as TVMScript makes every assignment, e.g. a loop bound, or an index named inside a loop and read only there)
 * replaced by the value where read, their writes removed. */
Any fold_constant_scalars(const Any& func);
/*! \brief The function with each on-chip buffer that one T.copy fills from DRAM and only if conditions read
 * replaced, in those conditions, by the tensor's element, the copy removed (tile_ops_flag.cc; called by
 * fold_constant_scalars). */
Any fold_condition_copies(const Any& func);

/*! \brief Replace the allocations of on-chip buffers by no-ops (their storage is now the CBs). */
Any strip_onchip_allocs(const Any& body);

}  // namespace tl
