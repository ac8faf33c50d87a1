// Tensors and blocks of any shape (tile_ops.h, tile_ops_util.h): the padded DRAM layout of every tensor (InferTTLayout
// records it in tt.buffers; the host programs pad and crop) and block offsets in that layout.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "engine_common.h"
#include "tile_ops_util.h"

namespace tl {

using namespace tileops;  // NOLINT: the recognisers' shared helpers

namespace {

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// The dims of a tensor that are tiled: the last two (rows, cols), a 1-D tensor's one (cols).
std::vector<size_t> tiled_dims(size_t n) {
  if (n == 1) return {0};
  return {n - 2, n - 1};
}

int64_t tile_of(size_t d, size_t n) { return d + 1 == n ? tile_shape().second : tile_shape().first; }

}  // namespace

std::map<std::string, PaddedLayout> padded_layouts(const Any& func, const std::set<std::string>& row_major) {
  std::map<std::string, PaddedLayout> out;
  std::map<std::string, std::vector<std::set<int64_t>>> extents;  // per tensor and dim: the extents of its blocks
  for (const BufferInfo& t : tensor_params(func)) {
    PaddedLayout layout{t.shape, t.shape, std::vector<int64_t>(t.shape.size(), 0)};
    if (!row_major.count(t.name)) {
      for (size_t d : tiled_dims(t.shape.size())) layout.padded[d] = round_up(t.shape[d], tile_of(d, t.shape.size()));
    }
    out[t.name] = layout;
    extents[t.name].resize(t.shape.size());
  }
  walk(ir::PrimFunc(func).body(), {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
         if (call.op().name() != "tirx.tile.copy") return;
         for (const Any& operand : {call.args()[0], call.args()[1]}) {
           if (!ir::TensorRegion::matches(operand)) continue;
           Region r = region_of(operand);
           if (r.info.on_chip() || !out.count(r.info.name) || row_major.count(r.info.name)) continue;
           for (size_t d : tiled_dims(r.info.shape.size())) extents[r.info.name][d].insert(r.extents[d]);
         }
       })});
  for (auto& [name, layout] : out) {
    size_t n = layout.shape.size();
    if (row_major.count(name)) continue;
    for (size_t d : tiled_dims(n)) {
      const std::set<int64_t>& seen = extents[name][d];
      int64_t tile = tile_of(d, n), dim = layout.shape[d];
      bool whole_tiles = std::all_of(seen.begin(), seen.end(), [&](int64_t e) { return e % tile == 0; });
      if (whole_tiles) {  // blocks of whole tiles: pad the dim to a whole number of every block
        for (int64_t e : seen) layout.padded[d] = std::max(layout.padded[d], round_up(dim, e));
        continue;
      }
      if (seen.size() > 1) {
        std::vector<int64_t> list(seen.begin(), seen.end());
        fail("tensor '" + name + "' (shape " + ints_str(layout.shape) + ") is copied in blocks of " + ints_str(list) +
             " elements along dim " + std::to_string(d) + "; blocks that are not whole " + std::to_string(tile) +
             "-element tiles are laid out one per run of tiles, so every block of a dim must have one extent");
      }
      int64_t e = *seen.begin();
      if (e >= dim) continue;  // one block covers the dim: whole tiles of it, padded at the end
      layout.blocks[d] = e;
      layout.padded[d] = (dim + e - 1) / e * round_up(e, tile);
    }
  }
  return out;
}

