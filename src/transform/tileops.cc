// Implementation of tileops.h, check for check and message for message the logic of tileops.py.
#include "tileops.h"

#include <algorithm>
#include <map>

namespace tl {

const char* const PERSISTENT_LOOP = "tt.persistent_loop";

const Any& TileOp::get(const std::string& name) const {
  for (const auto& [key, value] : fields) {
    if (key == name) return value;
  }
  fail_kind("RuntimeError", kind + " tile op has no field '" + name + "'");
}

// ---------------------------------------------------------------------------------------------- helpers

// Python's str(list(xs)) of ints.
static std::string ints_str(const std::vector<int64_t>& xs) {
  std::string out = "[";
  for (size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + std::to_string(xs[i]);
  return out + "]";
}

static std::pair<int64_t, int64_t> tile_shape() {
  Any tile = attr(device(), "TILE");
  return {as_int(item(tile, Any(int64_t(0)))), as_int(item(tile, Any(int64_t(1))))};
}

static Any strip_casts(Any expr) {
  while (is_a(expr, "prim.Cast")) expr = field(expr, "value");
  return expr;
}

static bool is_zero(const Any& e) {
  Any expr = strip_casts(e);
  if (is_a(expr, "ir.IntImm")) return as_int(expr) == 0;
  if (is_a(expr, "ir.FloatImm")) return as_float(expr) == 0.0;
  return false;
}

static std::pair<int64_t, int64_t> tiles(const BufferInfo& info, const std::string& what) {
  auto [th, tw] = tile_shape();
  if (info.shape.size() != 2) {
    fail(what + " '" + info.name + "' has shape " + ints_str(info.shape) +
         "; the tenstorrent backend handles 2-D tiles only");
  }
  int64_t rows = info.shape[0], cols = info.shape[1];
  if (rows % th || cols % tw) {
    fail(what + " '" + info.name + "' has shape " + std::to_string(rows) + "x" + std::to_string(cols) +
         ", not a multiple of the " + std::to_string(th) + "x" + std::to_string(tw) + " tile");
  }
  return {rows / th, cols / tw};
}

struct Region {
  BufferInfo info;
  std::vector<Any> mins;
  std::vector<int64_t> extents;
};

static Region region_of(const Any& region) {
  Region r{buffer_info(field(region, "source")), {}, {}};
  List ranges = as_list(field(region, "region"));
  for (const Any& range : ranges) r.mins.push_back(field(range, "min"));
  for (const Any& range : ranges) {
    Any extent = field(range, "extent");
    if (!is_a(extent, "ir.IntImm")) {
      fail("region of '" + r.info.name + "' has a dynamic extent (" + py_str(extent) + ")");
    }
    r.extents.push_back(as_int(extent));
  }
  return r;
}

static void require_full(const Region& r, const std::string& op) {
  bool whole = r.extents == r.info.shape;
  for (const Any& m : r.mins) whole = whole && is_a(m, "ir.IntImm") && as_int(m) == 0;
  if (!whole) {
    fail(op + " uses part of on-chip buffer '" + r.info.name + "' (extents " + ints_str(r.extents) + " of " +
         ints_str(r.info.shape) + "); the tenstorrent backend moves whole CB blocks");
  }
}

static Any arg(const Any& stmt, int64_t i) { return as_list(field(stmt, "args"))[i]; }

// ------------------------------------------------------------------------------------------------ copies

static TileOp classify_copy(const Any& stmt) {
  Region dst = region_of(arg(stmt, 0));
  Region src = region_of(arg(stmt, 1));
  bool dst_chip = dst.info.on_chip(), src_chip = src.info.on_chip();
  if (!dst_chip && !src_chip) {
    fail("T.copy from tensor '" + src.info.name + "' to tensor '" + dst.info.name +
         "': DRAM-to-DRAM copies are not supported; copy through an on-chip buffer");
  }
  if (dst_chip && src_chip) {
    require_full(dst, "T.copy");
    require_full(src, "T.copy");
    return TileOp{"copy_local", stmt, dst.info, {src.info}};
  }
  const Region& tensor = dst_chip ? src : dst;
  const Region& onchip = dst_chip ? dst : src;
  require_full(onchip, "T.copy");
  auto [rows, cols] = tiles(onchip.info, "on-chip buffer");
  if (tensor.info.shape.size() != 2) {
    fail("tensor '" + tensor.info.name + "' has shape " + ints_str(tensor.info.shape) +
         "; only 2-D tensors are supported");
  }
  std::vector<int64_t> moved;
  for (int64_t e : tensor.extents) {
    if (e != 1) moved.push_back(e);
  }
  if (moved != onchip.info.shape) {
    fail("T.copy between '" + tensor.info.name + "' and '" + onchip.info.name + "' has region extents " +
         ints_str(tensor.extents) + ", not the on-chip shape " + ints_str(onchip.info.shape));
  }
  TileOp op{dst_chip ? "copy_in" : "copy_out", stmt};
  if (dst_chip) op.out = dst.info;
  if (src_chip) op.ins = {src.info};
  op.tensor = tensor.info;
  op.fields = {{"tensor", tensor.info.var},
               {"tensor_info", tensor.info.ns()},
               {"row", tensor.mins[0]},
               {"col", tensor.mins[1]},
               {"rows", Any(rows)},
               {"cols", Any(cols)},
               {"row_tiles", Any(tensor.info.shape[1] / tile_shape().second)}};
  return op;
}

// -------------------------------------------------------------------------------------------------- gemm

static TileOp classify_gemm(const Any& stmt, const std::vector<Any>& loops) {
  Region d = region_of(arg(stmt, 0)), a = region_of(arg(stmt, 1)), b = region_of(arg(stmt, 2));
  Region c = region_of(arg(stmt, 3));
  for (const Region* r : {&d, &a, &b, &c}) {
    if (!r->info.on_chip()) {
      fail("T.gemm operand '" + r->info.name + "' is a DRAM tensor; copy it to an on-chip buffer first");
    }
    require_full(*r, "T.gemm");
  }
  if (truthy(to_py(arg(stmt, 4))) || truthy(to_py(arg(stmt, 5)))) {
    fail("T.gemm(" + a.info.name + ", " + b.info.name + ", " + d.info.name +
         ") with transpose_A/transpose_B is not supported by the tenstorrent backend (matmul_tiles takes "
         "untransposed tiles)");
  }
  if (!d.info.var.same_as(c.info.var)) {
    fail("T.gemm writes '" + d.info.name + "' but accumulates '" + c.info.name + "'; they must be one buffer");
  }
  for (int64_t pos : {6, 7}) {
    Any value = arg(stmt, pos);
    if (!(is_a(value, "ir.FloatImm") && as_float(value) == 1.0)) {
      fail("T.gemm into '" + d.info.name + "' has alpha/beta " + py_str(value) +
           "; only 1.0 (accumulate) is supported");
    }
  }
  auto [mt, nt] = tiles(d.info, "accumulator");
  auto [am, ak] = tiles(a.info, "gemm operand");
  auto [bk, bn] = tiles(b.info, "gemm operand");
  if (am != mt || bn != nt || ak != bk) {
    fail("T.gemm shapes do not match: " + a.info.name + " " + ints_str(a.info.shape) + " x " + b.info.name + " " +
         ints_str(b.info.shape) + " -> " + d.info.name + " " + ints_str(d.info.shape));
  }
  Any k(int64_t(0));
  int64_t k_count = 1;
  if (!loops.empty()) {
    k = field(loops.back(), "loop_var");
    k_count = as_int(field(loops.back(), "extent"));
  }
  TileOp op{"gemm", stmt, d.info, {a.info, b.info}};
  op.fields = {{"mt", Any(mt)}, {"nt", Any(nt)}, {"kt", Any(ak)}, {"k", k}, {"k_count", Any(k_count)}};
  return op;
}

// ---------------------------------------------------------------------------------------------- eltwise

// (loops, store) when `stmt` is a loop nest whose innermost body is one BufferStore.
static std::optional<std::pair<std::vector<Any>, Any>> eltwise_nest(Any stmt) {
  std::vector<Any> loops;
  while (is_a(stmt, "tirx.For")) {
    loops.push_back(stmt);
    stmt = field(stmt, "body");
  }
  if (!loops.empty() && is_a(stmt, "tirx.BufferStore")) return std::make_pair(loops, stmt);
  return std::nullopt;
}

// Whether the first min(len) indices are the loop variables themselves (Python zip, not strict).
static bool same_indices(const List& indices, const std::vector<Any>& lvars) {
  size_t n = std::min(indices.size(), lvars.size());
  for (size_t i = 0; i < n; ++i) {
    if (!indices[i].same_as(lvars[i])) return false;
  }
  return true;
}

static TileOp classify_eltwise(const std::vector<Any>& loops, const Any& store) {
  BufferInfo out = buffer_info(field(store, "buffer"));
  std::string text = out.name + "[...] = " + py_str(field(store, "value"));
  if (!out.on_chip()) {
    fail("element-wise store '" + text + "' writes DRAM tensor '" + out.name +
         "' directly; write an on-chip buffer and T.copy it out");
  }
  std::vector<Any> lvars;
  std::vector<int64_t> extents;
  for (const Any& lp : loops) {
    lvars.push_back(field(lp, "loop_var"));
    Any extent = field(lp, "extent");
    extents.push_back(is_a(extent, "ir.IntImm") ? as_int(extent) : -1);
  }
  List indices = as_list(field(store, "indices"));
  bool same = indices.size() == lvars.size() && same_indices(indices, lvars);
  if (!same || extents != out.shape) {
    fail("element-wise store '" + text + "' must cover the whole buffer " + ints_str(out.shape) +
         " with the loop variables as indices (T.Parallel over the buffer shape)");
  }
  auto leaf = [&](const Any& operand) -> BufferInfo {
    Any expr = strip_casts(operand);
    if (is_a(expr, "ir.TensorLoad")) {
      BufferInfo info = buffer_info(field(expr, "source"));
      if (info.on_chip() && info.shape == out.shape && same_indices(as_list(field(expr, "indices")), lvars)) {
        return info;
      }
    }
    fail("element-wise store '" + text + "': operand " + py_str(expr) +
         " is not a same-index load of an on-chip buffer of the same shape");
  };
  Any value = strip_casts(field(store, "value"));
  std::string sfpu = "none";
  if (is_a(value, "prim.Max") && is_zero(field(value, "b"))) {
    sfpu = "relu";
    value = field(value, "a");
  } else if (is_a(value, "ir.Call") && py_str(field(field(value, "op"), "name")) == "tirx.exp") {
    sfpu = "exp";
    value = as_list(field(value, "args"))[0];
  }
  value = strip_casts(value);
  std::string key = type_key(value);  // exact type, as Python's _BINARY[type(value)]
  std::string binary = key == "prim.Add" ? "add" : key == "prim.Sub" ? "sub" : key == "prim.Mul" ? "mul" : "none";
  std::vector<BufferInfo> leaves;
  if (binary != "none") {
    BufferInfo lhs = leaf(field(value, "a"));
    leaves = {lhs, leaf(field(value, "b"))};
  } else {
    leaves = {leaf(value)};
    if (sfpu == "none") fail("element-wise store '" + text + "' is a plain copy; use T.copy");
  }
  auto [rows, cols] = tiles(out, "on-chip buffer");
  TileOp op{"eltwise", loops[0], out, leaves};
  op.fields = {{"binary", String(binary)}, {"sfpu", String(sfpu)}, {"tiles", Any(rows * cols)}};
  return op;
}

// ------------------------------------------------------------------------------------------------- fill

static TileOp classify_fill(const Any& stmt) {
  Region dst = region_of(arg(stmt, 0));
  if (!dst.info.on_chip()) {
    fail("T.fill of DRAM tensor '" + dst.info.name +
         "' is not supported; fill an on-chip buffer and T.copy it out");
  }
  require_full(dst, "T.fill");
  auto [rows, cols] = tiles(dst.info, "on-chip buffer");
  Any value = arg(stmt, 1);
  if (!is_a(value, "ir.FloatImm") && !is_a(value, "ir.IntImm")) {
    fail("T.fill of '" + dst.info.name + "' with a non-constant value (" + py_str(value) + ")");
  }
  TileOp op{"fill", stmt, dst.info};
  op.fields = {{"value", Any(as_float(value))}, {"tiles", Any(rows * cols)}};
  return op;
}

// ------------------------------------------------------------------------------------------------ walk

static bool has_annotation(const Any& loop, const char* key) {
  Any annotations = field(loop, "annotations");
  return !is_none(annotations) && as_dict(annotations).count(String(key)) != 0;
}

static void visit(const Any& stmt, const std::vector<Any>& loops, std::vector<TileOp>& ops) {
  if (is_a(stmt, "tirx.SeqStmt")) {
    for (const Any& s : as_list(field(stmt, "seq"))) visit(s, loops, ops);
  } else if (is_a(stmt, "tirx.TilePrimitiveCall")) {
    std::string name = py_str(field(field(stmt, "op"), "name"));
    if (name == "tirx.tile.copy") {
      ops.push_back(classify_copy(stmt));
    } else if (name == "tirx.tile.gemm") {
      ops.push_back(classify_gemm(stmt, loops));
    } else if (name == "tirx.tile.fill") {
      ops.push_back(classify_fill(stmt));
    } else {
      fail("tile primitive " + name + " has no tenstorrent lowering");
    }
  } else if (is_a(stmt, "tirx.For")) {
    if (auto nest = eltwise_nest(stmt)) {
      ops.push_back(classify_eltwise(nest->first, nest->second));
    } else if (has_annotation(stmt, PERSISTENT_LOOP)) {
      visit(field(stmt, "body"), loops, ops);
    } else {
      Any extent = field(stmt, "extent");
      if (!is_a(extent, "ir.IntImm")) {
        fail("loop '" + py_str(field(stmt, "loop_var")) + "' has a dynamic extent (" + py_str(extent) + ")");
      }
      std::vector<Any> inner = loops;
      inner.push_back(stmt);
      visit(field(stmt, "body"), inner, ops);
    }
  } else if (is_a(stmt, "tirx.IfThenElse")) {
    fail("a condition around tile operations (" + py_str(field(stmt, "condition")) +
         ") is not supported by the tenstorrent backend");
  } else if (is_a(stmt, "tirx.BufferStore")) {
    fail("scalar store to '" + py_str(field(field(stmt, "buffer"), "name")) +
         "' outside an element-wise loop nest is not supported by the tenstorrent backend");
  } else if (is_a(stmt, "tirx.AttrStmt")) {
    visit(field(stmt, "body"), loops, ops);
  }
}

std::vector<TileOp> tile_ops(const Any& body) {
  std::vector<TileOp> ops;
  visit(body, {}, ops);
  return ops;
}

// -------------------------------------------------------------------------------------------- dataflow

namespace {

// The streams in creation order (Python's dict of streams), with the current stream of each buffer.
class Streams {
 public:
  std::vector<Stream> all;
  std::vector<std::pair<std::string, std::string>> current;  // buffer name -> stream key

  Stream* find(const std::string& key) {
    for (Stream& s : all) {
      if (s.key == key) return &s;
    }
    return nullptr;
  }
  // Python streams[key] = Stream(...): replaces in place, or appends.
  void put(Stream s) {
    if (Stream* old = find(s.key)) {
      *old = std::move(s);
    } else {
      all.push_back(std::move(s));
    }
  }
  const std::string* current_of(const std::string& name) const {
    for (const auto& [buffer, key] : current) {
      if (buffer == name) return &key;
    }
    return nullptr;
  }
  void set_current(const std::string& name, const std::string& key) {
    for (auto& [buffer, k] : current) {
      if (buffer == name) {
        k = key;
        return;
      }
    }
    current.emplace_back(name, key);
  }
  std::string create(const BufferInfo& info, const std::string& dtype, const std::string& producer, int64_t pages) {
    int64_t& version = versions_[info.name];
    ++version;
    std::string key = info.name + "#" + std::to_string(version);
    put(Stream{key, info, dtype, pages, producer});
    set_current(info.name, key);
    return key;
  }
  std::string read(const BufferInfo& info, const std::string& consumer, const std::string& op) {
    const std::string* key = current_of(info.name);
    if (key == nullptr) fail(op + " reads on-chip buffer '" + info.name + "' before anything writes it");
    find(*key)->consumers.push_back(consumer);
    return *key;
  }

 private:
  std::map<std::string, int64_t> versions_;
};

bool is_zero_fill(const std::vector<TileOp>& ops, const std::string& key) {
  for (const TileOp& op : ops) {
    if (op.kind == "fill" && op.writes == key && as_float(op.get("value")) == 0.0) return true;
  }
  return false;
}

// The DST register capacity for an accumulator dtype (16- or 32-bit tiles).
int64_t dst_tiles(const std::string& dtype) {
  int64_t bytes = 2;
  for (const auto& [name, format] : as_dict(attr(device(), "DATA_FORMATS"))) {
    if (as_str(name) == dtype) bytes = as_int(item(format, Any(int64_t(1))));
  }
  return as_int(item(attr(device(), "DST_TILES"), Any(int64_t(bytes == 4 ? 32 : 16))));
}

void gemm_streams(std::vector<TileOp>& ops, TileOp& op, Streams& streams) {
  const BufferInfo& acc = *op.out;
  op.reads = {streams.read(op.ins[0], "compute", "T.gemm"), streams.read(op.ins[1], "compute", "T.gemm")};
  const std::string* init = streams.current_of(acc.name);
  Stream* init_stream = init ? streams.find(*init) : nullptr;
  if (init_stream == nullptr || init_stream->producer != "compute" || !init_stream->consumers.empty() ||
      !is_zero_fill(ops, *init)) {
    fail("T.gemm accumulates into '" + acc.name + "', which must be cleared first (T.clear(" + acc.name +
         ") right before the K loop)");
  }
  init_stream->absorbed = true;
  int64_t pages = as_int(op.get("mt")) * as_int(op.get("nt"));
  op.writes = streams.create(acc, acc.dtype, "compute", pages);
  if (as_int(op.get("k_count")) > 1 && pages > dst_tiles(acc.dtype)) {
    std::string key = acc.name + "#partial";
    Stream partial{key, acc, acc.dtype, pages, "compute"};
    partial.consumers = {"compute"};
    streams.put(std::move(partial));
    op.partial = key;
  }
}

void op_streams(std::vector<TileOp>& ops, TileOp& op, Streams& streams) {
  if (op.kind == "copy_in") {
    const BufferInfo& tensor = *op.tensor;
    if (tensor.dtype != op.out->dtype) {
      fail("T.copy from '" + tensor.name + "' (" + tensor.dtype + ") to '" + op.out->name + "' (" + op.out->dtype +
           ") converts dtype; the reader moves raw tile pages, so the on-chip buffer must have the tensor's dtype");
    }
    op.writes = streams.create(*op.out, op.out->dtype, "reader", as_int(op.get("rows")) * as_int(op.get("cols")));
  } else if (op.kind == "copy_out") {
    op.reads = {streams.read(op.ins[0], "writer", "T.copy to '" + op.tensor->name + "'")};
    streams.find(op.reads[0])->dtype = op.tensor->dtype;  // pages leave as the tensor's format (pack converts)
  } else if (op.kind == "copy_local") {
    const std::string* key = streams.current_of(op.ins[0].name);
    if (key == nullptr) fail("T.copy reads on-chip buffer '" + op.ins[0].name + "' before anything writes it");
    std::string shared = *key;
    streams.set_current(op.out->name, shared);  // the same CB now also holds the destination's value
  } else if (op.kind == "fill") {
    op.writes = streams.create(*op.out, op.out->dtype, "compute", as_int(op.get("tiles")));
  } else if (op.kind == "gemm") {
    gemm_streams(ops, op, streams);
  } else {  // eltwise
    for (const BufferInfo& info : op.ins) {
      op.reads.push_back(streams.read(info, "compute", "element-wise store to '" + op.out->name + "'"));
    }
    op.writes = streams.create(*op.out, op.out->dtype, "compute", as_int(op.get("tiles")));
  }
}

}  // namespace

std::vector<Stream> dataflow(std::vector<TileOp>& ops, int64_t stages, const ExprMap& depth) {
  Streams streams;
  for (TileOp& op : ops) op_streams(ops, op, streams);
  std::vector<Stream> live;
  for (const Stream& s : streams.all) {
    if (!s.absorbed) live.push_back(s);
  }
  for (Stream& s : live) {
    if (s.consumers.empty()) {
      fail("on-chip buffer '" + s.buffer.name + "' is written but its value is never used (every CB needs a consumer)");
    }
    if (s.consumers.size() > 1) {
      fail("on-chip buffer '" + s.buffer.name + "' is read by " + std::to_string(s.consumers.size()) +
           " tile operations; a CB has exactly one consumer (copy it first)");
    }
    s.cls = s.producer == "reader" ? "input" : s.consumers[0] == "writer" ? "output" : "intermediate";
  }
  Any ranges = attr(device(), "CB_RANGES");
  for (const char* cls : {"input", "output", "intermediate"}) {
    Any range = item(ranges, Any(String(cls)));
    int64_t first = as_int(item(range, Any(int64_t(0)))), last = as_int(item(range, Any(int64_t(1))));
    std::vector<Stream*> members;
    for (Stream& s : live) {
      if (s.cls == cls) members.push_back(&s);
    }
    if (static_cast<int64_t>(members.size()) > last - first + 1) {
      std::string names;
      for (const Stream* s : members) names += (names.empty() ? "" : ", ") + s->buffer.name;
      fail(std::string("too many ") + cls + " CBs: " + std::to_string(members.size()) + " on-chip values (" + names +
           ") but CBs " + std::to_string(first) + "-" + std::to_string(last) + " hold only " +
           std::to_string(last - first + 1));
    }
    for (size_t offset = 0; offset < members.size(); ++offset) members[offset]->index = first + offset;
  }
  for (Stream& s : live) {
    const Expr* expr = nullptr;
    for (const auto& [cls, e] : depth) {
      if (cls == s.cls) expr = &e;
    }
    if (expr == nullptr) fail_kind("KeyError", "'" + s.cls + "'");
    s.pages_depth = as_int((*expr)(Ctx{{"pages", Any(s.pages)}, {"stages", Any(stages)}}));
  }
  return live;
}

Any strip_onchip_allocs(const Any& body) {
  return map(body, {{"tirx.AllocBuffer", [](const Any& stmt) -> Any {
                       if (buffer_info(field(stmt, "buffer")).on_chip()) return evaluate(int_imm(0));
                       return stmt;
                     }}},
             "post");
}

}  // namespace tl
