// The streams of a kernel's tile operations and their circular buffers (tile_dataflow.h).
#include "tile_dataflow.h"

#include <algorithm>
#include <map>

#include "tile_ops_util.h"

namespace tl {
namespace {

// The streams in creation order (CB indices are given in this order), with the current stream of each buffer.
class Streams {
 public:
  std::vector<Stream> all;

  Stream* find(const std::string& key) {
    for (Stream& s : all) {
      if (s.key == key) return &s;
    }
    return nullptr;
  }
  // A stream replaces the one of the same key in place, or is appended.
  void put(Stream s) {
    if (Stream* old = find(s.key)) {
      *old = std::move(s);
    } else {
      all.push_back(std::move(s));
    }
  }
  const std::string* current_of(const std::string& name) const {
    for (const auto& [buffer, key] : current_) {
      if (buffer == name) return &key;
    }
    return nullptr;
  }
  void set_current(const std::string& name, const std::string& key) {
    for (auto& [buffer, k] : current_) {
      if (buffer == name) {
        k = key;
        return;
      }
    }
    current_.emplace_back(name, key);
  }
  // A new value of a buffer: a new stream that later reads of the buffer consume.
  std::string create(const BufferInfo& info, const std::string& dtype, const std::string& producer, int64_t pages) {
    int64_t& version = versions_[info.name];
    ++version;
    std::string key = info.name + "#" + std::to_string(version);
    put(Stream{key, info, dtype, pages, producer, op_index});
    set_current(info.name, key);
    return key;
  }
  std::string read(const BufferInfo& info, const std::string& consumer, const std::string& op) {
    const std::string* key = current_of(info.name);
    if (key == nullptr) fail(op + " reads on-chip buffer '" + info.name + "' before anything writes it");
    Stream* s = find(*key);
    s->consumers.push_back(consumer);
    s->consumer_ops.push_back(op_index);
    return *key;
  }
  size_t op_index = 0;  // the op whose reads are being recorded

