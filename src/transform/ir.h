// What the engines read of a PrimFunc: its buffers, thread launches and intrinsic calls.
#pragma once

#include "builder.h"
#include "traversal.h"

namespace tl {

/*! \brief What the passes know of one buffer (a TVM 0.27 buffer is a Var with a BufferType). */
struct BufferInfo {
  Any var;
  std::string name;
  std::vector<int64_t> shape;
  std::string dtype;
  std::string scope;
  int64_t index = -1;  // position among the function's tensor parameters (-1 for on-chip buffers)
  bool row_major = false;  // a tensor a T.copy block slices across a leading dim (set by the annotate engine)
  bool transposed = false;  // a 2-D tensor every T.copy moves one column of: DRAM holds its transpose (annotate)
  /*! \brief A tensor's DRAM shape, its tiled dims padded to whole blocks of whole tiles, and per dim the extent of
   * the blocks laid out one per tile run (0: none; set by the annotate engine, tile_padding.cc). */
  std::vector<int64_t> padded, blocks;
  bool on_chip() const { return scope != "global"; }
  /*! \brief An integer scalar (a one-element local buffer, as TVMScript makes an assignment) that every kernel keeps
   * as a variable of its own: a loop-carried index (scalars.cc). */
  bool index_scalar() const {
    return scope == "local" && shape == std::vector<int64_t>{1} && (dtype.rfind("int", 0) == 0 || dtype.rfind("uint", 0) == 0);
  }
  /*! \brief The value spec expressions see as `buffer`: var, name, shape (a tuple), dtype, scope, index, on_chip,
   * row_extent (shape[-2]; 0 for 1-D), row_major, transposed, padded (the shape when not set), blocks. */
  Dict ns() const;
};

/*! \brief The buffer a buffer variable names (a dynamic shape is a lowering error naming the buffer). */
BufferInfo buffer_info(const Any& var, int64_t index = -1);
/*! \brief The buffer parameters of a PrimFunc, in order. */
std::vector<BufferInfo> tensor_params(const Any& func);
/*! \brief The on-chip buffers a function allocates, in walk order (their names must be unique). */
std::vector<BufferInfo> onchip_buffers(const Any& func);
/*! \brief The launch variable of a thread launch (`attr_key` thread_extent on an IterVar), else nullopt. */
std::optional<ir::IterVar> launch_of(const ir::AttrStmt& stmt);
/*! \brief Every intrinsic call under `stmt`, in walk order. */
std::vector<std::pair<const Intrinsic*, Any>> tt_calls(const Any& stmt);
/*! \brief Rewrite every Evaluate (post-order); `rewrite` returns a replacement or nullopt. */
Any map_evaluates(const Any& stmt, const std::function<std::optional<Any>(const ir::Evaluate&)>& rewrite);

}  // namespace tl
