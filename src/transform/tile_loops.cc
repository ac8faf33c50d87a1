// On-chip values kept across the iterations of a loop inside the block (tile_dataflow.h): loop-invariant values
// (made before a loop, read in every iteration: waited for once before the loop, freed after it) and carried values
// (a buffer the loop reads and then rewrites: one CB holding the old block and the new one, the old freed in every
// iteration after its last read). Everything else that crosses a loop boundary is refused, naming buffer and loop.
#include <algorithm>

#include "tile_dataflow.h"
#include "tile_ops_util.h"

namespace tl {
namespace {

using Loops = std::vector<Any>;

bool is_prefix(const Loops& outer, const Loops& inner) {
  if (outer.size() > inner.size()) return false;
  for (size_t i = 0; i < outer.size(); ++i) {
    if (!outer[i].same_as(inner[i])) return false;
  }
  return true;
}

std::string loop_name(const Any& loop) { return loop_label(loop); }

std::string reader_name(const TileOp& op) {
  if (op.kind == tile_op::kCopyOut) return "T.copy to '" + op.tensor->name + "'";
  if (op.kind == tile_op::kEltwise) return "an element-wise store to '" + op.out->name + "'";
  if (op.kind == tile_op::kReduce) return "T.reduce_" + as_str(op.get(names::kPool)) + " into '" + op.out->name + "'";
  if (op.kind == tile_op::kTranspose) return "an on-chip transpose (of a gemm operand or a 1-D copy)";
  if (op.kind == tile_op::kCumsum) return "T.cumsum into '" + op.out->name + "'";
  if (op.kind == tile_op::kTypecast) return "a T.Cast store to '" + op.out->name + "'";
  return "T." + op.kind;
}

// Element-wise stores, reductions, gemms and index masks (their table) read a block without freeing it (whole-block
// reads, wait/pop flags).
void require_block_reader(const TileOp& reader, const Stream& s, const Any& loop, const std::string& why) {
  const std::string& k = reader.kind;
  if (k == tile_op::kEltwise || k == tile_op::kSelect || k == tile_op::kReduce || k == tile_op::kGemm ||
      k == tile_op::kMask) {
    return;
  }
  fail("on-chip buffer '" + s.buffer.name + "' is " + why + " loop " + loop_name(loop) + " and read inside it by " +
       reader_name(reader) + ", which waits for and frees its operand itself; only element-wise stores, "
       "reductions and gemms can read a value that stays in its CB across iterations (copy it to another buffer inside the "
       "loop)");
}

// The loop of `reader` the stream's producer is not in (nullptr: same level), or a refusal when the producer is in
// a loop the reader is not (a value written in every iteration and read after the loop), except a gemm's K loop.
const Any* entered_loop(const std::vector<TileOp>& ops, const Stream& s, size_t reader) {
  const TileOp& prod = ops[s.producer_op];
  const Loops& p = prod.loops;
  const Loops& r = ops[reader].loops;
  if (is_prefix(p, r)) return p.size() < r.size() ? &r[p.size()] : nullptr;
  Loops k_loop = r;
  if (prod.kind == tile_op::kGemm && !p.empty()) k_loop.push_back(p.back());
  // after the K loop
  if (prod.kind == tile_op::kGemm && k_loop.size() == p.size() && is_prefix(k_loop, p)) return nullptr;
  const Any& loop = p[std::min(r.size(), p.size() - 1)];
  fail("on-chip buffer '" + s.buffer.name + "' is written in every iteration of loop " + loop_name(loop) +
       " and read after it by " + reader_name(ops[reader]) + "; only a value the loop carries (read in the loop "
       "before it is rewritten, starting from a value made before the loop, e.g. T.clear) or a gemm accumulator "
       "can be read after the loop");
}

void rename_reads(std::vector<TileOp>& ops, const std::string& from, const std::string& to) {
  for (TileOp& op : ops) {
    for (std::string& k : op.reads) {
      if (k == from) k = to;
    }
    if (op.writes == from) op.writes = to;
  }
}

// The last stream of `s`'s buffer written directly in `loop` (the value the next iteration reads), or nullptr.
Stream* loop_value(std::vector<TileOp>& ops, std::vector<Stream>& streams, const Stream& s, const Any& loop) {
  Stream* last = nullptr;
  for (Stream& t : streams) {
    const TileOp& w = ops[t.producer_op];
    if (&t == &s || t.buffer.name != s.buffer.name || w.kind == tile_op::kGemm ||
        t.key.find("#partial") != std::string::npos) {
      continue;
    }
    auto at = std::find_if(w.loops.begin(), w.loops.end(), [&](const Any& l) { return l.same_as(loop); });
    if (at == w.loops.end()) continue;
    if (at + 1 != w.loops.end()) {
      fail("on-chip buffer '" + s.buffer.name + "' is carried across loop " + loop_name(loop) + " but rewritten in "
           "the nested loop " + loop_name(*(at + 1)) + "; a value carried across two nested loops is not supported "
           "by the tenstorrent backend (carry it across one loop)");
    }
    last = &t;
  }
  return last;
}

// `s` starts the value `loop` carries and `next` is the loop's new value: one CB (the old block, then the new one).
void merge_carried(std::vector<TileOp>& ops, Stream& s, const Stream& next, const Any& loop) {
  const TileOp& init = ops[s.producer_op];
  if (init.kind == tile_op::kCopyIn) {
    fail("on-chip buffer '" + s.buffer.name + "' is carried across loop " + loop_name(loop) + " but starts as a T.copy "
         "from tensor '" + init.tensor->name + "' (the reader kernel) while the loop computes it (the compute kernel); "
         "a CB has one producer, so start it on chip (T.clear / T.fill) or copy it into another buffer first");
  }
  Loops inside = init.loops;
  inside.push_back(loop);
  for (size_t r : s.consumer_ops) {
    if (ops[r].loops.size() != inside.size() || !is_prefix(inside, ops[r].loops)) {
      fail("on-chip buffer '" + s.buffer.name + "' is carried across loop " + loop_name(loop) + " but also read " +
           (is_prefix(inside, ops[r].loops) ? "in a nested loop" : "outside it before the loop") + " by " +
           reader_name(ops[r]) + "; a carried value is read only directly in its loop and after it");
    }
    require_block_reader(ops[r], s, loop, "carried across");
  }
  for (size_t r : next.consumer_ops) {
    if (is_prefix(inside, ops[r].loops)) {
      fail("on-chip buffer '" + s.buffer.name + "' is carried across loop " + loop_name(loop) + " and read in the "
           "loop after it is rewritten, by " + reader_name(ops[r]) + "; the tenstorrent backend reads a carried "
           "value in the loop only before the loop rewrites it (write the new value to another buffer first)");
    }
    if (ops[r].kind == tile_op::kCopyOut || ops[r].kind == tile_op::kGemm) {
      fail("on-chip buffer '" + s.buffer.name + "' is carried across loop " + loop_name(loop) + " and read after "
           "it by " + reader_name(ops[r]) + "; a carried value's CB is read by the compute kernel only");
    }
  }
  rename_reads(ops, next.key, s.key);
  s.consumers.insert(s.consumers.end(), next.consumers.begin(), next.consumers.end());
  s.consumer_ops.insert(s.consumer_ops.end(), next.consumer_ops.begin(), next.consumer_ops.end());
  s.carried = true;
}

void set_flag(TileOp& op, const std::string& key, std::vector<int64_t>& flags, bool first) {
  for (size_t i = 0; i < op.reads.size(); ++i) {
    size_t r = first ? i : op.reads.size() - 1 - i;
    if (op.reads[r] == key) {
      flags[r] = 1;
      return;
    }
  }
}

TileOp hold_op(const char* kind, const Any& loop, const Stream& s, const Loops& loops) {
  TileOp op{kind, loop};
  op.place = std::string(kind) == tile_op::kHold ? "before" : "after";
  op.loops = loops;
  op.ins = {s.buffer};
  op.reads = {s.key};
  op.waits = {0};
  op.pops = {0};
  op.fields = {{names::kPages, Any(s.pages)}};
  return op;
}

// One span of reads of a block: the first waits for it and the last frees it, each before/after the loop it is in
// when that loop is not the producer's (a hold/release op around the loop).
void place_span(std::vector<TileOp>& ops, std::vector<TileOp>& added, const Stream& s, const std::vector<size_t>& reads,
                const Loops& level) {
  const TileOp& first = ops[reads.front()];
  const TileOp& last = ops[reads.back()];
  if (first.loops.size() > level.size()) {
    added.push_back(hold_op(tile_op::kHold, first.loops[level.size()], s, level));
  } else {
    set_flag(ops[reads.front()], s.key, ops[reads.front()].waits, true);
  }
  if (last.loops.size() > level.size()) {
    added.push_back(hold_op(tile_op::kRelease, last.loops[level.size()], s, level));
  } else {
    set_flag(ops[reads.back()], s.key, ops[reads.back()].pops, false);
  }
  for (size_t r : reads) {
    if (ops[r].loops.size() > level.size()) require_block_reader(ops[r], s, ops[r].loops[level.size()], "made before");
    if (s.carried && reads.size() > 1 && ops[r].kind != tile_op::kEltwise && ops[r].kind != tile_op::kSelect &&
        ops[r].kind != tile_op::kReduce) {
      fail("on-chip buffer '" + s.buffer.name + "' is read by " + std::to_string(reads.size()) + " tile operations, "
           "one of them " + reader_name(ops[r]) + "; only element-wise stores and reductions may share a value, any "
           "other reader needs its own copy (T.copy it to another buffer first)");
    }
  }
}

// The reads of a value made before an if/else, per branch of it (tile_ops_branches.cc lets a value cross into the
// branches only when every branch reads it and nothing after the if does): each branch waits for the block and
// frees it on its own, as the kernels take one branch. Reads at the producer's level form one span.
std::vector<std::vector<size_t>> arm_spans(const std::vector<TileOp>& ops, const Stream& s,
                                           const std::vector<size_t>& reads) {
  size_t depth = ops[s.producer_op].branches.size();
  std::vector<std::pair<Any, std::vector<size_t>>> spans;
  for (size_t r : reads) {
    // An arm inside a loop the producer is not in: the value is held around that loop (one span).
    Any arm = ops[r].branches.size() > depth && !held_around_loop(ops, s.producer_op, r) ? ops[r].branches[depth].body
                                                                                          : Any();
    auto it = std::find_if(spans.begin(), spans.end(), [&](const auto& p) { return p.first.same_as(arm); });
    if (it == spans.end()) {
      spans.push_back({arm, {r}});
    } else {
      it->second.push_back(r);
    }
  }
  std::vector<std::vector<size_t>> out;
  for (auto& [arm, span] : spans) out.push_back(std::move(span));
  return out;
}

}  // namespace

void carry_streams(std::vector<TileOp>& ops, std::vector<Stream>& streams) {
  for (size_t i = 0; i < streams.size(); ++i) {
    Stream& s = streams[i];
    for (size_t r : s.consumer_ops) {
      const Any* loop = entered_loop(ops, s, r);
      if (loop == nullptr || s.carried) continue;
      Stream* next = loop_value(ops, streams, s, *loop);
      if (next == nullptr) continue;
      Stream merged = *next;
      size_t at = static_cast<size_t>(next - streams.data());
      Any carried_loop = *loop;
      streams.erase(streams.begin() + static_cast<std::ptrdiff_t>(at));
      if (at < i) --i;
      merge_carried(ops, streams[i], merged, carried_loop);
      break;
    }
  }
  for (const Stream& s : streams) {
    for (size_t r : s.consumer_ops) entered_loop(ops, s, r);  // refuses values read after the loop that writes them
  }
}

void place_waits(std::vector<TileOp>& ops, const std::vector<Stream>& streams) {
  std::vector<TileOp> added;
  for (TileOp& op : ops) {
    std::fill(op.waits.begin(), op.waits.end(), 0);
    std::fill(op.pops.begin(), op.pops.end(), 0);
  }
  for (const Stream& s : streams) {
    const Loops& level = ops[s.producer_op].loops;
    // A carried value's first reads are those in its loop (merge_carried), the rest come after the loop.
    const Loops& inside = ops[s.consumer_ops.front()].loops;
    std::vector<size_t> in_loop, after;
    for (size_t r : s.consumer_ops) (s.carried && is_prefix(inside, ops[r].loops) ? in_loop : after).push_back(r);
    if (!in_loop.empty()) {
      place_span(ops, added, s, in_loop, inside);  // every iteration waits for the old block and frees it
      if (after.empty()) {  // the last iteration's value, never read: waited for and freed after the loop
        added.push_back(hold_op(tile_op::kHold, inside.back(), s, level));
        added.back().place = "after";
        added.push_back(hold_op(tile_op::kRelease, inside.back(), s, level));
      }
    }
    for (const std::vector<size_t>& span : arm_spans(ops, s, after)) place_span(ops, added, s, span, level);
  }
  for (TileOp& op : added) ops.push_back(std::move(op));
}

}  // namespace tl