 private:
  std::vector<std::pair<std::string, std::string>> current_;  // buffer name -> stream key
  std::map<std::string, int64_t> versions_;
};

// Whether every op making `key` is a zero fill (a value made in both arms of an if/else has two).
bool is_zero_fill(const std::vector<TileOp>& ops, const std::string& key) {
  bool any = false;
  for (const TileOp& op : ops) {
    if (op.writes != key) continue;
    if (op.kind != tile_op::kFill || tileops::fill_constant(op) != std::optional<double>(0.0)) return false;
    any = true;
  }
  return any;
}

// The else arm's op `made` makes the value its then arm's op `twin` makes (arm_twin, the if/else at `depth`): both
// push one CB (the stream made first; any other op that pushed made's stream, in an if/else nested in the else arm,
// pushes it too), which the reads after the if/else consume, whichever arm ran. One CB has one producer kernel and
// one block size.
void join_twin(Streams& streams, std::vector<TileOp>& ops, const TileOp& made, const TileOp& twin, size_t depth) {
  if (made.writes == twin.writes) return;
  Stream* mine = streams.find(made.writes);
  const Stream* theirs = streams.find(twin.writes);
  if (mine == nullptr || theirs == nullptr) internal_error("a value made in both arms has no stream");
  auto differ = [&](const std::string& what, const std::string& a, const std::string& b) {
    fail("on-chip buffer '" + made.out->name + "' is made in both arms of (if " +
         format_value(made.branches[depth - 1].condition) + ") by ops of different " + what + " (" + a + " in the "
         "then arm, " + b + " in the else arm); the tenstorrent backend pushes both arms' values into one CB, which "
         "has one producer kernel, one block size and one data format");
  };
  if (mine->producer != theirs->producer) differ("kernels", theirs->producer, mine->producer);
  if (mine->pages != theirs->pages) {
    differ("block sizes", std::to_string(theirs->pages) + " tiles", std::to_string(mine->pages) + " tiles");
  }
  if (mine->dtype != theirs->dtype) differ("dtypes", theirs->dtype, mine->dtype);
  std::string from = made.writes, key = twin.writes;
  streams.all.erase(streams.all.begin() + (mine - streams.all.data()));
  for (TileOp& op : ops) {
    if (op.writes == from) op.writes = key;
  }
  streams.set_current(made.out->name, key);
}

// A gemm consumes its operands and the zero fill of its accumulator (absorbed: the accumulation starts from
// zero), and accumulates through a partial-sum CB when the caller's rule says so.
void gemm_streams(std::vector<TileOp>& ops, TileOp& op, Streams& streams, const NeedsPartial& needs_partial) {
  const BufferInfo& acc = *op.out;
  op.reads = {streams.read(op.ins[0], roles::kCompute, "T.gemm"), streams.read(op.ins[1], roles::kCompute, "T.gemm")};
  if (op.ins.size() > 2) op.reads.push_back(streams.read(op.ins[2], roles::kCompute, "T.gemm's condition"));  // flag
  const std::string* init = streams.current_of(acc.name);
  Stream* init_stream = init ? streams.find(*init) : nullptr;
  bool zero_start = init_stream != nullptr && init_stream->producer == roles::kCompute &&
                    init_stream->consumers.empty() && is_zero_fill(ops, *init);
  if (!zero_start && !truthy(op.get(names::kClear))) {
    fail("T.gemm accumulates into '" + acc.name + "', which must be cleared first (T.clear(" + acc.name +
         ") right before the K loop, or clear_accum=True for a product that starts from zero)");
  }
  if (zero_start) init_stream->absorbed = true;  // DST starts at zero: the fill needs no CB
  int64_t pages = as_int(op.get(names::kMt)) * as_int(op.get(names::kNt));
  op.writes = streams.create(acc, acc.dtype, roles::kCompute, pages);
  if (needs_partial(op, pages)) {
    std::string key = acc.name + "#partial";
    Stream partial{key, acc, acc.dtype, pages, roles::kCompute, streams.op_index};
    partial.consumers = {roles::kCompute};
    partial.consumer_ops = {streams.op_index};
    streams.put(std::move(partial));
    op.partial = key;
  }
}

void op_streams(std::vector<TileOp>& ops, TileOp& op, Streams& streams, const NeedsPartial& needs_partial) {
  if (op.kind == tile_op::kCopyIn || op.kind == tile_op::kAtomicIn || op.kind == tile_op::kRowsIn ||
      op.kind == tile_op::kIm2colIn) {
    const BufferInfo& tensor = *op.tensor;
    if (tensor.dtype != op.out->dtype) {
      fail("T.copy from '" + tensor.name + "' (" + tensor.dtype + ") to '" + op.out->name + "' (" + op.out->dtype +
           ") converts dtype; the reader moves raw tile pages, so the on-chip buffer must have the tensor's dtype");
    }
    int64_t pages = as_int(op.get(names::kRows)) * as_int(op.get(names::kCols));
    op.writes = streams.create(*op.out, op.out->dtype, roles::kReader, pages);
  } else if (op.kind == tile_op::kCopyOut || op.kind == tile_op::kAtomicOut || op.kind == tile_op::kRowsOut) {
    op.reads = {streams.read(op.ins[0], roles::kWriter, "T.copy to '" + op.tensor->name + "'")};
    streams.find(op.reads[0])->dtype = op.tensor->dtype;  // pages leave as the tensor's format (pack converts)
  } else if (op.kind == tile_op::kFlagIn) {  // a branch's value: the tile holding it, for the compute kernel
    op.writes = streams.create(*op.out, op.out->dtype, roles::kReader, 1);
  } else if (op.kind == tile_op::kFlagRead) {
    op.reads = {streams.read(op.ins[0], roles::kCompute, "the compute kernel's read of a branch's value")};
  } else if (op.kind == tile_op::kFlagOwn) {  // the writer's own copy: it pushes and frees the page itself
    op.writes = streams.create(*op.out, op.out->dtype, roles::kWriter, 1);
    op.reads = {streams.read(*op.out, roles::kWriter, "the writer's read of a branch's value")};
  } else if (op.kind == tile_op::kTurnPass) {  // the writer's turn of program-ordered atomic adds: no CB
  } else if (op.kind == tile_op::kCopyLocal) {
    const std::string* key = streams.current_of(op.ins[0].name);
    if (key == nullptr) fail("T.copy reads on-chip buffer '" + op.ins[0].name + "' before anything writes it");
    std::string shared = *key;
    streams.set_current(op.out->name, shared);  // the same CB now also holds the destination's value
  } else if (op.kind == tile_op::kFill) {
    op.writes = streams.create(*op.out, op.out->dtype, roles::kCompute, as_int(op.get(names::kTiles)));
  } else if (op.kind == tile_op::kGemm) {
    gemm_streams(ops, op, streams, needs_partial);
  } else if (op.kind == tile_op::kTranspose || op.kind == tile_op::kTilize || op.kind == tile_op::kUntilize ||
             op.kind == tile_op::kCumsum || op.kind == tile_op::kTypecast) {
    // a gemm operand's transposed value, a block of a row-major tensor (un)tilized on chip, a cumulative sum, or an
    // integer block converted to or from a float one
    const char* reader = op.kind == tile_op::kTranspose ? "T.gemm"
                         : op.kind == tile_op::kCumsum  ? "T.cumsum"
                         : op.kind == tile_op::kTypecast ? "a T.Cast store"
                                                 : "T.copy";
    op.reads.clear();  // a reverse cumsum reads the block and its negation
    for (const BufferInfo& info : op.ins) op.reads.push_back(streams.read(info, roles::kCompute, reader));
    int64_t pages = op.kind == tile_op::kTypecast ? as_int(op.get(names::kTiles))
                                          : as_int(op.get(names::kRows)) * as_int(op.get(names::kCols));
    op.writes = streams.create(*op.out, op.out->dtype, roles::kCompute, pages);
  } else if (op.kind == tile_op::kReduce) {  // source block, scaler tile, and (clear=False) the previous value
    std::string what = "T.reduce_" + as_str(op.get(names::kPool)) + " into '" + op.out->name + "'";
    for (const BufferInfo& info : op.ins) op.reads.push_back(streams.read(info, roles::kCompute, what));
    op.writes = streams.create(*op.out, op.out->dtype, roles::kCompute, as_int(op.get(names::kRows)));
  } else {  // eltwise
    for (const BufferInfo& info : op.ins) {
      op.reads.push_back(streams.read(info, roles::kCompute, "element-wise store to '" + op.out->name + "'"));
    }
    op.writes = streams.create(*op.out, op.out->dtype, roles::kCompute, as_int(op.get(names::kTiles)));
  }
}

// Every CB is consumed by one kernel; its class follows from who produces and consumes it. A value several
// element-wise stores or reductions read (whole blocks) is waited for by the first of them and stays in its CB until
// the last, which frees it; any other CB has exactly one reader.
void classify(std::vector<Stream>& live, std::vector<TileOp>& ops) {
  for (Stream& s : live) {
    if (s.consumers.empty()) {
      fail("on-chip buffer '" + s.buffer.name + "' is written but its value is never used (every CB needs a consumer)");
    }
    bool shared_ok = true;
    for (size_t op : s.consumer_ops) {
    const std::string& k = ops[op].kind;
    // cumsum_block: wait0/pop0
    shared_ok = shared_ok && (k == tile_op::kEltwise || k == tile_op::kSelect || k == tile_op::kReduce ||
                              k == tile_op::kCumsum || k == tile_op::kGemm ||  // whole blocks (a gemm's per K step)
                              k == tile_op::kMask);  // a table's tiles, copied at an index (mask_block: wait0/pop0)
  }
    if (s.consumers.size() > 1 && !shared_ok && !s.carried) {  // a carried value's reads: place_waits
      std::string readers;
      for (size_t op : s.consumer_ops) readers += (readers.empty() ? "" : ", ") + ops[op].kind;
      fail("on-chip buffer '" + s.buffer.name + "' is read by " + std::to_string(s.consumers.size()) +
           " tile operations (" + readers + "); only element-wise stores, reductions, T.cumsum, T.gemm and index "
           "tables' copies may share a value, any other reader needs its own copy (T.copy it to another buffer first)");
    }
    s.cls = s.producer == roles::kReader ? "input" : s.consumers[0] == roles::kWriter ? "output" : "intermediate";
    // The first reader waits for the block and the last frees it; readers in between find it in the CB.
    TileOp& first = ops[s.consumer_ops.front()];
    for (size_t r = 0; r < first.reads.size(); ++r) {
      if (first.reads[r] == s.key) {
        first.waits[r] = 1;
        break;
      }
    }
    TileOp& last = ops[s.consumer_ops.back()];
    for (size_t r = last.reads.size(); r-- > 0;) {
      if (last.reads[r] == s.key) {
        last.pops[r] = 1;
        break;
      }
    }
  }
}

// The last op index at which `s`'s block is in its CB: its last read, or the end of the loop a read is in when the
// producer is not in that loop (a held value stays for all iterations).
size_t live_until(const std::vector<TileOp>& ops, const Stream& s) {
  size_t end = s.producer_op;
  const std::vector<Any>& level = ops[s.producer_op].loops;
  for (size_t r : s.consumer_ops) {
    end = std::max(end, r);
    if (ops[r].loops.size() <= level.size()) continue;
    const Any& loop = ops[r].loops[level.size()];
    for (size_t o = r; o < ops.size(); ++o) {
      for (const Any& l : ops[o].loops) {
        if (l.same_as(loop)) end = std::max(end, o);
      }
    }
  }
  return end;
}

// More intermediate values than CBs (the pieces of split stores): a value whose block is freed before another is
// made shares that one's CB (greedy in program order; compute-made element-wise values and reductions only, not
// carried ones, of one data format and block size, as a CB's waits must divide its capacity). `wider`: also fills and
// masks (index blocks, a per-head scalar's fill: retention), where the first sharing still leaves too many.
void share_dead(std::vector<Stream>& live, const std::vector<TileOp>& ops, bool wider = false) {
  struct Group {
    size_t rep, end;
  };
  std::vector<Group> groups;
  std::vector<bool> merged(live.size(), false);
  for (size_t i = 0; i < live.size(); ++i) {
    Stream& s = live[i];
    const std::string& kind = ops[s.producer_op].kind;
    bool shareable = s.cls == "intermediate" && !s.carried &&
                     (kind == tile_op::kEltwise || kind == tile_op::kReduce ||
                      (wider && (kind == tile_op::kFill || kind == tile_op::kMask)));  // whole compute-made blocks
    if (!shareable) continue;
    size_t end = live_until(ops, s);
    Group* fit = nullptr;
    for (Group& g : groups) {
      bool same = live[g.rep].dtype == s.dtype && live[g.rep].pages == s.pages;  // waits must divide the capacity
      if (g.end < s.producer_op && same) fit = fit ? fit : &g;
    }
    if (fit == nullptr) {
      groups.push_back({i, end});
      continue;
    }
    Stream& rep = live[fit->rep];
    rep.shares.push_back(s.key);
    fit->end = end;
    merged[i] = true;
  }
  std::vector<Stream> kept;
  for (size_t i = 0; i < live.size(); ++i) {
    if (!merged[i]) kept.push_back(std::move(live[i]));
  }
  live = std::move(kept);
}

// CB indices: each class numbers its streams in order from the first index of its device range; intermediate values
// beyond the range share the CBs of dead ones, then take the CBs the other classes leave free.
void assign_indices(std::vector<Stream>& live, const std::vector<TileOp>& ops) {
  Any ranges = attr(device(), "CB_RANGES");
  Any inter = item(ranges, Any(String("intermediate")));
  int64_t room = as_int(item(inter, Any(int64_t(1)))) - as_int(item(inter, Any(int64_t(0)))) + 1;
  auto inter_count = [](const std::vector<Stream>& v) {
    return std::count_if(v.begin(), v.end(), [](const Stream& s) { return s.cls == "intermediate"; });
  };
  if (inter_count(live) > room) {
    std::vector<Stream> narrow = live;
    share_dead(narrow, ops);
    int64_t others = static_cast<int64_t>(live.size()) - inter_count(live);  // input and output CBs
    if (inter_count(narrow) <= as_int(attr(device(), "MAX_CBS")) - others) {
      live = std::move(narrow);
    } else {
      share_dead(live, ops, true);
    }
  }
  std::vector<bool> used(static_cast<size_t>(as_int(attr(device(), "MAX_CBS"))), false);
  for (const char* cls : {"input", "output", "intermediate"}) {
    Any range = item(ranges, Any(String(cls)));
    int64_t first = as_int(item(range, Any(int64_t(0)))), last = as_int(item(range, Any(int64_t(1))));
    std::vector<Stream*> members;
    for (Stream& s : live) {
      if (s.cls == cls) members.push_back(&s);
    }
    std::vector<int64_t> free;  // the range, then (for intermediate values) the CBs no other class uses
    for (int64_t i = first; i <= last; ++i) free.push_back(i);
    bool spill = std::string(cls) == "intermediate";
    for (size_t i = 0; spill && i < used.size(); ++i) {
      if (!used[i] && (static_cast<int64_t>(i) < first || static_cast<int64_t>(i) > last)) free.push_back(i);
    }
    if (members.size() > free.size()) {
      std::string listed;
      for (const Stream* s : members) listed += (listed.empty() ? "" : ", ") + s->buffer.name;
      fail(std::string("too many ") + cls + " CBs: " + std::to_string(members.size()) + " on-chip values (" + listed +
           ") but CBs " + std::to_string(first) + "-" + std::to_string(last) + " hold only " +
           std::to_string(last - first + 1) + (spill ? " (with the " + std::to_string(free.size() - (last - first + 1)) +
           " CBs of other ranges the kernel leaves free, " + std::to_string(free.size()) + "; values whose blocks are "
           "freed before another of their size is made already share a CB)" : ""));
    }
    for (size_t offset = 0; offset < members.size(); ++offset) {
      members[offset]->index = free[offset];
      used[static_cast<size_t>(free[offset])] = true;
    }
  }
}

}  // namespace

std::vector<Stream> dataflow(std::vector<TileOp>& ops, int64_t stages, const ExprMap& depth,
                             const NeedsPartial& needs_partial) {
  Streams streams;
  for (size_t i = 0; i < ops.size(); ++i) {
    streams.op_index = i;
    op_streams(ops, ops[i], streams, needs_partial);
    for (size_t d = ops[i].branches.size(); d > 0 && !ops[i].writes.empty(); --d) {
      auto twin = arm_twin(ops, i, d);
      if (!twin) break;
      join_twin(streams, ops, ops[i], ops[*twin], d);
    }
    ops[i].waits.assign(ops[i].reads.size(), 0);
    ops[i].pops.assign(ops[i].reads.size(), 0);
  }
  std::vector<Stream> live;
  for (const Stream& s : streams.all) {
    if (!s.absorbed) live.push_back(s);
  }
  carry_streams(ops, live);
  classify(live, ops);
  place_waits(ops, live);
  assign_indices(live, ops);
  for (Stream& s : live) {
    std::string cls = s.carried ? "carried" : s.cls;
    const Expr* expr = nullptr;
    for (const auto& [c, e] : depth) {
      if (c == cls) expr = &e;
    }
    if (expr == nullptr) internal_error("the dataflow rule gives no depth for " + cls + " CBs");
    s.pages_depth = as_int((*expr)(Ctx{{names::kPages, Any(s.pages)}, {names::kStages, Any(stages)}}));
  }
  return live;
}

Any strip_onchip_allocs(const Any& body) {
  return map(body, {ir::rewrite<ir::AllocBuffer>([](const ir::AllocBuffer& stmt) -> Any {
               BufferInfo info = buffer_info(stmt.buffer());  // index scalars stay: every kernel keeps its own
               return info.on_chip() && !info.index_scalar() ? evaluate(int_imm(0)) : stmt.any();
             })},
             "post");
}

}  // namespace tl
