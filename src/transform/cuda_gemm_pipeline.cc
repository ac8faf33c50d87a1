// A CUDA block's T.Pipelined loop of tile copies and gemms (the hook bind_cuda_threads, cuda_gemm.h) as cp.async
// multi-buffering: which loops qualify and with how many stages (their emission: cuda_gemm_emit.cc).
#include "cuda_gemm.h"

#include "engine_common.h"

#include <functional>

namespace tl::cuda {

int64_t stages_of(const std::vector<std::pair<Any, int64_t>>& pairs, const Any& key) {
  for (const auto& [k, stages] : pairs) {
    if (k.same_as(key)) return stages;
  }
  return 0;
}

namespace {

constexpr int64_t kStaticSharedBytes = 48 * 1024;  // CUDA's most static shared memory a block

int64_t tile_bytes(const Any& tile) {
  BufferInfo info = buffer_info(tile);
  return info.shape[0] * info.shape[1] * 2;  // 16-bit elements
}

/*! \brief The loop's num_stages annotation (T.Pipelined), else 0. */
int64_t num_stages(const ir::For& loop) {
  Any n = to_plain(get(Dict(loop.annotations()), "num_stages", Any(nullptr)));
  return is_int(n) ? n.cast<int64_t>() : 0;
}

/*! \brief The tiles a loop body of copies (16-byte pieces) and then gemms copies, else nullopt. */
std::optional<VarSet> pipelined_tiles(const std::vector<GemmItem>& body) {
  VarSet tiles;
  size_t i = 0;
  for (; i < body.size() && body[i].role == GemmRole::kCopy; ++i) {
    if (!body[i].copy.vec || tiles.has(body[i].copy.shared)) return std::nullopt;
    tiles.add(body[i].copy.shared);
  }
  if (i == 0 || i == body.size()) return std::nullopt;
  for (; i < body.size(); ++i) {
    if (body[i].role != GemmRole::kGemm) return std::nullopt;
  }
  return tiles;
}

}  // namespace

void plan_pipelines(GemmPlan& plan) {
  VarSet tiles, copied_twice;
  int64_t bytes = 0;
  std::function<void(const std::vector<GemmItem>&)> scan = [&](const std::vector<GemmItem>& items) {
    for (const GemmItem& item : items) {
      if (item.role == GemmRole::kAlloc && is_shared(buffer_info(ir::AllocBuffer(item.stmt).buffer()).scope)) {
        bytes += tile_bytes(ir::AllocBuffer(item.stmt).buffer());
      }
      if (item.role == GemmRole::kCopy) {
        if (tiles.has(item.copy.shared)) copied_twice.add(item.copy.shared);
        tiles.add(item.copy.shared);
      }
      scan(item.body);
    }
  };
  scan(plan.items);
  for (const GemmItem& item : plan.items) {
    if (item.role != GemmRole::kLoop) continue;
    int64_t stages = num_stages(ir::For(item.stmt));
    auto copied = pipelined_tiles(item.body);
    if (stages < 2 || !copied) continue;
    auto elsewhere = [&](const Any& t) { return copied_twice.has(t); };
    if (std::any_of(copied->items.begin(), copied->items.end(), elsewhere)) continue;
    int64_t extra = 0;  // one more buffer of each copied tile a stage
    for (const Any& t : copied->items) extra += tile_bytes(t);
    while (stages >= 2 && bytes + extra * (stages - 1) > kStaticSharedBytes) --stages;
    if (stages < 2) continue;
    bytes += extra * (stages - 1);
    plan.pipelines.emplace_back(item.stmt, stages);
    for (const Any& t : copied->items) plan.staged.emplace_back(t, stages);
  }
}

}  // namespace tl::cuda