namespace tl::tileops {

void copy_out_carried(std::vector<TileOp>& ops) {
  for (size_t c = 0; c < ops.size(); ++c) {
    if (ops[c].kind != tile_op::kCopyOut || ops[c].ins[0].shape.size() != 2) continue;
    const BufferInfo value = ops[c].ins[0];
    const std::vector<Any>& level = ops[c].loops;
    bool carried = false;
    for (size_t w = 0; w < c; ++w) {
      const TileOp& op = ops[w];
      if (!op.out || op.out->name != value.name || op.kind == tile_op::kGemm || op.loops.size() <= level.size() ||
          !is_prefix(level, op.loops)) {
        continue;
      }
      const Any& loop = op.loops[level.size()];
      for (const TileOp& reader : ops) {
        auto same = [&](const Any& l) { return l.same_as(loop); };
        bool in_loop = std::any_of(reader.loops.begin(), reader.loops.end(), same);
        for (const BufferInfo& in : reader.ins) carried = carried || (in_loop && in.name == value.name);
      }
    }
    if (!carried) continue;
    BufferInfo copy = value;
    copy.name = value.name + "_out";
    TileOp op{tile_op::kEltwise, ops[c].stmt, copy, {value}};
    op.loops = level;
    op.branches = ops[c].branches;
    op.fields = eltwise_fields(copy, {"none", "none", "none", "none", "none"}, 0);
    ops[c].ins[0] = copy;
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(c), op);
    ++c;
  }
}

}  // namespace tl::tileops

