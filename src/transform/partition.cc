// The partition engine: the blocks of the TileLang grid assigned to the cores of the device, either in block
// order ("global": balanced contiguous ranges), as rectangles of the grid ("shard": balanced rows x columns), or
// for a kernel with T.atomic_add by split-K groups ("split"); "zigzag" is shard over the folded x positions that
// GridToPersistentTT's binding unfolds (0, gx - 1, 1, gx - 2, ...).
#include <algorithm>
#include <array>
#include <map>

#include <functional>

#include "engine_common.h"
#include "tile_dataflow.h"
#include "records.h"

namespace tl {
namespace {

namespace wi = records::work_item;  // the keys of a work_partition entry

// divmod-balanced (start, size) ranges of `total` items over `parts`.
std::vector<std::pair<int64_t, int64_t>> balanced(int64_t total, int64_t parts) {
  if (parts == 0) internal_error("work balanced over zero parts");
  int64_t base = total / parts, rem = total % parts, start = 0;
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t i = 0; i < parts; ++i) {
    int64_t size = base + (i < rem ? 1 : 0);
    out.emplace_back(start, size);
    start += size;
  }
  return out;
}

// Launch extents by thread tag (sorted, so the first unsupported one is the one reported).
std::map<std::string, int64_t> launch_extents(const Any& func) {
  std::map<std::string, int64_t> extents;
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::AttrStmt>([&](const ir::AttrStmt& stmt) {
         auto launch = launch_of(stmt);
         if (!launch) return;
         std::string tag = launch->thread_tag();
         ir::Expr value = stmt.value();
         if (!ir::IntImm::matches(value)) fail("launch extent of " + tag + " is dynamic (" + format_value(value) + ")");
         extents[tag] = ir::IntImm(value).value();
       })});
  return extents;
}

// Row-wise maximal ranges [x0, y0, x1, y1] covering the used cores, identical x-spans of consecutive rows merged
// (the CoreRangeSet the host program creates its kernels and CBs on).
List core_ranges(const std::vector<std::pair<int64_t, int64_t>>& cores) {
  std::map<int64_t, std::vector<int64_t>> by_row;
  for (const auto& [x, y] : cores) by_row[y].push_back(x);
  std::vector<std::array<int64_t, 4>> ranges;
  for (auto& [y, xs] : by_row) {
    std::sort(xs.begin(), xs.end());
    int64_t start = xs[0], prev = xs[0];
    for (size_t i = 1; i <= xs.size(); ++i) {
      if (i < xs.size() && xs[i] == prev + 1) {
        prev = xs[i];
        continue;
      }
      ranges.push_back({start, y, prev, y});
      if (i < xs.size()) start = prev = xs[i];
    }
  }
  std::vector<std::array<int64_t, 4>> merged;
  for (const auto& r : ranges) {
    if (!merged.empty() && merged.back()[0] == r[0] && merged.back()[2] == r[2] && merged.back()[3] + 1 == r[1]) {
      merged.back()[3] = r[3];
    } else {
      merged.push_back(r);
    }
  }
  List out;
  for (const auto& r : merged) out.push_back(list({r[0], r[1], r[2], r[3]}));
  return out;
}

struct Assignment {
  List work;  // one entry per core with work
  std::vector<std::pair<int64_t, int64_t>> cores;
};

Assignment assign_global(int64_t gx, int64_t gy, int64_t cx, int64_t cy) {
  Assignment a;
  int64_t total = gx * gy;
  auto ranges = balanced(total, std::min(total, cx * cy));
  for (size_t i = 0; i < ranges.size(); ++i) {
    int64_t x = static_cast<int64_t>(i) % cx, y = static_cast<int64_t>(i) / cx;
    a.cores.emplace_back(x, y);
    a.work.push_back(ordered({{wi::kCore, list({x, y})}, {wi::kStart, ranges[i].first},
                              {wi::kCount, ranges[i].second}}));
  }
  return a;
}

Assignment assign_shard(int64_t gx, int64_t gy, int64_t cx, int64_t cy) {
  Assignment a;
  auto rows = balanced(gy, std::min(gy, cy));
  auto cols = balanced(gx, std::min(gx, cx));
  for (size_t y = 0; y < rows.size(); ++y) {
    for (size_t x = 0; x < cols.size(); ++x) {
      auto [row0, nrows] = rows[y];
      auto [col0, ncols] = cols[x];
      a.cores.emplace_back(x, y);
      a.work.push_back(ordered({{wi::kCore, list({int64_t(x), int64_t(y)})}, {wi::kRow0, row0}, {wi::kCol0, col0},
                                {wi::kRows, nrows}, {wi::kCols, ncols}, {wi::kCount, nrows * ncols}}));
    }
  }
  return a;
}

