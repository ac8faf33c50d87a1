// IR helpers shared by the C++ pass engines (the twin of tilelang/tenstorrent/ir.py).
#pragma once

#include "builder.h"

namespace tl {

/*! \brief What the passes know of one buffer (a TVM 0.27 buffer is a Var with a BufferType). */
struct BufferInfo {
  Any var;
  std::string name;
  std::vector<int64_t> shape;
  std::string dtype;
  std::string scope;
  int64_t index = -1;  // position among the function's tensor parameters (-1 for on-chip buffers)
  bool on_chip() const { return scope != "global"; }
  /*! \brief The value spec expressions see as `buffer`: var, name, shape (a tuple), dtype, scope, index. */
  Dict ns() const;
};

/*! \brief Python ir.buffer_info (a dynamic shape is a lowering error naming the buffer). */
BufferInfo buffer_info(const Any& var, int64_t index = -1);
/*! \brief The buffer parameters of a PrimFunc, in order (ir.tensor_params). */
std::vector<BufferInfo> tensor_params(const Any& func);
/*! \brief The on-chip buffers a function allocates, in walk order (ir.onchip_buffers). */
std::vector<BufferInfo> onchip_buffers(const Any& func);
/*! \brief Every `tt.*` intrinsic call under `stmt`, in walk order (ir.tt_calls). */
std::vector<std::pair<const Intrinsic*, Any>> tt_calls(const Any& stmt);
/*! \brief Rewrite every Evaluate (post-order); `rewrite` returns a replacement or nullopt (ir.map_evaluates). */
Any map_evaluates(const Any& stmt, const std::function<std::optional<Any>(const Any&)>& rewrite);

}  // namespace tl