namespace tl::tileops {

void copy_in_carried(std::vector<TileOp>& ops) {
  for (size_t c = 0; c < ops.size(); ++c) {
    if (ops[c].kind != tile_op::kCopyIn || !ops[c].out || ops[c].out->shape.size() != 2) continue;
    const BufferInfo value = *ops[c].out;
    const Loops& level = ops[c].loops;
    bool carried = false;  // the first loop after the copy that reads the value rewrites it there
    for (size_t w = c + 1; w < ops.size(); ++w) {
      const TileOp& op = ops[w];
      if (!is_prefix(level, op.loops)) continue;
      bool read = std::any_of(op.ins.begin(), op.ins.end(), [&](const BufferInfo& b) { return b.name == value.name; });
      if (read && op.loops.size() > level.size()) {
        Loops inside(op.loops.begin(), op.loops.begin() + static_cast<std::ptrdiff_t>(level.size()) + 1);
        for (size_t r = w; r < ops.size(); ++r) {  // (ops placed before the loop may lie between its ops)
          const TileOp& o = ops[r];
          carried = carried || (is_prefix(inside, o.loops) && o.out && o.out->name == value.name &&
                                o.kind != tile_op::kGemm);
        }
        break;
      }
      if (!read && op.out && op.out->name == value.name) break;
    }
    if (!carried) continue;
    BufferInfo read = value;
    read.name = value.name + "_in";
    TileOp op{tile_op::kEltwise, ops[c].stmt, value, {read}};
    op.loops = level;
    op.branches = ops[c].branches;
    op.fields = eltwise_fields(value, {"none", "none", "none", "none", "none"}, 0);
    ops[c].out = read;
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(c) + 1, op);
    ++c;
  }
}