// Split-K groups (T.atomic_add): the gz members of one output block run on gz consecutive cores (row-major),
// member k taking blockIdx.z = k; the groups of cores share the gx * gy output blocks in balanced ranges, so
// every member of a group is at the same step of the same range (their turns never wait on a later step).
Assignment assign_split(int64_t gx, int64_t gy, int64_t gz, int64_t cx, int64_t cy) {
  if (gz > cx * cy) {
    fail("T.atomic_add reduces the " + std::to_string(gz) + " blocks along blockIdx.z of each output block on as "
         "many cores at once, but core_grid [" + std::to_string(cx) + ", " + std::to_string(cy) + "] has " +
         std::to_string(cx * cy) + " cores; use a smaller split (grid z extent) or more cores");
  }
  Assignment a;
  auto ranges = balanced(gx * gy, std::min(gx * gy, cx * cy / gz));
  for (size_t g = 0; g < ranges.size(); ++g) {
    for (int64_t k = 0; k < gz; ++k) {
      int64_t core = static_cast<int64_t>(g) * gz + k, x = core % cx, y = core / cx;
      a.cores.emplace_back(x, y);
      a.work.push_back(ordered({{wi::kCore, list({x, y})}, {wi::kStart, ranges[g].first}, {wi::kCount, ranges[g].second},
                                {wi::kZ, k}}));
    }
  }
  return a;
}

// Programs in turn order (T.atomic_add in program order, stream-K): program p on core p % cores, so every core's
// programs follow those of the core before it one for one (PlanTTAtomicOrder's turn: each core's counter is only
// incremented by the previous core, in the order it runs its programs).
Assignment assign_round_robin(int64_t total, int64_t cx, int64_t cy) {
  Assignment a;
  int64_t cores = std::min(total, cx * cy);
  for (int64_t c = 0; c < cores; ++c) {
    int64_t x = c % cx, y = c / cx;
    a.cores.emplace_back(x, y);
    a.work.push_back(ordered({{wi::kCore, list({x, y})}, {wi::kStart, c}, {wi::kCount, (total - c + cores - 1) / cores},
                              {wi::kStride, cores}}));
  }
  return a;
}

// Whether a T.atomic_add sits inside a while loop or a branch (stream-K's fix-up): its targets are chosen at run
// time, so the adds are ordered by program (tile_ops_atomic.cc) rather than by split-K group.
bool has_ordered_atomic(const Any& body, bool inside) {
  bool found = false;
  walk(body, {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
         found = found || (inside && call.op().name() == "tl.tile.atomic_add");
       }),
              ir::visit<ir::While>([&](const ir::While& w) { found = found || has_ordered_atomic(w.body(), true); }),
              ir::visit<ir::IfThenElse>([&](const ir::IfThenElse& b) {
                found = found || has_ordered_atomic(b.then_case(), true) ||
                        (!is_none(b.else_case()) && has_ordered_atomic(b.else_case(), true));
              })});
  return found;
}

// Whether some T.atomic_add's target index depends on no block index (directly or through values bound to one): every
// program adds onto the same block (layernorm backward's dgamma), which only the program order keeps exact.
bool has_shared_atomic_target(const Any& func) {
  std::vector<Any> block_vars;  // the launch variables, then the values bound from them
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::AttrStmt>([&](const ir::AttrStmt& stmt) {
                                     auto launch = launch_of(stmt);
                                     if (launch) block_vars.push_back(launch->var().any());
                                   })});
  auto uses_block = [&](const Any& expr) {
    bool found = false;
    walk(expr, {ir::visit<ir::Var>([&](const ir::Var& v) {
           for (const Any& b : block_vars) found = found || v.same_as(b);
         })});
    return found;
  };
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::Bind>([&](const ir::Bind& b) {
         if (uses_block(b.value().any())) block_vars.push_back(b.var().any());
       })});
  bool shared = false;
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
         if (call.op().name() == "tl.tile.atomic_add" && !uses_block(call.args()[0])) shared = true;
       })});
  return shared;
}

bool has_atomic(const Any& func) {
  bool found = false;
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
         found = found || call.op().name() == "tl.tile.atomic_add";
       })});
  return found;
}

