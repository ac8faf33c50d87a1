// A CUDA block's T.gemm on tensor cores (the hook bind_cuda_threads, cuda_threads.cc): the pieces cuda_gemm.cc
// (matching and planning) and cuda_gemm_emit.cc (the bound block) share. The device code is the package's header
// tl_cuda/gemm_mma.h (src/cuda/include), called by name.
#pragma once

#include "cuda_threads.h"

namespace tl::cuda {

/*! \brief A gemm nest LowerTileOpsToLoops made of T.gemm: `for i, k, j: C[i, j] = C[i, j] + float(A[i, k]) *
 * float(B[k, j])` (A[k, i] when ta, B[j, k] when tb) over whole 2-D buffers; A, B shared fp16/bf16, C a float32
 * fragment. */
struct Gemm {
  Any a, b, c;
  int64_t m = 0, n = 0, k = 0;
  bool ta = false, tb = false;
};

/*! \brief A whole shared tile copied from a global tensor: `for i, j: S[i, j] = G[..., r0 + i, c0 + j]`. */
struct TileCopy {
  Any shared, global;
  List start;  // G's indices of the tile's first element
  int64_t rows = 0, cols = 0, ld = 0;
  bool vec = false;  // 16-byte pieces: start and ld provably 8-element aligned
};

/*! \brief How the warps tile an accumulator: WM x WN warps. */
struct WarpGrid {
  int64_t wm = 0, wn = 0;
};

enum class GemmRole { kAlloc, kAccNest, kCopy, kGemm, kLoop };

/*! \brief One statement of a tensor-core block. */
struct GemmItem {
  GemmRole role = GemmRole::kAlloc;
  Any stmt;
  std::optional<Nest> nest;  // kAccNest
  TileCopy copy;
  Gemm gemm;
  std::vector<GemmItem> body;  // kLoop: the serial loop's statements
};

/*! \brief A block whose fragments are all gemm accumulators and whose shared buffers are all gemm operands. */
struct GemmPlan {
  std::vector<GemmItem> items;
  std::vector<std::pair<Any, WarpGrid>> accumulators;  // fragment -> its warp grid
  int64_t threads = 0;
  std::vector<std::pair<Any, int64_t>> pipelines;  // T.Pipelined loop statement -> its stages (cp.async)
  std::vector<std::pair<Any, int64_t>> staged;     // operand tile a pipeline copies -> its stages (buffers)
};

/*! \brief The stages of `key` in `pairs` (a loop or a tile), 0 when none. */
int64_t stages_of(const std::vector<std::pair<Any, int64_t>>& pairs, const Any& key);
/*! \brief The block's T.Pipelined loops that run as cp.async multi-buffering (cuda_gemm_pipeline.cc): a loop of
 * num_stages >= 2 whose body is tile copies (16-byte pieces) and then gemms, each tile copied nowhere else; its
 * stages reduced until the block's static shared memory fits 48 KiB (fewer than 2: not pipelined). */
void plan_pipelines(GemmPlan& plan);

std::optional<GemmPlan> plan_gemm_block(const Any& body, int64_t threads);
/*! \brief The planned block on its threads (cuda_gemm_emit.cc). */
Any emit_gemm_block(const GemmPlan& plan);
/*! \brief The block on `threads` threads with tensor cores when it is a GEMM block this engine proves correct. */
std::optional<Any> bind_gemm_block(const Any& body, int64_t threads);

}  // namespace tl::cuda
