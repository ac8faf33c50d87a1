// The TileLang tile operations of a kernel and the dataflow between its on-chip buffers (the twin of
// tilelang/tenstorrent/tileops.py): recognition is structural, every stream becomes one circular buffer.
#pragma once

#include "engines.h"

namespace tl {

/*! \brief Annotation of the per-core loop made by the persistent engine. */
extern const char* const PERSISTENT_LOOP;

struct TileOp {
  std::string kind;  // copy_in | copy_out | copy_local | fill | gemm | eltwise
  Any stmt;          // the statement the op replaces
  std::optional<BufferInfo> out;
  std::vector<BufferInfo> ins;
  /*! \brief The op's fields in Python's dict order; expression contexts start from them. */
  std::vector<std::pair<std::string, Any>> fields;
  std::optional<BufferInfo> tensor;  // copy_in/copy_out: the DRAM tensor (fields' tensor_info)
  std::vector<std::string> reads;    // stream keys
  std::string writes;                // stream key
  std::string partial;               // gemm: stream key of the partial-sum CB, if one is needed
  /*! \brief A field by name (a RuntimeError if absent). */
  const Any& get(const std::string& name) const;
};

struct Stream {
  std::string key;
  BufferInfo buffer;
  std::string dtype;  // dtype of the CB pages
  int64_t pages = 0;  // tiles of one block
  std::string producer;
  std::vector<std::string> consumers;
  bool absorbed = false;  // a zero fill that a gemm's accumulation absorbs (no CB)
  std::string cls;
  int64_t index = -1;
  int64_t pages_depth = 0;
};

/*! \brief The tile operations of a kernel body, in program order. */
std::vector<TileOp> tile_ops(const Any& body);

/*! \brief Streams of the ops' inputs and outputs with CB indices and depths (`depth`: class -> expression
 * over `pages` and `stages`); sets the ops' reads/writes/partial. */
std::vector<Stream> dataflow(std::vector<TileOp>& ops, int64_t stages, const ExprMap& depth);

/*! \brief Replace the allocations of on-chip buffers by no-ops (their storage is now the CBs). */
Any strip_onchip_allocs(const Any& body);

}  // namespace tl