namespace tileops {

namespace {
thread_local const std::map<std::string, PaddedLayout>* padded_now = nullptr;
}  // namespace

PaddedLayouts::PaddedLayouts(const Any& func) {
  for (const auto& [name, layout] : attr_dict(func, keys::kTtBuffers)) {
    Dict entry = as_dict(layout);
    if (!entry.count(String("padded_shape"))) continue;
    PaddedLayout p;
    for (const Any& v : as_list(entry.at(String("shape")))) p.shape.push_back(as_int(v));
    for (const Any& v : as_list(entry.at(String("padded_shape")))) p.padded.push_back(as_int(v));
    for (const Any& v : as_list(entry.at(String("blocks")))) p.blocks.push_back(as_int(v));
    layouts_[as_str(name)] = p;
  }
  padded_now = &layouts_;
}

PaddedLayouts::~PaddedLayouts() { padded_now = nullptr; }

PaddedLayout padded_layout(const BufferInfo& tensor) {
  if (padded_now != nullptr) {
    auto it = padded_now->find(tensor.name);
    if (it != padded_now->end()) return it->second;
  }
  return {tensor.shape, tensor.shape, std::vector<int64_t>(tensor.shape.size(), 0)};
}

Any padded_offset(const Region& tensor, size_t d) {
  PaddedLayout layout = padded_layout(tensor.info);
  int64_t e = layout.blocks[d];
  const Any& start = tensor.mins[d];
  if (e == 0) return start;
  if (!truthy(fn::aligned(start, Any(e)))) {
    fail("block of '" + tensor.info.name + "' starts at " + format_value(start) + " in dim " + std::to_string(d) +
         ", not a multiple of its extent " + std::to_string(e) + "; a block that is not whole tiles is laid out on "
         "tiles of its own, so it must start at a multiple of its extent");
  }
  int64_t run = round_up(e, tile_of(d, layout.shape.size()));
  Any offset = fn::mul(fn::floordiv(start, Any(e)), Any(run));
  if (ir::IntImm::from(offset)) return offset;
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  return call("sym.AnalyzerSimplify", analyzer, offset, int64_t(2));
}

}  // namespace tileops
}  // namespace tl