namespace {

bool reads(const TileOp& op, const std::string& name) {
  return std::any_of(op.ins.begin(), op.ins.end(), [&](const BufferInfo& b) { return b.name == name; });
}

// The ops of loop nest `level` (their loops start with it) after `from`, up to the next one writing `name`.
std::vector<size_t> readers_until_rewrite(const std::vector<TileOp>& ops, size_t from, const Loops& level,
                                          const std::string& name) {
  std::vector<size_t> found;
  for (size_t r = from + 1; r < ops.size() && is_prefix(level, ops[r].loops); ++r) {
    if (reads(ops[r], name)) found.push_back(r);
    if (ops[r].out && ops[r].out->name == name) break;
  }
  return found;
}

}  // namespace

void defer_carried_writes(std::vector<TileOp>& ops) {
  for (size_t w = 0; w < ops.size(); ++w) {
    const std::string& k = ops[w].kind;
    if (!ops[w].out || ops[w].loops.empty() || k == tile_op::kGemm || k == tile_op::kCopyIn) continue;
    const BufferInfo value = *ops[w].out;
    const Loops level = ops[w].loops;
    bool read_before = false;  // the body reads the previous iteration's value (before any write of it)
    for (size_t r = 0; r <= w && !read_before; ++r) {
      if (!is_prefix(level, ops[r].loops)) continue;  // not in the body (ops placed before it are not contiguous)
      read_before = reads(ops[r], value.name);
      if (r < w && ops[r].out && ops[r].out->name == value.name) break;
    }
    std::vector<size_t> after = readers_until_rewrite(ops, w, level, value.name);
    size_t end = w;  // the loop body's last op
    while (end + 1 < ops.size() && is_prefix(level, ops[end + 1].loops)) ++end;
    bool rewritten = false;
    for (size_t r = w + 1; r <= end; ++r) rewritten = rewritten || (ops[r].out && ops[r].out->name == value.name);
    if (!read_before || after.empty() || rewritten) continue;
    BufferInfo next = value;
    next.var = Any();
    next.name = value.name + "_next";
    ops[w].out = next;
    for (size_t r : after) {
      for (BufferInfo& in : ops[r].ins) {
        if (in.name == value.name) in = next;
      }
    }
    TileOp copy{tile_op::kEltwise, ops[end].stmt, value, {next}};
    copy.loops = level;
    copy.branches = ops[w].branches;
    copy.place = ops[end].place;
    if (ops[end].loops.size() > level.size()) {  // the body ends in a nested loop: after it
      copy.stmt = ops[end].loops[level.size()];
      copy.place = "after";
    }
    copy.fields = eltwise_fields(value, {"none", "none", "none", "none", "none"}, 0);
    ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(end + 1), copy);
  }
}

}  // namespace tl::tileops
