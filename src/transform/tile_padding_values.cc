// What the padding of every on-chip value holds, followed through the tile ops (tile_ops.h: pad_values): the value
// each input tensor's padding is filled with is picked so that every reduction and gemm reads its identity there.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "engine_common.h"
#include "index_masks.h"
#include "records.h"
#include "tile_ops_util.h"

namespace tl {

namespace {

// What a value holds along one axis (its rows, or its cols) beyond its logical extent. `region`: whether it has
// padding there (a block that is not whole tiles, or an edge block); without, `kind` is what it holds where another
// operand's padding is (a fill's constant, or data) and no consumer reads padding of it.
struct Pad {
  enum Kind { kConst, kFinite, kAny } kind = kFinite;  // a constant; data-dependent finite values; anything
  double value = 0;
  bool region = false;
  std::string origin;  // the tensor whose padding it is, passed on unchanged
  Any start;           // the first index of the padding (block indices, loop variables), or null where unknown
};
// A value's padding along its rows and its cols. `corner`: whether the padded rows' padded cols hold what both axes
// say (a mask resolved on one axis says what it holds in the other's logical extent only). `mask`: the value is an
// index mask's block (index_masks.h), which holds what its condition says wherever it meets another value's padding.
// `low`: a value no logical element is below (a fill's constant, 0 for an element index, the lesser of a selection's
// two): padding that holds at most it keeps a row maximum exact, as upstream top-k's `T.fill(expand_max_idx, -1)`
// leaves -1 under the column indices its int32 maximum picks from.
struct Padding {
  Pad rows, cols;
  bool corner = true;
  std::optional<masks::IndexMask> mask;
  int64_t mask_rows = 0, mask_cols = 0;
  std::optional<double> low;
};

Pad constant(double v, bool region = false) {
  if (std::isnan(v)) return {Pad::kAny, 0, region};
  return {Pad::kConst, v, region};
}
std::string describe(const Pad& p) {
  auto num = [](double v) { return std::isinf(v) ? std::string(v < 0 ? "-inf" : "inf") : format_value(Any(v)); };
  switch (p.kind) {
    case Pad::kConst: return p.origin.empty() ? num(p.value) : "tensor '" + p.origin + "''s padding, " + num(p.value);
    case Pad::kFinite: return "values that depend on the data";
    default: return "values that may be infinite or NaN";
  }
}
Pad content(const std::string& op, const Pad& a, const Pad& b) {
  if (a.kind == Pad::kAny || b.kind == Pad::kAny) return {Pad::kAny};
  if (a.kind == Pad::kConst && b.kind == Pad::kConst) {
    auto v = tileops::pad_math(op, a.value, b.value);
    return v ? constant(*v) : Pad{Pad::kAny};
  }
  if (a.kind == Pad::kFinite && b.kind == Pad::kFinite) {
    return op == "div" || !tileops::pad_math(op, 1.0, 1.0) ? Pad{Pad::kAny} : Pad{Pad::kFinite};
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
// The padding of both of two values starts at one index when both say where and the analyzer proves them equal.
Any same_start(const Any& a, const Any& b) {
  if (a == nullptr || b == nullptr) return Any();
  if (a.same_as(b)) return a;
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  return truthy(call("sym.AnalyzerCanProve", analyzer, fn::expr(fn::eq(a, b)), 0)) ? a : Any();
}
// An operation of two values: padding where either has it, holding the operation of what both hold there.
Pad binary(const std::string& op, const Pad& a, const Pad& b) {
  Pad out = content(op, a, b);
  out.region = a.region || b.region;
  out.start = a.region && b.region ? same_start(a.start, b.start) : a.region ? a.start : b.start;
  return out;
}
// What an index mask's block holds where it meets the padding of `other`: its condition over the padded cols of
// other's logical rows, and over the padded rows of its logical cols (index_masks.h over_box), a constant where the
// condition is one truth value there. The corner where both pad is not looked at.
Padding resolve(const Padding& m, const Padding& other) {
  Padding out = m;
  out.mask.reset();
  auto value = [&](std::optional<bool> holds) {
    return holds ? constant(*holds ? m.mask->on_true : m.mask->on_false) : Pad{Pad::kAny};
  };
  auto known = [](const Pad& p) { return p.region && p.start != nullptr; };
  // the box reaches the block's whole tiles: a block that is not whole tiles has padding past its logical extent
  auto [th, tw] = tileops::tile_shape();
  Any zero(int64_t(0)), rows((m.mask_rows + th - 1) / th * th), cols((m.mask_cols + tw - 1) / tw * tw);
  if (known(other.cols)) {
    out.cols = value(masks::over_box(m.mask->form, zero, known(other.rows) ? other.rows.start : rows,
                                     other.cols.start, cols));
  }
  if (known(other.rows)) {
    out.rows = value(masks::over_box(m.mask->form, other.rows.start, rows, zero,
                                     known(other.cols) ? other.cols.start : cols));
  }
  out.corner = !(other.rows.region && other.cols.region);
  return out;
}
// An operation of a value and one that is the same in its padding as elsewhere (a constant, a broadcast vector's
// data): padding where the value has it.
Pad with(const std::string& op, const Pad& a, const Pad& b) {
  Pad out = content(op, a, b);
  out.region = a.region;
  out.start = a.start;
  return out;
}
Pad unary(const std::string& f, const Pad& x) {
  Pad out{Pad::kAny, 0, x.region, "", x.start};
  if (x.kind == Pad::kConst) {
    auto v = tileops::pad_math(f, x.value);
    if (v) out = constant(*v, x.region);
    out.start = x.start;
  } else if (x.kind == Pad::kFinite) {
    bool bounded = f == "exp" || f == "exp2" || f == "relu" || f == "sigmoid" || f == "tanh";
    if (bounded) out.kind = Pad::kFinite;
  }
  return out;
}
// A row reduction's result along the axis it keeps: the pool over the padding of the other axis.
Pad reduced(const std::string& pool, const Pad& p) {
  Pad out{p.kind == Pad::kConst ? Pad::kFinite : p.kind, 0, p.region};
  if (p.kind == Pad::kConst && (pool == "max" || p.value == 0 || std::isinf(p.value))) out = constant(p.value, p.region);
  out.start = p.start;
  return out;
}
// A row maximum over columns whose padding holds a constant no logical element of the row is below: exact.
bool below_every_value(const std::string& pool, const Padding& v) {
  return pool == "max" && v.low && v.cols.kind == Pad::kConst && v.cols.value <= *v.low;
}
bool holds(const Pad& p, double identity) { return !p.region || (p.kind == Pad::kConst && p.value == identity); }
bool finite(const Pad& p) { return p.kind == Pad::kFinite || (p.kind == Pad::kConst && std::isfinite(p.value)); }

class Follow {
 public:
  Follow(const std::map<std::string, double>& pads, const std::map<std::string, double>& identities,
         const std::set<std::string>& index_tables)
      : pads_(pads), identities_(identities), index_tables_(index_tables) {}

  void run(const std::vector<TileOp>& all) {
    all_ = &all;
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
  // A block read from a tensor: its padding holds the tensor's pad value.
  Padding copied(const TileOp& op) {
    auto it = pads_.find(op.tensor->name);
    Pad p = it == pads_.end() ? Pad{} : Pad{Pad::kConst, it->second, true, op.tensor->name};
    Pad rows = p, cols = p;
    if (op.pad_rows_data) {  // a copy of the block's last row (reader_rows), with the tensor's padding if any
      rows = it == pads_.end() || std::isfinite(it->second) ? Pad{Pad::kFinite, 0, true} : Pad{Pad::kAny, 0, true};
    }
    rows.start = op.pad_row_start, cols.start = op.pad_col_start;
    return {op.pad_rows ? rows : Pad{}, op.pad_cols ? cols : Pad{}};
  }
  Padding masked(const TileOp& op) {
    Padding out{{Pad::kAny}, {Pad::kAny}};
    auto nest = tileops::eltwise_nest(op.stmt);
    std::vector<Any> lvars;
    for (const ir::For& loop : nest->first) lvars.push_back(loop.loop_var());
    bool index = op.tensor && index_tables_.count(op.tensor->name);  // an element index's block, not the mask's
    if (!index) out.mask = masks::index_mask(lvars, nest->second.any(), std::numeric_limits<int64_t>::max());
    if (out.mask && std::isfinite(out.mask->on_true) && std::isfinite(out.mask->on_false)) {
      out.rows = out.cols = Pad{Pad::kFinite};  // not resolved: one of its two finite values anywhere
    }
    out.mask_rows = op.out->shape[0], out.mask_cols = op.out->shape.size() == 2 ? op.out->shape[1] : 1;
    if (index) out.low = 0.0;  // p * i + q * j + step * t, all >= 0
    return out;
  }
  void step(const TileOp& op) {
    const std::string& k = op.kind;
    if (!op.out) return;
    Padding out{{Pad::kAny}, {Pad::kAny}};
    if (k == tile_op::kCopyIn || k == tile_op::kRowsIn) {
      out = copied(op);
    } else if (k == tile_op::kCopyLocal || k == tile_op::kTilize) {
      out = of(op.ins[0]);
    } else if (k == tile_op::kAtomicIn || k == tile_op::kIm2colIn) {
      out = {};
    } else if (k == tile_op::kTranspose) {
      Padding in = of(op.ins[0]);
      out = {in.cols, in.rows, in.corner};
    } else if (k == tile_op::kFill) {  // padding where the buffer is not whole tiles
      auto [th, tw] = tileops::tile_shape();
      const std::vector<int64_t>& shape = op.out->shape;
      double c = tileops::fill_constant(op).value_or(std::nan(""));  // a value of the block indices: anything
      out = {constant(c, shape[0] % th != 0), constant(c, shape.size() == 2 && shape[1] % tw != 0)};
      out.rows.start = Any(shape[0]);
      if (shape.size() == 2) out.cols.start = Any(shape[1]);
      if (!std::isnan(c)) out.low = c;
    } else if (k == tile_op::kMask) {  // an index mask's block: what it holds is resolved where it meets padding
      out = masked(op);
    } else if (k == tile_op::kEltwise) {
      out = eltwise(op);
    } else if (k == tile_op::kSelect) {
      out = select(op);
    } else if (k == tile_op::kReduce) {
      std::string pool = as_str(op.get(names::kPool));
      Padding src = of(op.ins[0]);
      if (identities_.count(pool) && !below_every_value(pool, src)) {
        need(src.cols, identities_.at(pool), "T.reduce_" + pool + " into '" + op.out->name + "'", op.ins[0].name,
             "columns");
      }
      out = {reduced(pool, src.rows), {Pad::kAny}};
      if (!src.corner && src.cols.region) out.rows.kind = Pad::kAny;  // its padded rows pool the corner
      if (!truthy(op.get(names::kClear)) && op.ins.size() > 2) {
        out.rows = binary(pool == "max" ? "max" : "add", out.rows, of(op.ins[2]).rows);
      }
    } else if (k == tile_op::kCumsum) {  // a reverse scan adds the rows below each row, padding included, into it
      if (as_int(op.get(names::kReverse)) != 0 && identities_.count("sum")) {
        need(of(op.ins[0]).rows, identities_.at("sum"), "T.cumsum(reverse=True) into '" + op.out->name + "'",
             op.ins[0].name, "rows");
      }
    } else if (k == tile_op::kGemm) {
      Padding a = of(op.ins[0]), b = of(op.ins[1]);
      std::string consumer = "T.gemm(" + op.ins[0].name + ", " + op.ins[1].name + ") into '" + op.out->name + "'";
      if (identities_.count("gemm")) {  // the K padding of one operand holds 0 and the other's is finite
        double zero = identities_.at("gemm");
        auto ok_with = [&](const Pad& p) { return !p.region || finite(p); };
        bool ok = (holds(a.cols, zero) && ok_with(b.rows)) || (holds(b.rows, zero) && ok_with(a.cols));
        if (!ok) need(holds(a.cols, zero) ? b.rows : a.cols, zero, consumer, holds(a.cols, zero) ? op.ins[1].name
                      : op.ins[0].name, holds(a.cols, zero) ? "rows (K)" : "columns (K)");
      }
      auto product = [](const Pad& p) {  // a padded row of A (or column of B) times finite data
        Pad out = p.kind == Pad::kConst && p.value == 0 ? constant(0.0, p.region)
                                                        : Pad{finite(p) ? Pad::kFinite : Pad::kAny, 0, p.region};
        out.start = p.start;
        return out;
      };
      out = {product(a.rows), product(b.cols), a.corner && b.corner};
      if (!a.corner) out.rows.kind = Pad::kAny;  // A's padded rows times B's K rows pass A's corner
      if (!b.corner) out.cols.kind = Pad::kAny;
      if (!truthy(op.get(names::kClear)) && values_.count(op.out->name)) {
        Padding acc = of(*op.out);
        out = {binary("add", acc.rows, out.rows), binary("add", acc.cols, out.cols)};
      }
    }
    values_[op.out->name] = joined(op, out);
  }
  // A value made in both arms of an if/else (arm_twin: one CB either arm pushes) holds what both arms' values hold.
  Padding joined(const TileOp& op, Padding out) {
    size_t i = static_cast<size_t>(&op - all_->data());
    for (size_t d = op.branches.size(); d > 0 && arm_twin(*all_, i, d) && made_.count(*arm_twin(*all_, i, d)); --d) {
      const Padding& o = made_.at(*arm_twin(*all_, i, d));
      // an index mask not resolved: anything, or data where both its values are finite (block-causal's -1e6)
      auto unknown = [](const Padding& p) {
        return p.mask && !(std::isfinite(p.mask->on_true) && std::isfinite(p.mask->on_false));
      };
      bool any = unknown(out) || unknown(o);
      auto meet = [&](const Pad& a, const Pad& b) {
        bool same = !any && a.kind == Pad::kConst && b.kind == Pad::kConst && a.value == b.value;
        Pad p = same ? a : Pad{!any && finite(a) && finite(b) ? Pad::kFinite : Pad::kAny};
        p.region = a.region || b.region;
        p.start = !a.region ? b.start : !b.region ? a.start : same_start(a.start, b.start);
        return p;
      };
      std::optional<double> low = out.low && o.low ? std::optional<double>(std::min(*out.low, *o.low)) : std::nullopt;
      out = {meet(o.rows, out.rows), meet(o.cols, out.cols), o.corner && out.corner, std::nullopt, 0, 0, low};
    }
    return made_[i] = out;
  }
  Padding eltwise(const TileOp& op) {
    auto unit = [&](const char* name) { return as_str(op.get(name)); };
    Padding v = of(op.ins[0]);
    if (unit(names::kWhere) != "none") return where(op, v, of(op.ins[1]));
    std::string binary_op = unit(names::kBinary) != "none" ? unit(names::kBinary) : unit(names::kSfpuBinary);
    if (binary_op != "none" && op.ins.size() > 1) {
      Padding b = of(op.ins[1]);
      if (v.mask && !b.mask) v = resolve(v, b);
      if (b.mask && !v.mask) b = resolve(b, v);
      v = {binary(binary_op, v.rows, b.rows), binary(binary_op, v.cols, b.cols), v.corner && b.corner};
    }
    std::string bcast = unit(names::kBcast);
    if (bcast != "none" && op.ins.size() > 1) {
      Padding vec = of(op.ins[1]);
      if (unit(names::kBcastDim) == "scalar") {  // s[0]: one finite element everywhere
        v = {with(bcast, v.rows, Pad{Pad::kFinite}), with(bcast, v.cols, Pad{Pad::kFinite}), v.corner};
      } else if (unit(names::kBcastDim) == "cols") {  // v[i]: its rows' padding down the rows, its data across the cols
        v = {binary(bcast, v.rows, vec.rows), with(bcast, v.cols, Pad{Pad::kFinite}), v.corner};
      } else {  // w[j]: its cols' padding across the cols, its data down the rows
        v = {with(bcast, v.rows, Pad{Pad::kFinite}), binary(bcast, v.cols, vec.cols), v.corner};
      }
    }
    auto apply = [&](const std::string& what, const char* bits) {  // an op with a constant given as fp32 bits
      uint32_t word = static_cast<uint32_t>(as_int(op.get(bits)));
      float c = 0;
      std::memcpy(&c, &word, sizeof c);
      v = {with(what, v.rows, constant(c)), with(what, v.cols, constant(c)), v.corner};
    };
    if (unit(names::kScalarOp) != "none") apply(unit(names::kScalarOp), names::kScalarBits);
    if (unit(names::kClamp) != "none") apply("max", names::kClampLo), apply("min", names::kClampHi);  // clamp_tile
    std::string sfpu = unit(names::kSfpu);
    if (sfpu != "none") v = {unary(sfpu, v.rows), unary(sfpu, v.cols), v.corner};
    return v;
  }
  // A selection (where_tile): the block where the condition's padding is a constant that picks it, the constant
  // where it picks that, anything where the condition is data (the comparison of padding values it read).
  // where(cond, x, y) of two blocks: x where the condition's padding holds a constant not zero, y where it holds 0.
  Padding select(const TileOp& op) {
    Padding cond = of(op.ins[0]), x = of(op.ins[1]), y = of(op.ins[2]);
    auto pick = [](const Pad& c, const Pad& a, const Pad& b) {
      Pad p = c.kind != Pad::kConst ? Pad{Pad::kAny} : c.value != 0 ? a : b;
      p.region = c.region || a.region || b.region;
      p.start = c.region ? c.start : a.region ? a.start : b.start;
      return p;
    };
    Padding out{pick(cond.rows, x.rows, y.rows), pick(cond.cols, x.cols, y.cols), cond.corner && x.corner && y.corner};
    if (x.low && y.low) out.low = std::min(*x.low, *y.low);
    return out;
  }

  Padding where(const TileOp& op, const Padding& cond, const Padding& block) {
    bool then = as_str(op.get(names::kWhere)) == "then";
    Pad value = constant(as_float(op.get(names::kWhereValue)));
    auto pick = [&](const Pad& c, const Pad& b) {
      Pad out = c.kind != Pad::kConst ? Pad{Pad::kAny} : (c.value != 0) == then ? b : value;
      out.region = c.region || b.region;
      out.start = c.region ? c.start : b.start;
      return out;
    };
    return {pick(cond.rows, block.rows), pick(cond.cols, block.cols), cond.corner && block.corner};
  }

  const std::map<std::string, double>& pads_;
  const std::map<std::string, double>& identities_;
  const std::set<std::string>& index_tables_;  // AddTTConstants' index tables (tt.constants `index`)
  std::map<std::string, Padding> values_;
  const std::vector<TileOp>* all_ = nullptr;
  std::map<size_t, Padding> made_;  // by op index: the value it made (joined with its arms' twins)
};

}  // namespace

std::vector<std::string> padding_violations(const std::vector<TileOp>& ops, const std::map<std::string, double>& pads,
                                            const std::map<std::string, double>& identities,
                                            const std::set<std::string>& index_tables) {
  Follow follow(pads, identities, index_tables);
  follow.run(ops);
  return follow.violations;
}

}  // namespace tl