// ---- What padding holds, followed through the tile ops ----
namespace tl {

namespace {

// What the padding of a value holds along one axis (its rows, or its cols, beyond the logical extent).
struct Pad {
  enum Kind { kNone, kConst, kFinite, kAny } kind = kNone;  // no padding there; a constant; data-dependent finite; anything
  double value = 0;
  std::string origin;  // the tensor whose padding it is, passed on unchanged
};
struct Padding {
  Pad rows, cols;
};

Pad constant(double v) {
  if (std::isnan(v)) return {Pad::kAny};
  return {Pad::kConst, v};
}

std::string describe(const Pad& p) {
  auto num = [](double v) { return std::isinf(v) ? std::string(v < 0 ? "-inf" : "inf") : format_value(Any(v)); };
  switch (p.kind) {
    case Pad::kNone: return "nothing";
    case Pad::kConst: return p.origin.empty() ? num(p.value) : "tensor '" + p.origin + "''s padding, " + num(p.value);
    case Pad::kFinite: return "values that depend on the data";
    default: return "values that may be infinite or NaN";
  }
}

// The math of the op-map entries on what padding holds (an entry this does not know gives kAny).
std::optional<double> apply(const std::string& op, double a, double b) {
  if (op == "add") return a + b;
  if (op == "sub") return a - b;
  if (op == "rsub") return b - a;
  if (op == "mul") return a * b;
  if (op == "div") return a / b;
  if (op == "max") return std::max(a, b);
  if (op == "min") return std::min(a, b);
  return std::nullopt;
}

std::optional<double> apply(const std::string& f, double x) {
  if (f == "exp") return std::exp(x);
  if (f == "exp2") return std::exp2(x);
  if (f == "log") return std::log(x);
  if (f == "sqrt") return std::sqrt(x);
  if (f == "rsqrt") return 1.0 / std::sqrt(x);
  if (f == "recip") return 1.0 / x;
  if (f == "relu") return std::max(x, 0.0);
  if (f == "sigmoid") return 1.0 / (1.0 + std::exp(-x));
  if (f == "tanh") return std::tanh(x);
  return std::nullopt;
}

Pad binary(const std::string& op, Pad a, Pad b) {
  if (a.kind == Pad::kNone && b.kind == Pad::kNone) return {};
  if (a.kind == Pad::kNone) a.kind = Pad::kFinite;  // the other operand's data where this one has no padding
  if (b.kind == Pad::kNone) b.kind = Pad::kFinite;
  if (a.kind == Pad::kAny || b.kind == Pad::kAny) return {Pad::kAny};
  if (a.kind == Pad::kConst && b.kind == Pad::kConst) {
    auto v = apply(op, a.value, b.value);
    return v ? constant(*v) : Pad{Pad::kAny};
  }
  if (a.kind == Pad::kFinite && b.kind == Pad::kFinite) {
    return op == "div" || !apply(op, 1.0, 1.0) ? Pad{Pad::kAny} : Pad{Pad::kFinite};
  }
  // A constant and finite data: what the constant decides whatever the data.
  bool left = a.kind == Pad::kConst;
  double c = left ? a.value : b.value;
  if (op == "mul" && c == 0) return constant(0.0);
  if ((op == "add" || (op == "sub" && left) || (op == "rsub" && !left)) && std::isinf(c)) return constant(c);
  if ((op == "sub" && !left) || (op == "rsub" && left)) return std::isinf(c) ? constant(-c) : Pad{Pad::kFinite};
  if (op == "max") return c == std::numeric_limits<double>::infinity() ? constant(c) : Pad{Pad::kFinite};
  if (op == "min") return c == -std::numeric_limits<double>::infinity() ? constant(c) : Pad{Pad::kFinite};
  bool arithmetic = op == "add" || op == "sub" || op == "rsub" || op == "mul" || (op == "div" && !left && c != 0);
  if (arithmetic && std::isfinite(c)) return {Pad::kFinite};
  return {Pad::kAny};
}

// An operation of padding and a value that is the same there as elsewhere (a constant, a broadcast vector's data):
// where there is no padding there is none after it.
Pad with(const std::string& op, const Pad& a, const Pad& b) { return a.kind == Pad::kNone ? Pad{} : binary(op, a, b); }

Pad unary(const std::string& f, const Pad& x) {
  if (x.kind == Pad::kNone || x.kind == Pad::kAny) return {x.kind};
  if (x.kind == Pad::kConst) {
    auto v = apply(f, x.value);
    return v ? constant(*v) : Pad{Pad::kAny};
  }
  bool bounded = f == "exp" || f == "exp2" || f == "relu" || f == "sigmoid" || f == "tanh";
  return {bounded ? Pad::kFinite : Pad::kAny};
}

// A row reduction's result along the axis it keeps: the pool over the padding of the other axis.
Pad reduced(const std::string& pool, const Pad& p) {
  if (p.kind != Pad::kConst) return {p.kind};
  if (pool == "max" || p.value == 0 || std::isinf(p.value)) return constant(p.value);
  return {Pad::kFinite};
}

bool holds(const Pad& p, double identity) { return p.kind == Pad::kNone || (p.kind == Pad::kConst && p.value == identity); }
bool finite_or_none(const Pad& p) {
  return p.kind == Pad::kNone || p.kind == Pad::kFinite || (p.kind == Pad::kConst && std::isfinite(p.value));
}

class Follow {
 public:
  Follow(const std::map<std::string, double>& pads, const std::map<std::string, double>& identities)
      : pads_(pads), identities_(identities) {}

  void run(const std::vector<TileOp>& all) {
    std::vector<const TileOp*> ops;  // the ops placed before a loop (the scaler tile's read) go first
    for (const TileOp& op : all) {
      if (!op.place.empty()) step(op);
      if (op.place.empty()) ops.push_back(&op);
    }
    for (size_t i = 0; i < ops.size();) {
      size_t j = i + 1;  // the ops of one loop run twice: the second time with what the first left carried
      const std::vector<Any>& loops = ops[i]->loops;
      if (!loops.empty()) {
        while (j < ops.size() && !ops[j]->loops.empty() && ops[j]->loops.front().same_as(loops.front())) ++j;
      }
      for (int pass = 0; pass < (loops.empty() ? 1 : 2); ++pass) {
        for (size_t k = i; k < j; ++k) step(*ops[k]);
      }
      i = j;
    }
  }

  std::vector<std::string> violations;

