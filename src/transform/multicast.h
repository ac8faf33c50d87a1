// The multicast engine's planning (multicast.cc): which block reads a core row (column) shares, and the per-core
// runtime arguments and semaphores their multicast adds; multicast_prefix.cc splits loops whose trip count differs
// across the cores of a row (column) into the shared prefix and the per-core rest.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine_common.h"

namespace tl::mcast {

using BlockRead = std::pair<Any, std::vector<std::string>>;  // call, enclosing step loop names

/*! \brief The calls of `op` with the constant-extent loops around them (the per-core loop is looked through). */
void block_reads(const Any& stmt, const std::string& op, const std::vector<std::string>& loops,
                 std::vector<BlockRead>& out);

struct CoreFacts {
  List cores;  // (x, y) per work item
  int64_t cores_x = 0, cores_y = 0;
  bool uniform = false;  // every core has as many blocks, and the cores fill a rectangle from (0, 0)
};
CoreFacts core_facts(const List& work);

// A rule of the multicast engine, and what it adds to the kernel while it rewrites the reads.
struct Planner {
  std::string pass, tensor_arg, index_arg, emit;
  Expr when;
  ExprMap runtime_args;
  ExprMap args;
  List sem_names;
  std::optional<Expr> prefix;
  CoreFacts cores;
  Dict launch;
  Ctx facts;
  List new_args, sems;      // runtime argument names and semaphores added
  std::vector<Dict> values;  // per core: runtime argument values

  /*! \brief 'row' / 'column' when the read's block index depends on one launch variable (and step loops) only,
   * else 'none'. */
  std::string along(const Any& read, const std::vector<std::string>& loops) const;
  /*! \brief The rule's facts for a read (its arguments, the partition, along and receivers). */
  Ctx context(const Any& read, const std::vector<std::string>& loops) const;
  // The multicast call replacing one block read, or nullopt when the rule's `when` does not hold.
  std::optional<Any> replace(const Any& read, const std::vector<std::string>& loops);

 private:
  void add_runtime_args(const Ctx& ctx, const std::string& source, Ctx& bound);
  void add_semaphores(const std::string& source, Ctx& bound);
};

/*! \brief `body` with each loop whose trip count differs across the cores of a group (and whose reads of `op` the
 * rule multicasts, and its `prefix` allows) split into the iterations every core of the group runs, whose reads
 * are multicast, and the rest, read per core (multicast_prefix.cc). The CBs those reads fill are added to `single`:
 * a multicast lands at the sender's CB address on every receiver, so their CBs must stay in lock step, which the
 * per-core rest breaks unless each is one block deep (its write pointer then is its base at every block). */
Any split_prefix_loops(const Any& body, Planner& p, const std::string& op, const List& work_args,
                       std::set<int64_t>& single);

/*! \brief CB descriptors (tt.cbs) with the CBs of `single` one block deep. */
List one_block_deep(const List& cbs, const std::set<int64_t>& single);

}  // namespace tl::mcast
