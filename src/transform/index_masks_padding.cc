// Padding masks (index_masks.h padding_masks): a row reduction over a block whose columns are not whole tiles reads
// the block's padded columns, and the host's pad value (tile_padding_search.cc, one per tensor) cannot always make
// them the reduction's identity (0 for a sum, -inf for a max, +inf for a min):
// - a maximum or minimum of a buffer some T.gemm accumulates into (block-causal attention at block 48: acc_s
//   [48, 48] on 2 x 2 tiles): its padded columns hold Q times the padding rows of K's block, finite data, never the
//   -inf (+inf) a maximum (minimum) needs;
// - a sum of a value computed from a row's data (layer_norm's `sq = (x - mean[i]) ** 2`): its padding holds
//   (pad - mean) ** 2, never 0 whatever the pad (exp and exp2 are left alone: exp(-inf) is 0, which the padding
//   engine proves when it chooses -inf);
// - a sum of a value that is not 0 where its operands are (`x + 1`): its padding holds pad + 1, never 0;
// - reductions of different identities reading one value (a row sum and a row max of the same block, reduce_min and
//   reduce_max of one block): one pad cannot hold both.
// A column reduction (dim=0) over ragged rows is masked under the same rules with the axes swapped (i < M): the tile
// ops make it a transpose and a row reduction, and the mask before the transpose fills the padded rows.
// So the compute kernel masks them: before the reduction the engine puts the element-wise store
// `M[i, j] = T.if_then_else(j < N, S[i, j], identity)`, the identity on every logical element (j < N in the loop,
// which the analyzer would fold, so the engine keeps it) and the reduction's identity in the padded columns. The
// first two cases mask S in place (M = S: its later readers see the identity too, which exp keeps exact); the
// third masks into a new block per reduction (M = S_pad_<n>, read by the reduction instead of S), since -inf
// masked to 0 in place is -inf * 0. The mask's table tile is added to (multiplied with) each tile of the block (an
// index mask selecting a buffer against +-inf or 0, tile_ops_masks.cc), and the padding engine resolves the mask
// over the padded columns to the identity (tile_padding_values.cc). The cost: one mask table tile read per kernel
// block, one tile op per tile of the block, and in the third case one more block of CB pages.
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "engine_common.h"
#include "index_masks.h"
#include "loop_blocks.h"
#include "tile_ops_util.h"

namespace tl::masks {

namespace {

// The identity of a row reduction: what its padded columns must hold (nullopt: not a reduction).
std::optional<double> identity_of(const std::string& op) {
  if (op == "tirx.tile.sum") return 0.0;
  if (op == "tirx.tile.max") return -std::numeric_limits<double>::infinity();
  if (op == "tirx.tile.min") return std::numeric_limits<double>::infinity();
  return std::nullopt;
}

// One write to or reduction of an on-chip buffer, in walk order (the program's order; loops are not unrolled).
struct Event {
  std::string buffer;
  Any node;               // the reduction (a TilePrimitiveCall) or the writer (TilePrimitiveCall or BufferStore)
  bool reduce = false;    // a row reduction reading `buffer`, else a write of it
  std::string writer;     // a write's tile op ("tirx.tile.gemm"), or "store" for an element-wise store
};

std::vector<Event> events_of(const Any& body) {
  std::vector<Event> out;
  walk(body, {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& call) {
                std::string op = call.op().name();
                List args = call.args();
                if (identity_of(op)) out.push_back({tileops::region_of(args[1]).info.name, call.any(), true, ""});
                if (!args.empty() && ir::TensorRegion::matches(args[0])) {
                  out.push_back({tileops::region_of(args[0]).info.name, call.any(), false, op});
                }
              }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& store) {
                out.push_back({buffer_info(store.buffer().any()).name, store.any(), false, "store"});
              })});
  return out;
}

// Whether `expr` mentions the variable `v`.
bool mentions(const Any& expr, const Any& v) {
  bool found = false;
  walk(expr, {ir::visit<ir::Var>([&](const ir::Var& x) { found = found || x.any().same_as(v); })});
  return found;
}