 private:
  Padding of(const BufferInfo& b) {
    auto it = values_.find(b.name);
    return it == values_.end() ? Padding{} : it->second;
  }

  void need(const Pad& p, double identity, const std::string& consumer, const std::string& value,
            const std::string& axis) {
    if (holds(p, identity)) return;
    violations.push_back(consumer + " reads the padding of '" + value + "' (its " + axis + " beyond the logical "
                         "extent: a tensor or block that is not whole tiles, or a block hanging over its tensor's "
                         "end), which holds " + describe(p) + ", not the " +
                         describe(Pad{Pad::kConst, identity}) + " that keeps its result exact");
  }

  void step(const TileOp& op) {
    const std::string& k = op.kind;
    if (!op.out) return;
    Padding out{{Pad::kAny}, {Pad::kAny}};
    if (k == "copy_in") {
      auto it = pads_.find(op.tensor->name);
      Pad p = it == pads_.end() ? Pad{} : Pad{Pad::kConst, it->second, op.tensor->name};
      out = {op.pad_rows ? p : Pad{}, op.pad_cols ? p : Pad{}};
    } else if (k == "copy_local" || k == "tilize") {
      out = of(op.ins[0]);
    } else if (k == "rows_in" || k == "atomic_in") {
      out = {};
    } else if (k == "transpose") {
      Padding in = of(op.ins[0]);
      out = {in.cols, in.rows};
    } else if (k == "fill") {
      Pad c = constant(as_float(op.get(names::kValue)));
      out = {c, c};
    } else if (k == "eltwise") {
      out = eltwise(op);
    } else if (k == "reduce") {
      std::string pool = as_str(op.get(names::kPool));
      Padding src = of(op.ins[0]);
      if (identities_.count(pool)) {
        need(src.cols, identities_.at(pool), "T.reduce_" + pool + " into '" + op.out->name + "'", op.ins[0].name,
             "columns");
      }
      out = {reduced(pool, src.rows), {Pad::kAny}};
      if (!truthy(op.get(names::kClear)) && op.ins.size() > 2) {
        out.rows = binary(pool == "max" ? "max" : "add", out.rows, of(op.ins[2]).rows);
      }
    } else if (k == "gemm") {
      Padding a = of(op.ins[0]), b = of(op.ins[1]);
      std::string consumer = "T.gemm(" + op.ins[0].name + ", " + op.ins[1].name + ") into '" + op.out->name + "'";
      if (identities_.count("gemm")) {  // the K padding of one operand holds 0 and the other's is finite
        double zero = identities_.at("gemm");
        bool ok = (holds(a.cols, zero) && finite_or_none(b.rows)) || (holds(b.rows, zero) && finite_or_none(a.cols));
        if (!ok) need(holds(a.cols, zero) ? b.rows : a.cols, zero, consumer, holds(a.cols, zero) ? op.ins[1].name
                      : op.ins[0].name, holds(a.cols, zero) ? "rows (K)" : "columns (K)");
      }
      auto product = [](const Pad& p) {  // a padded row of A (or column of B) times finite data
        if (p.kind == Pad::kNone) return Pad{};
        if (p.kind == Pad::kConst && p.value == 0) return constant(0.0);
        return finite_or_none(p) ? Pad{Pad::kFinite} : Pad{Pad::kAny};
      };
      out = {product(a.rows), product(b.cols)};
      if (!truthy(op.get(names::kClear)) && values_.count(op.out->name)) {
        Padding acc = of(*op.out);
        out = {binary("add", acc.rows, out.rows), binary("add", acc.cols, out.cols)};
      }
    }
    values_[op.out->name] = out;
    if (std::getenv("TL_PAD_DEBUG")) {
      std::fprintf(stderr, "  op %s -> %s: rows %s, cols %s (loops %zu)\n", k.c_str(), op.out->name.c_str(),
                   describe(out.rows).c_str(), describe(out.cols).c_str(), op.loops.size());
    }
  }