// Whether a loop's extent depends on blockIdx.x (through values bound to it, as TileLang's causal `loop_range`): the
// work of a block then grows or shrinks with x, and pairing x with gx - 1 - x on a core balances it.
bool work_varies_with_x(const Any& func) {
  Any x;
  std::vector<std::pair<Any, Any>> lets;
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::AttrStmt>([&](const ir::AttrStmt& stmt) {
                                     auto launch = launch_of(stmt);
                                     if (launch && launch->thread_tag() == "blockIdx.x") x = launch->var().any();
                                   }),
                                   ir::visit<ir::Bind>([&](const ir::Bind& b) {
                                     lets.emplace_back(b.var().any(), b.value().any());
                                   })});
  if (x == nullptr) return false;
  std::function<bool(const Any&, int)> uses_x = [&](const Any& expr, int depth) {
    bool found = false;
    walk(expr, {ir::visit<ir::Var>([&](const ir::Var& v) {
           if (found || depth > 8) return;
           if (v.same_as(x)) found = true;
           for (const auto& [var, value] : lets) {
             if (v.same_as(var) && uses_x(value, depth + 1)) found = true;
           }
         })});
    return found;
  };
  bool varies = false;
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::For>([&](const ir::For& loop) {
         varies = varies || uses_x(loop.extent().any(), 0);
       })});
  return varies;
}

}  // namespace

namespace engines {

Any partition(const std::string& name, const Dict& options, const PartitionParams& params) {
  const Checks& require = params.require;
  const std::optional<Expr>& auto_shard = params.auto_shard;
  return prim_func_pass(name, [=](const Any& func) -> Any {
    std::map<std::string, int64_t> extents = launch_extents(func);
    for (const auto& [tag, extent] : extents) {
      if (tag.rfind("blockIdx.", 0) != 0) {
        fail("launch dimension " + tag + " is not supported by the tenstorrent backend (T.Kernel grids are 1-D, 2-D "
             "or 3-D; threads are implicit)");
      }
    }
    int64_t gx = extents.count("blockIdx.x") ? extents["blockIdx.x"] : 1;
    int64_t gz = extents.count("blockIdx.z") ? extents["blockIdx.z"] : 1;
    // A 3-D grid is partitioned as the 2-D grid of its x and (z, y) rows: blockIdx.z folds into the rows.
    int64_t gy = (extents.count("blockIdx.y") ? extents["blockIdx.y"] : 1) * gz;
    Any grid = option(options, "core_grid");
    int64_t cx = as_int(item(grid, Any(int64_t(0)))), cy = as_int(item(grid, Any(int64_t(1))));
    Ctx ctx{{names::kGridX, Any(gx)}, {names::kGridY, Any(gy)}, {names::kCoresX, Any(cx)},
            {names::kCoresY, Any(cy)}};
    check(require, "", ctx);
    std::string mode = as_str(option(options, "mode"));
    if (has_atomic(func)) mode = "split";  // the members of a split-K group need cores of their own
    if (mode == "split" && gz == 1 &&
        (has_ordered_atomic(ir::PrimFunc(func).body(), false) || has_shared_atomic_target(func))) {
      mode = "streamk";
    }
    if (mode == "auto") mode = auto_shard && truthy((*auto_shard)(ctx)) ? "shard" : "global";
    // Where auto shards a kernel whose blocks' work varies with x (a loop bound computed from blockIdx.x), fold x.
    bool chosen = as_str(option(options, "mode")) == "auto";
    if (mode == "shard" && chosen && work_varies_with_x(fold_constant_scalars(func))) mode = "zigzag";
    Assignment a = mode == "streamk"  ? assign_round_robin(gx * gy, cx, cy)
                   : mode == "split"  ? assign_split(gx, gy / gz, gz, cx, cy)
                   : mode == "global" ? assign_global(gx, gy, cx, cy)
                                      : assign_shard(gx, gy, cx, cy);  // shard and zigzag (folded x positions)
    return with_attrs(func, {{keys::kTtCoreGrid, list({cx, cy})},
                             {keys::kTtGridBlocks, list({gx, gy / gz, gz})},
                             {keys::kTtPartitionMode, String(mode)},
                             {keys::kTtWorkPartition, a.work},
                             {keys::kTtCoreRanges, core_ranges(a.cores)}});
  });
}

}  // namespace engines
}  // namespace tl