// Whether an expression is an exp or exp2 at the top (exp of the -inf pad is 0, which the padding engine proves).
bool top_is_exp(const Any& value) {
  auto c = ir::Call::from(value);
  if (!c) return false;
  auto callee = ir::Op::from(c->op());
  std::string name = callee ? std::string(callee->name()) : "";
  size_t dot = name.find('.');
  std::string fn = dot == std::string::npos ? name : name.substr(dot + 1);
  return fn == "exp" || fn == "exp2";
}

// Whether an element-wise store reads a per-line value on chip (a 1-D vector at an index free of the index of the
// reduced axis `axis`: layer_norm's mean[i] for a row sum, mean[0] in a [1, N] row block; a vector at the reduced
// index is a vector along that axis whose padding the host fills), its value at the top not an exp (exp of the -inf
// pad is 0).
bool line_derived(const ir::BufferStore& store, size_t axis) {
  Any value = store.value().any();
  if (top_is_exp(value)) return false;
  List indices = as_list(store.indices());
  if (indices.size() != 2) return false;
  bool found = false;
  walk(value, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& load) {
         BufferInfo info = buffer_info(load.source().any());
         ffi::Array<Any> at = load.indices();
         if (info.on_chip() && info.shape.size() == 1 && at.size() == 1 && !mentions(at[0], indices[axis])) found = true;
       })});
  return found;
}

// The value of an element-wise expression where every load reads 0 (the padding a sum's operands get), when it is
// made of constants, loads and + - * / min max casts only; nullopt otherwise.
std::optional<double> value_at_zero(const Any& e) {
  if (auto f = ir::FloatImm::from(e)) return f->value();
  if (auto i = ir::IntImm::from(e)) return static_cast<double>(i->value());
  if (ir::TensorLoad::matches(e)) return 0.0;
  if (auto c = ir::Cast::from(e)) return value_at_zero(c->value().any());
  auto both = [&](const Any& a, const Any& b) -> std::optional<std::pair<double, double>> {
    auto x = value_at_zero(a), y = value_at_zero(b);
    if (!x || !y) return std::nullopt;
    return std::make_pair(*x, *y);
  };
  std::optional<std::pair<double, double>> v;
  if (auto o = ir::Add::from(e); o && (v = both(o->a().any(), o->b().any()))) return v->first + v->second;
  if (auto o = ir::Sub::from(e); o && (v = both(o->a().any(), o->b().any()))) return v->first - v->second;
  if (auto o = ir::Mul::from(e); o && (v = both(o->a().any(), o->b().any()))) return v->first * v->second;
  if (auto o = ir::Div::from(e); o && (v = both(o->a().any(), o->b().any())) && v->second != 0) {
    return v->first / v->second;
  }
  if (auto o = ir::Max::from(e); o && (v = both(o->a().any(), o->b().any()))) return std::max(v->first, v->second);
  if (auto o = ir::Min::from(e); o && (v = both(o->a().any(), o->b().any()))) return std::min(v->first, v->second);
  return std::nullopt;
}

// Whether an element-wise store's value is not 0 where its operands are (`x + 1`, `1 - x`): a sum of it reads
// padding no pad value of x makes 0 (pad + 1), so it is masked.
bool offset_derived(const ir::BufferStore& store) {
  if (top_is_exp(store.value().any())) return false;
  std::optional<double> at_zero = value_at_zero(store.value().any());
  return at_zero && *at_zero != 0;
}

enum class Masking { kNone, kInPlace, kCopy };

// How a reduction over a ragged block is masked: in which axis (1: a row reduction over ragged columns; 0: a
// column reduction, `dim=0`, over ragged rows, which the tile ops make a transpose and a row reduction).
struct Planned {
  Any node;  // the reduction
  Masking masking;
  size_t axis;
};