  Padding eltwise(const TileOp& op) {
    auto unit = [&](const char* name) { return as_str(op.get(name)); };
    Padding v = of(op.ins[0]);
    std::string binary_op = unit(names::kBinary) != "none" ? unit(names::kBinary) : unit(names::kSfpuBinary);
    if (binary_op != "none" && op.ins.size() > 1) {
      Padding b = of(op.ins[1]);
      v = {binary(binary_op, v.rows, b.rows), binary(binary_op, v.cols, b.cols)};
    }
    std::string bcast = unit(names::kBcast);
    if (bcast != "none" && op.ins.size() > 1) {
      Padding vec = of(op.ins[1]);
      if (unit(names::kBcastDim) == "cols") {  // v[i]: its rows' padding down the rows, its data across the cols
        v = {binary(bcast, v.rows, vec.rows), with(bcast, v.cols, Pad{Pad::kFinite})};
      } else {  // w[j]: its cols' padding across the cols, its data down the rows
        v = {with(bcast, v.rows, Pad{Pad::kFinite}), binary(bcast, v.cols, vec.cols)};
      }
    }
    std::string scalar = unit(names::kScalarOp);
    if (scalar != "none") {
      int64_t bits = as_int(op.get(names::kScalarBits));
      uint32_t word = static_cast<uint32_t>(bits);
      float c = 0;
      std::memcpy(&c, &word, sizeof c);
      v = {with(scalar, v.rows, constant(c)), with(scalar, v.cols, constant(c))};
    }
    std::string sfpu = unit(names::kSfpu);
    if (sfpu != "none") v = {unary(sfpu, v.rows), unary(sfpu, v.cols)};
    return v;
  }

  const std::map<std::string, double>& pads_;
  const std::map<std::string, double>& identities_;
  std::map<std::string, Padding> values_;
};

}  // namespace

std::map<std::string, double> pad_values(const std::vector<TileOp>& ops, const Any& func,
                                         const std::map<std::string, double>& identities) {
  std::vector<std::string> padded;  // the input tensors whose padding some block reads
  for (const TileOp& op : ops) {
    if (op.kind == "copy_in" && (op.pad_rows || op.pad_cols) &&
        std::find(padded.begin(), padded.end(), op.tensor->name) == padded.end()) {
      padded.push_back(op.tensor->name);
    }
  }
  std::vector<double> choices;  // the identities, in the spec's order, each once (0 first when present)
  for (const auto& [consumer, value] : identities) {
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) choices.push_back(value);
  }
  std::sort(choices.begin(), choices.end(), [](double a, double b) { return (a == 0) > (b == 0); });
  if (choices.empty()) choices.push_back(0.0);
  std::map<std::string, double> pads;
  for (const BufferInfo& t : tensor_params(func)) pads[t.name] = choices.front();
  size_t count = 1;
  for (size_t i = 0; i < padded.size() && count <= 4096; ++i) count *= choices.size();
  std::optional<std::vector<std::string>> fewest;
  for (size_t pick = 0; pick < std::min<size_t>(count, 4096); ++pick) {
    std::map<std::string, double> trial = pads;
    size_t rest = pick;
    for (const std::string& name : padded) {
      trial[name] = choices[rest % choices.size()];
      rest /= choices.size();
    }
    Follow follow(trial, identities);
    follow.run(ops);
    if (std::getenv("TL_PAD_DEBUG")) {
      for (const auto& [t, v] : trial) std::fprintf(stderr, "pad %s=%g ", t.c_str(), v);
      for (const std::string& v : follow.violations) std::fprintf(stderr, "\n  %s", v.c_str());
      std::fprintf(stderr, "\n");
    }
    if (follow.violations.empty()) return trial;
    if (!fewest || follow.violations.size() < fewest->size()) fewest = follow.violations;
  }
  fail((*fewest)[0] + "; where one tensor's padding feeds consumers that need different values, or a value "
       "derived from the data is reduced across padding, the compute kernel would have to mask it (index masks, "
       "issue 28), which the tenstorrent backend does not do yet: use whole tiles and blocks that divide the tensor "
       "along that dim");
}

}  // namespace tl
