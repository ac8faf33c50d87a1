// The pieces of the hook bind_cuda_threads (cuda_threads.cc) that the row reductions (cuda_reductions.cc) share.
#pragma once

#include "cpu_loops.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tl::cuda {

/*! \brief Buffer variables by identity (a block has a handful). */
struct VarSet {
  std::vector<Any> items;
  bool has(const Any& v) const {
    return std::any_of(items.begin(), items.end(), [&v](const Any& x) { return x.same_as(v); });
  }
  void add(const Any& v) {
    if (!has(v)) items.push_back(v);
  }
  void clear() { items.clear(); }
};

bool is_const_zero(const Any& e);
int64_t const_int(const Any& e);
bool is_fragment(const std::string& scope);
bool is_shared(const std::string& scope);

/*! \brief A perfect nest of serial loops from 0 over constant extents around one store (guarded or not). */
struct Nest {
  std::vector<ir::For> loops;
  Any inner;  // the loops' body: a BufferStore or an IfThenElse (no else) around one
  int64_t elements = 1;
  VarSet reads, writes;  // buffer variables
};

/*! \brief The nest when `stmt` is one, else nullopt. */
std::optional<Nest> element_nest(const Any& stmt);

/*! \brief Fragment buffer -> its partitioned local buffer. */
using Parts = std::vector<std::pair<Any, Any>>;

Any part_of(const Parts& parts, const Any& buffer);
/*! \brief The block's fragments (buffer -> partitioned local buffer) when every access of each is at its nest's
 * own element, else nullopt. */
std::optional<Parts> partition_fragments(const std::vector<Nest>& nests, const std::vector<Any>& allocs,
                                         const VarSet& replicated, int64_t threads);
/*! \brief The nest strided over the threads in runs of `width` elements (cuda_threads.cc). */
Any strided_nest(const Nest& nest, const Parts& parts, const Any& tx, int64_t threads, int64_t width,
                 int run_kind = 2);
/*! \brief Elements a thread takes at a time (one vector access of at most 16 bytes), else 1. */
int64_t vector_width(const std::vector<Nest>& nests, const Parts& parts, int64_t threads);
/*! \brief __syncthreads(). */
Any barrier();

/*! \brief A row reduction LowerTileOpsToLoops made of T.reduce_sum/max/min into a fragment of `rows` elements:
 * `for i... for r...: dst[i...] = combine(dst[i...], value)` (combine +, max or min; value not reading dst; the
 * leading `kept` loops index dst's non-unit dims in order, the others are reduced). */
struct Reduction {
  std::string kind;  // sum, max, min
  ir::BufferStore store;
  Any value;
  size_t kept = 0;
  int64_t rows = 1;
};

/*! \brief The most rows of one reduction a block reduces across its threads (one allreduce a row). */
inline constexpr int64_t kMaxReducedRows = 64;

/*! \brief The reduction nest and its reduction when `stmt` is one (cuda_reductions.cc), else nullopt. */
std::optional<std::pair<Nest, Reduction>> reduction_nest(const Any& stmt);
/*! \brief A reduction of several rows as LowerTileOpsToLoops writes it, `for i...: {dst[i...] = identity; for r...:
 * update}`, split into the initialization nest and the reduction nest (fresh loop variables for the first), else
 * {stmt}. */
std::vector<Any> split_row_reduction(const Any& stmt);
/*! \brief Whether `stmt` is serial loops around one store into a replicated fragment that reads only replicated
 * fragments: every thread runs it on its own copy alike. */
bool replicated_stmt(const Any& stmt, const VarSet& replicated);
bool writes_any(const Any& stmt, const VarSet& buffers);
/*! \brief A reduction on `threads` threads through TVM's tvm_thread_allreduce (cuda_reductions.cc). */
std::vector<Any> thread_reduction(const Nest& nest, const Reduction& red, const Parts& parts, const Any& tx,
                                  int64_t threads, int64_t width, bool barrier_first);

/*! \brief Whether `body` launches threadIdx itself (T.get_thread_binding) (cuda_sync.cc). */
bool launches_own_threads(const Any& body);
/*! \brief `func` with TVM's ThreadSync("shared") barriers between its own threads (cuda_sync.cc). */
Any sync_own_threads(const Any& func);

}  // namespace tl::cuda
