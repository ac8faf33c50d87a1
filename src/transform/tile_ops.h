// The TileLang tile operations of a kernel body (T.copy, T.fill, T.gemm and element-wise T.Parallel nests),
// recognised structurally; a kernel the Tenstorrent backend cannot lower is rejected here with a message naming
// the buffer or op and the rule it breaks.
#pragma once

#include <set>

#include "engines.h"

namespace tl {

struct TileOp {
  // copy_in | copy_out | rows_in | rows_out | tilize | untilize | atomic_in | atomic_out | copy_local | fill | mask | gemm |
  // transpose | eltwise | reduce | hold | release
  std::string kind;
  Any stmt;          // the statement the op replaces (the ops of one statement replace it in order)
  std::optional<BufferInfo> out;
  std::vector<BufferInfo> ins;
  /*! \brief What lower_tiles cases see of the op (names:: constants; generator/rules.py TILE_OP_FIELDS). */
  std::vector<std::pair<std::string, Any>> fields;
  std::optional<BufferInfo> tensor;  // copy_in/copy_out: the DRAM tensor
  std::vector<std::string> reads;    // stream keys (set by dataflow)
  std::vector<int64_t> waits;        // per read: 1 when this op waits for the CB's block (its first reader)
  std::vector<int64_t> pops;         // per read: 1 when this op frees the CB's block after it (its last reader)
  std::string writes;                // stream key
  std::string partial;               // gemm: stream key of the partial-sum CB, if one is needed
  std::string place;                 // "": replaces `stmt`; "before"/"after": goes before/after the loop `stmt`
  std::vector<Any> loops;            // the loops (For) around the op inside the block, outermost first
  /*! \brief A field by name (an internal error if absent). */
  const Any& get(const char* name) const;
};

/*! \brief The tensors a T.copy block slices across a leading dim while holding the second-to-last dim at one index
 * ((B, S, H, D) per head): InferTTLayout lays them out row-major (buffer.row_major). */
std::set<std::string> row_major_tensors(const Any& func);
/*! \brief The tile operations of a kernel's body, in program order (a tensor tt.buffers lays out row-major is read
 * and written by rows and tilized / untilized on chip). */
std::vector<TileOp> tile_ops(const Any& func);

}  // namespace tl
