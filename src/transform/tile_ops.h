// The TileLang tile operations of a kernel body (T.copy, T.fill, T.gemm and element-wise T.Parallel nests),
// recognised structurally; a kernel the Tenstorrent backend cannot lower is rejected here with a message naming
// the buffer or op and the rule it breaks.
#pragma once

#include "engines.h"

namespace tl {

struct TileOp {
  std::string kind;  // copy_in | copy_out | atomic_in | atomic_out | copy_local | fill | gemm | transpose | eltwise | reduce | hold | release
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

/*! \brief The tile operations of a kernel's body, in program order. */
std::vector<TileOp> tile_ops(const Any& func);

}  // namespace tl
