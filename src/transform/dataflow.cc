// The dataflow and lower_tiles engines: the on-chip buffers of a kernel become circular buffers (one per
// dataflow stream, tile_dataflow.h), then every TileLang tile op becomes the abstract block intrinsic its rule case
// emits, with the CB indices of the streams it reads and writes.
#include <algorithm>

#include "engine_common.h"
#include "tile_dataflow.h"
#include "records.h"

namespace tl {
namespace {

std::string supported_formats() {
  std::vector<std::string> formats;
  for (const auto& [k, v] : as_dict(attr(device(), "DATA_FORMATS"))) formats.push_back(as_str(k));
  std::sort(formats.begin(), formats.end());
  return join(formats);
}

// The CB descriptor of one stream (the `cb` record of specs/records/tt_plan.yaml).
Dict cb_descriptor(const Stream& s, int64_t tile_elems, const BlockFloatCB* block_float) {
  Any dtype = String(s.dtype);
  int64_t page = truthy(fn::supported_dtype(dtype)) ? tile_elems * as_int(fn::dtype_bytes(dtype)) : 0;
  if (!page) {
    fail("on-chip buffer '" + s.buffer.name + "' has dtype " + s.dtype + "; the tenstorrent backend supports " +
         supported_formats());
  }
  Dict cb = ordered({{records::cb::kIndex, s.index},
                  {records::cb::kStream, String(s.key)},
                  {records::cb::kBuffer, String(s.buffer.name)},
                  {records::cb::kBufferDtype, String(s.buffer.dtype)},
                  {records::cb::kClass, String(s.cls)},
                  {records::cb::kDtype, dtype},
                  {records::cb::kDataFormat, block_float ? block_float->data_format : fn::data_format(dtype)},
                  {records::cb::kPageBytes, block_float ? block_float->page_bytes : page},
                  {records::cb::kBlockPages, s.pages},
                  {records::cb::kDepth, s.pages_depth},
                  {records::cb::kProducer, String(s.producer)},
                  {records::cb::kConsumer, String(s.consumers[0])}});
  if (!s.shares.empty()) {
    List shares;
    for (const std::string& k : s.shares) shares.push_back(String(k));
    cb.Set(String(records::cb::kShares), shares);
  }
  return cb;
}

// The L1-sharded tensor (tt.buffers memory L1) whose shard a stream's CB can be, or "": a block the compute kernel
// makes and only a T.copy to that tensor reads (tt-metal's sharded matmul's output CB at the output's address).
std::string shard_of(const Any& func, const std::vector<TileOp>& ops, const Stream& s) {
  if (s.consumer_ops.size() != 1 || s.producer != "compute" || !s.shares.empty()) return "";
  const TileOp& out = ops.at(s.consumer_ops[0]);
  if (out.kind != tile_op::kCopyOut || !out.tensor) return "";
  Dict buffers = attr_dict(func, keys::kTtBuffers);
  String name(out.tensor->name), memory(records::buffer::kMemory);
  if (!buffers.count(name)) return "";
  Dict layout = as_dict(buffers.at(name));
  return layout.count(memory) && as_str(layout.at(memory)) == "L1" ? out.tensor->name : "";
}

// Whether a stream is B of gemms only: a block the reader reads from DRAM that every reader of it takes as a gemm's
// second operand (tt-metal's in1; the writer kernel can feed it: BuildTTTileDataflow's in1_sender).
bool gemm_rhs_only(const std::vector<TileOp>& ops, const Stream& s) {
  if (s.producer != roles::kReader || ops.at(s.producer_op).kind != tile_op::kCopyIn || s.consumer_ops.empty()) {
    return false;
  }
  return std::all_of(s.consumer_ops.begin(), s.consumer_ops.end(), [&](size_t i) {
    const TileOp& op = ops.at(i);
    return op.kind == tile_op::kGemm && op.reads.size() >= 2 && op.reads[1] == s.key && op.reads[0] != s.key;
  });
}

// The CB descriptors of a kernel by stream key, in tt.cbs order.
struct CBs {
  std::vector<std::pair<std::string, Any>> by_stream;
  const Any* find(const std::string& key) const {
    for (const auto& [k, cb] : by_stream) {
      if (k == key) return &cb;
    }
    return nullptr;
  }
  const Any& at(const std::string& key) const {
    const Any* cb = find(key);
    if (cb == nullptr) internal_error("no CB of stream '" + key + "' in tt.cbs");
    return *cb;
  }
};

// What a lower_tiles case sees of one tile op: its fields, and the CBs it reads and writes.
Ctx op_context(const TileOp& op, const CBs& cbs, bool absorbed) {
  Ctx ctx;
  for (const auto& [k, v] : op.fields) ctx.set(k, v);
  ctx.set(names::kAbsorbed, Any(absorbed));
  const Any* first_read = op.reads.empty() ? nullptr : cbs.find(op.reads[0]);
  ctx.set(names::kInPlace, Any(first_read != nullptr && as_dict(*first_read).count(String(records::cb::kShardOf)) > 0));
  const Any* written = cbs.find(op.writes);
  ctx.set(names::kProducer, written ? attr(*written, records::cb::kProducer) : Any(String("")));
  ctx.set(names::kOut, cbs.find(op.writes) ? attr(cbs.at(op.writes), records::cb::kIndex) : Any(int64_t(-1)));
  List ins;
  for (const std::string& k : op.reads) ins.push_back(attr(cbs.at(k), records::cb::kIndex));
  ctx.set(names::kIns, ins);
  List waits, pops;
  for (int64_t wait : op.waits) waits.push_back(Any(wait));
  for (int64_t pop : op.pops) pops.push_back(Any(pop));
  ctx.set(names::kWaits, waits);
  ctx.set(names::kPops, pops);
  Any page_bytes(int64_t(0));
  std::vector<std::string> keys = {op.writes};
  keys.insert(keys.end(), op.reads.begin(), op.reads.end());
  for (const std::string& k : keys) {
    if (const Any* cb = cbs.find(k)) {
      page_bytes = attr(*cb, records::cb::kPageBytes);
      break;
    }
  }
  ctx.set(names::kPageBytes, page_bytes);
  ctx.set(names::kPartial, op.partial.empty() ? Any(int64_t(-1)) : attr(cbs.at(op.partial), records::cb::kIndex));
  return ctx;
}

std::string spaced(std::string kind) {
  std::replace(kind.begin(), kind.end(), '_', ' ');
  return kind;
}

// The statement one tile op lowers to under the first case of its rule that applies.
Any lower_op(const std::string& name, const TileOp& op, const Cases& cases, const CBs& cbs, bool absorbed) {
  static const std::vector<Case> none;
  Ctx ctx = op_context(op, cbs, absorbed);
  const std::vector<Case>* op_cases = cases_of(cases, op.kind);
  const Case* c = choose_case(op_cases ? *op_cases : none, ctx, spaced(op.kind) + ":");
  if (c == nullptr) fail("no rule of " + name + " lowers a " + op.kind + " tile op");
  if (c->emit.empty()) return evaluate(int_imm(0));
  std::vector<Any> args;
  for (const auto& [arg, type] : intrinsic(c->emit).args) {
    if (!c->args) internal_error("the " + op.kind + " case of " + name + " that emits " + c->emit + " has no args");
    args.push_back(expr_of(*c->args, arg)(ctx));
  }
  Any lowered = tt_call(c->emit, args);
  for (const auto& [key, value] : op.fields) {  // a value each kernel reads its own way: a binding of the call
    if (key == names::kBind) return bind(value, cast("int32", lowered));
  }
  return evaluate(lowered);
}

bool flag_kind(const TileOp& op) {
  return op.kind == tile_op::kFlagIn || op.kind == tile_op::kFlagRead || op.kind == tile_op::kFlagOwn;
}

}  // namespace

namespace engines {

Any dataflow(const std::string& name, const Dict& options, const DataflowParams& params) {
  const ExprMap& depth = params.depth;
  const std::optional<Expr>& partial = params.partial;
  return prim_func_pass(name, [=](const Any& unfolded) -> Any {
    Any func = fold_constant_scalars(unfolded);
    std::vector<TileOp> ops = tile_ops(func);
    NeedsPartial needs_partial = [&](const TileOp& gemm, int64_t pages) {
      if (!partial.has_value()) return false;
      bool fp32 = accumulates_fp32(String(gemm.out->dtype));
      // A K loop of run-time extent may take several steps: the CBs are planned for that.
      Any k_count = is_int(gemm.get(names::kKCount)) ? gemm.get(names::kKCount) : Any(int64_t(2));
      Ctx ctx{{names::kMt, gemm.get(names::kMt)}, {names::kNt, gemm.get(names::kNt)},
              {names::kKCount, k_count}, {names::kPages, Any(pages)},
              {names::kTransposed, gemm.get(names::kTransposed)}, {names::kTilized, gemm.get(names::kTilized)},
              {names::kSharesDst, gemm.get(names::kSharesDst)},
              {names::kDstCapacity, Any(dst_capacity(fp32))}};
      return truthy((*partial)(ctx));
    };
    std::vector<Stream> streams = tl::dataflow(ops, as_int(option(options, "stages")), depth, needs_partial);
    std::set<std::string> read_by_writer;  // tensors whose reads move to the writer kernel (the in1 sender)
    if (truthy(option(options, "in1_sender"))) {
      std::set<std::string> written;
      for (const TileOp& op : ops) {
        if (op.kind == tile_op::kCopyOut && op.tensor) written.insert(op.tensor->name);
      }
      for (Stream& s : streams) {
        const TileOp& copy = ops.at(s.producer_op);
        if (!gemm_rhs_only(ops, s) || !copy.tensor || written.count(copy.tensor->name)) continue;
        s.producer = roles::kWriter;
        read_by_writer.insert(copy.tensor->name);
      }
    }
    std::stable_sort(streams.begin(), streams.end(), [](const Stream& a, const Stream& b) { return a.index < b.index; });
    Any tile = attr(device(), "TILE");
    int64_t tile_elems = as_int(item(tile, Any(int64_t(0)))) * as_int(item(tile, Any(int64_t(1))));
    std::map<std::string, BlockFloatCB> block_float = block_float_cbs(func, ops, streams);
    List cbs;
    for (const Stream& s : streams) {
      auto bf = block_float.find(s.key);
      Dict cb = cb_descriptor(s, tile_elems, bf == block_float.end() ? nullptr : &bf->second);
      std::string shard = shard_of(func, ops, s);
      if (!shard.empty()) {  // the tensor's shard is the CB: one block deep (the shard is one block, l1_shards.py)
        cb.Set(String(records::cb::kShardOf), String(shard));
        cb.Set(String(records::cb::kDepth), Any(s.pages));
      }
      cbs.push_back(cb);
    }
    if (params.padding.empty() && !read_by_writer.empty()) internal_error("in1_sender needs the padding rule's tt.buffers");
    if (params.padding.empty()) return with_attrs(func, {{keys::kTtCbs, cbs}});
    std::map<std::string, double> identities;  // consumer -> the value its operand's padding must hold
    for (const auto& [consumer, value] : params.padding) identities[consumer] = as_float(value(Ctx{}));
    std::map<std::string, double> pads = pad_values(ops, func, identities);
    Dict buffers;  // tt.buffers with each tensor's pad_value, what the host fills its padding with
    for (const auto& [tensor, layout] : attr_dict(func, keys::kTtBuffers)) {
      Dict entry(as_dict(layout));
      auto pad = pads.find(as_str(tensor));
      entry.Set(String(records::buffer::kPadValue), Any(pad == pads.end() ? 0.0 : pad->second));
      if (read_by_writer.count(as_str(tensor))) entry.Set(String(records::buffer::kReadByWriter), Any(true));
      buffers.Set(String(as_str(tensor)), entry);
    }
    return with_attrs(func, {{keys::kTtCbs, cbs}, {keys::kTtBuffers, buffers}});
  });
}

Any lower_tiles(const std::string& name, const Dict& options, const LowerTilesParams& params) {
  const Cases& cases = params.cases;
  return prim_func_pass(name, [=](const Any& unfolded) -> Any {
    Any func = fold_constant_scalars(unfolded);
    CBs cbs;
    for (const Any& cb : as_list(get_attr(func, keys::kTtCbs))) {
      cbs.by_stream.emplace_back(as_str(attr(cb, records::cb::kStream)), cb);
      Dict desc = as_dict(cb);  // "shares": values that use the CB after an earlier one is dead
      if (desc.count(String(records::cb::kShares))) {
        for (const Any& k : as_list(desc.at(String(records::cb::kShares)))) cbs.by_stream.emplace_back(as_str(k), cb);
      }
    }
    Any body = ir::PrimFunc(func).body();
    std::vector<TileOp> ops = tile_ops(func);
    // Stream keys only (CB indices and depths come from tt.cbs, and so does which gemm has a partial CB).
    Expr pages = [](const Ctx& c) { return c.get(names::kPages); };
    tl::dataflow(ops, 2, {{"input", pages}, {"output", pages}, {"intermediate", pages}, {"carried", pages}},
                 [&cbs](const TileOp& gemm, int64_t) { return cbs.find(gemm.out->name + "#partial") != nullptr; });
    std::vector<std::string> absorbed;  // zero fills a gemm accumulates into: they have no CB
    for (const TileOp& op : ops) {
      if (op.kind == tile_op::kFill && !cbs.find(op.writes)) absorbed.push_back(op.writes);
    }
    std::vector<std::pair<Any, std::vector<Any>>> replacement;  // statement -> the lowerings of its ops, in order
    std::vector<std::pair<const TileOp*, Any>> around;             // ops before/after a loop, and their lowerings
    std::vector<std::pair<const TileOp*, Any>> flags;  // the bindings of a branch's value, before its if
    for (const TileOp& op : ops) {
      bool is_absorbed = std::find(absorbed.begin(), absorbed.end(), op.writes) != absorbed.end();
      Any lowered = lower_op(name, op, cases, cbs, is_absorbed);
      if (flag_kind(op)) {
        flags.emplace_back(&op, lowered);
      } else if (!op.place.empty()) {
        around.emplace_back(&op, lowered);
      } else if (!replacement.empty() && replacement.back().first.same_as(op.stmt)) {
        replacement.back().second.push_back(lowered);
      } else {
        replacement.push_back({op.stmt, {lowered}});
      }
    }
    Rewrite swap = [&](const Any& stmt) -> Any {
      for (const auto& [old, lowered] : replacement) {
        if (stmt.same_as(old)) return seq(lowered);
      }
      return stmt;
    };
    // (An if replaced by its ops: a condition read from a tensor around gemm K steps, tile_ops_flag.cc.)
    Any new_body = map(body, {{ir::TilePrimitiveCall::kTypeKey, swap}, {ir::For::kTypeKey, swap},
                              {ir::IfThenElse::kTypeKey, swap}}, "pre");
    // An if on a value read from a tensor (tile_ops_flag_step.cc) keeps its condition object through the replacement
    // of its arms' ops: the kernels' bindings of the value go before it and it tests their variable.
    Rewrite branch = [&](const Any& stmt) -> Any {
      ir::IfThenElse old(stmt);
      std::vector<Any> out;
      Any test;
      for (const auto& [op, lowered] : flags) {
        if (!ir::IfThenElse(op->stmt).condition().same_as(old.condition())) continue;
        out.push_back(lowered);
        if (op->kind == tile_op::kFlagIn) test = op->get(names::kTest);
      }
      if (out.empty()) return stmt;
      out.push_back(if_then_else(test, old.then_case(), old.else_case()));
      return seq(out);
    };
    if (!flags.empty()) new_body = map(new_body, {{ir::IfThenElse::kTypeKey, branch}}, "post");
    // Loops keep their variables through the replacement: the ops around a loop are found by its variable.
    // (A while loop keeps its condition.)
    Rewrite wrap = [&](const Any& stmt) -> Any {
      std::vector<Any> before, after;
      Any key = loop_key(stmt);
      for (const auto& [op, lowered] : around) {
        if (loop_key(op->stmt).same_as(key)) (op->place == "before" ? before : after).push_back(lowered);
      }
      if (before.empty() && after.empty()) return stmt;
      before.push_back(stmt);
      before.insert(before.end(), after.begin(), after.end());
      return seq(before);
    };
    if (!around.empty()) new_body = map(new_body, {{ir::For::kTypeKey, wrap}, {ir::While::kTypeKey, wrap}}, "post");
    return with_body(func, strip_onchip_allocs(new_body));
  });
}

}  // namespace engines
}  // namespace tl