// How each reduction over a ragged block is masked (keyed by the reduction node).
std::vector<Planned> plan(const std::vector<Event>& events, int64_t tile_cols) {
  std::set<std::string> products;  // the buffers some T.gemm accumulates into, anywhere in the body
  for (const Event& e : events) {
    if (!e.reduce && e.writer == "tirx.tile.gemm") products.insert(e.buffer);
  }
  std::vector<Planned> out;
  const int64_t tile[2] = {tileops::tile_shape().first, tile_cols};
  for (size_t r = 0; r < events.size(); ++r) {
    const Event& e = events[r];
    if (!e.reduce) continue;
    ir::TilePrimitiveCall reduce(e.node);
    List args = reduce.args();
    tileops::Region src = tileops::region_of(args[1]);
    List axes = as_list(args[2]);
    int64_t axis = axes.size() == 1 ? as_int(axes[0]) : -1;
    const std::vector<int64_t>& shape = src.info.shape;
    if (shape.size() != 2 || !src.info.on_chip() || axis < -1 || axis > 1) continue;
    size_t reduced = axis == 0 ? 0 : 1;
    if (shape[reduced] % tile[reduced] == 0) continue;
    // The reductions reading the same value: those of this buffer with no write of it in between.
    size_t first = r, last = r;
    while (first > 0 && !(events[first - 1].buffer == e.buffer && !events[first - 1].reduce)) --first;
    while (last + 1 < events.size() && !(events[last + 1].buffer == e.buffer && !events[last + 1].reduce)) ++last;
    std::set<double> identities;
    for (size_t k = first; k <= last; ++k) {
      if (events[k].reduce && events[k].buffer == e.buffer) {
        identities.insert(*identity_of(ir::TilePrimitiveCall(events[k].node).op().name()));
      }
    }
    double identity = *identity_of(reduce.op().name());
    const Event* writer = first > 0 ? &events[first - 1] : nullptr;
    Masking m = Masking::kNone;
    if (identities.size() > 1) {
      m = Masking::kCopy;
    } else if (identity != 0 && products.count(e.buffer)) {
      m = Masking::kInPlace;
    } else if (identity == 0 && writer && writer->writer == "store" &&
               (line_derived(ir::BufferStore(writer->node), reduced) || offset_derived(ir::BufferStore(writer->node)))) {
      m = Masking::kInPlace;
    }
    if (m != Masking::kNone) out.push_back({e.node, m, reduced});
  }
  return out;
}

// The nest M[i, j] = T.if_then_else(j < N, S[i, j], identity) over S's [M, N] block (i < M for axis 0).
Any mask_nest(const Any& source, const Any& target, const BufferInfo& info, double identity, size_t axis) {
  Any i = var("i", "int32"), j = var("j", "int32");
  Any load = call("tirx.BufferLoad", source, List{i, j}, Any(nullptr));
  Any cond = call("prim._OpLT", axis == 0 ? i : j, int_imm(info.shape[axis]), Any(nullptr));
  Any pad = make_const(Any(identity), info.dtype.c_str());
  Any value = call_intrin(info.dtype, "prim.if_then_else", List{cond, load, pad});
  Any store = call("tirx.BufferStore", target, value, List{i, j}, Any(nullptr));
  Any inner = for_loop(j, int_imm(0), int_imm(info.shape[1]), 1, store);
  return for_loop(i, int_imm(0), int_imm(info.shape[0]), 1, inner);
}

}  // namespace

std::pair<Any, std::vector<Any>> padding_masks(const Any& body, int64_t tile_cols) {
  std::vector<Planned> masked = plan(events_of(body), tile_cols);
  std::vector<Any> nests;
  int copies = 0;
  Any out = map(body, {ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& reduce) -> Any {
                  auto it = std::find_if(masked.begin(), masked.end(),
                                         [&](const Planned& m) { return m.node.same_as(reduce.any()); });
                  if (it == masked.end()) return reduce.any();
                  List args = reduce.args();
                  BufferInfo info = tileops::region_of(args[1]).info;
                  Any source = ir::TensorRegion(args[1]).source();
                  double identity = *identity_of(reduce.op().name());
                  if (it->masking == Masking::kInPlace) {
                    nests.push_back(mask_nest(source, source, info, identity, it->axis));
                    return seq({nests.back(), reduce.any()});
                  }
                  Any copy = loops::onchip_buffer(info.name + "_pad_" + std::to_string(copies++), info.dtype,
                                           List{int_imm(info.shape[0]), int_imm(info.shape[1])}, info.scope.c_str());
                  nests.push_back(mask_nest(source, copy, info, identity, it->axis));
                  List reads = args;
                  reads.Set(1, loops::full_region(copy));
                  Any alloc = call("tirx.AllocBuffer", copy, ffi::Map<String, Any>(), Any(nullptr));
                  return seq({alloc, nests.back(), loops::tile_call(std::string(reduce.op().name()).c_str(), reads)});
                })});
  return {out, nests};
}

}  // namespace tl::masks
