// The expression-tree splitter of element-wise stores (tile_ops_tree.cc; its selections in
// tile_ops_tree_select.cc): shared by the two files only.
#pragma once

#include <algorithm>
#include <limits>

#include "engine_common.h"
#include "index_masks.h"
#include "tile_ops_util.h"

namespace tl::tileops::tree {

using eltwise::Unit;

// A lowered operand: an on-chip value (a buffer the store reads, or one a previous op made), or a constant.
enum class Vec { kFull, kColumn, kRow, kScalar };  // a block; v[i] of a [block_M] buffer; w[j] of a 1-D tensor; s[0]

struct Value {
  std::optional<BufferInfo> buf;
  Vec vec = Vec::kFull;
  std::optional<double> constant;
  int piece = -1;  // the op that made it (-1: a buffer of the kernel)
};

class Tree {
 public:
  // `anchor`: the statement the ops replace (the outermost loop of the nest when null).
  Tree(const std::vector<ir::For>& loops, const ir::BufferStore& store, size_t first, const Any& anchor = Any())
      : out_(buffer_info(store.buffer())), stmt_(anchor == nullptr ? loops[0].any() : anchor), first_(first) {
    for (const ir::For& loop : loops) lvars_.push_back(loop.loop_var());
  }

  // The ops making `value` into `out`, a value of the loops' shape that no store names (a masked operand).
  Tree(const std::vector<ir::For>& loops, BufferInfo out, size_t first)
      : out_(std::move(out)), stmt_(loops[0]), first_(first) {
    for (const ir::For& loop : loops) lvars_.push_back(loop.loop_var());
  }

  // The ops of `value`, or nullopt when it is not a tree of supported operations on on-chip values.
  std::optional<std::vector<TileOp>> split(const Any& value) {
    std::optional<Value> root = lower(value);
    // One element or a vector stored to every element of its row or column (`X[i, j] = v[i]`): a broadcast copy.
    if (root && root->vec != Vec::kFull) root = broadcast_copy(*root);
    if (!root || root->piece < 0) return std::nullopt;
    pieces_.back().out = out_;
    if (pieces_.back().kind == tile_op::kEltwise) {
      pieces_.back().fields = eltwise_fields(out_, units_.back(), bits_.back());
    }
    return pieces_;
  }
  size_t size() const { return pieces_.size(); }
  // The operand that stopped the split and why (empty: refusal() says why), if one did.
  const std::optional<std::pair<Any, std::string>>& bad() const { return bad_; }
  // Whether an op bounds a value by constants (clamp_tile; the recogniser's single ops have no such field).
  bool clamps() const {
    for (const EltwiseUnits& u : units_) {
      if (u.clamp != "none") return true;
    }
    return false;
  }
  bool broadcasts() const {
    for (const EltwiseUnits& u : units_) {
      if (u.bcast != "none") return true;
    }
    return false;
  }

 private:
  std::nullopt_t reject(const Any& expr, const std::string& why = "") {
    if (!bad_) bad_ = std::make_pair(expr, why);
    return std::nullopt;
  }

  std::optional<Value> need_buffer(const std::optional<Value>& v, const Any& expr) {
    if (v && !v->buf) return reject(expr, "is a constant where the operation needs an on-chip value");
    return v;
  }

  // A buffer read: the store's shape at the loop indices, or (in a 2-D store) a column vector at the row index.
  std::optional<Value> leaf(const ir::TensorLoad& load) {
    BufferInfo info = buffer_info(load.source());
    List idx = load.indices();
    if (!info.on_chip()) return tensor_row(load, info);
    if (info.shape == out_.shape && idx.size() == lvars_.size()) {
      for (size_t i = 0; i < idx.size(); ++i) {
        if (!is_index(idx[i], lvars_[i])) return reject(load.any());
      }
      return Value{info};
    }
    bool one_index = out_.shape.size() == 2 && info.shape.size() == 1 && idx.size() == 1;
    if (one_index && is_index(idx[0], lvars_[0]) && info.shape[0] == out_.shape[0]) return Value{info, Vec::kColumn};
    bool one = std::all_of(info.shape.begin(), info.shape.end(), [](int64_t e) { return e == 1; });
    bool at_zero = std::all_of(idx.begin(), idx.end(), [](const Any& i) { return is_const_int(i, 0); });
    if (one && at_zero && idx.size() == info.shape.size()) return Value{info, Vec::kScalar};  // s[0]: one element
    if (one_index && is_index(idx[0], lvars_[1]) && info.shape[0] == out_.shape[1]) return onchip_row(info);
    if (one_index && is_index(idx[0], lvars_[1])) {
      return reject(load.any(), "is a 1-D on-chip buffer of length " + std::to_string(info.shape[0]) + " read at the "
                    "column index of a store " + std::to_string(out_.shape[1]) + " columns wide; vectors broadcast "
                    "whole (v[i] along rows, v[j] along columns)");
    }
    return reject(load.any());
  }

  // An element index in arithmetic (retention's decay `T.exp2((row - col) * log_decay)`): a block of the index
  // table's tiles (index_tiles.cc), in the dtype the tree makes values in, where that dtype holds every index exactly.
  std::optional<Value> index_leaf(const Any& expr, int axis) {
    BufferInfo as = out_;
    if (!made_dtype_.empty()) as.dtype = made_dtype_;
    int64_t exact = as.dtype == "float32" ? (1 << 24) : as.dtype == "float16" ? 2048 : as.dtype == "bfloat16" ? 256 : 0;
    if (lvars_.size() != 2 || exact == 0 || out_.shape[axis] > exact) {
      return reject(expr, "uses the element index " + format_value(lvars_[axis]) + " as a value in a " + as.dtype +
                    " store of shape " + ints_str(out_.shape) + "; the tenstorrent backend computes with element "
                    "indices of 2-D float stores whose dtype holds every index exactly (bfloat16: 256, float16: 2048)");
    }
    TileOp copy = index_op(as, axis, stmt_, out_.name + "_index" + std::to_string(first_ + pieces_.size()));
    pieces_.push_back(copy);
    units_.push_back({"none", "none", "none", "none", "none"});
    bits_.push_back(0);
    return Value{*copy.out, Vec::kFull, std::nullopt, static_cast<int>(pieces_.size()) - 1};
  }

  // An integer value the same for every element and not a constant (retention's per-head `T.Cast("float32", i_bh)`
  // under its decay's T.exp2 / T.log2): block indices, loop variables and scalars, no element index, no buffer.
  bool uniform(const Any& expr) const {
    if (!is_integer_dtype(ir::PrimType(ir::Expr(expr).ty()).dtype())) return false;
    bool varying = false;
    walk(expr, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad&) { varying = true; }),
                ir::visit<ir::Var>([&](const ir::Var& v) {
                  for (const Any& l : lvars_) varying = varying || v.same_as(l);
                })});
    return !varying;
  }

  // A uniform value as a block: fill_tile of the value the compute kernel computes from its block's indices (the
  // integer converted to float on the scalar core); the SFPU then computes the functions of it (exp2, log2) as for
  // any block.
  std::optional<Value> runtime_fill(const Any& expr) {
    BufferInfo made = out_;
    made.var = Any();
    made.name = out_.name + "_t" + std::to_string(first_ + pieces_.size());
    if (!made_dtype_.empty()) made.dtype = made_dtype_;
    made.scope = "local.fragment";
    if (made.dtype != "float32" && made.dtype != "float16" && made.dtype != "bfloat16") {
      return reject(expr, "is a value of the block indices in a " + made.dtype + " store (a fill of float values)");
    }
    auto [rows, cols] = tiles(made, "on-chip buffer");
    TileOp fill{tile_op::kFill, stmt_, made};
    fill.fields = {{names::kValue, expr}, {names::kTiles, Any(rows * cols)}};
    pieces_.push_back(fill);
    units_.push_back({"none", "none", "none", "none", "none"});
    bits_.push_back(0);
    return Value{made, Vec::kFull, std::nullopt, static_cast<int>(pieces_.size()) - 1};
  }

  // A store of one element to every element (`sinks[i] = s[0]`): a block of zeros (a fill), then the scalar added to
  // it by the broadcast (exact: 0 + s is s).
  // A vector likewise (for binary_max_tile / binary_min_tile, which have no broadcast form): add_tiles_bcast_cols/rows.
  std::optional<Value> broadcast_copy(const Value& scalar) {
    Unit unit = scalar.vec == Vec::kScalar ? Unit::kFpuBcastScalar : scalar.vec == Vec::kColumn ? Unit::kFpuBcastCols
                                                                                                 : Unit::kFpuBcastRows;
    const eltwise::Op* add = op_named(unit, "add");
    if (add == nullptr) return reject(stmt_, "is a broadcast, which the op map has no add entry of " + eltwise::written({unit}) + " for");
    BufferInfo zeros = out_;
    zeros.var = Any();
    zeros.name = out_.name + "_t" + std::to_string(first_ + pieces_.size());
    zeros.scope = "local.fragment";
    auto [rows, cols] = tiles(zeros, "on-chip buffer");
    TileOp fill{tile_op::kFill, stmt_, zeros};
    fill.fields = {{names::kValue, Any(0.0)}, {names::kTiles, Any(rows * cols)}};
    pieces_.push_back(fill);
    units_.push_back({"none", "none", "none", "none", "none"});
    bits_.push_back(0);
    EltwiseUnits units{"none", "none", "none", "none", add->name};
    units.bcast_dim = scalar.vec == Vec::kScalar ? "scalar" : scalar.vec == Vec::kColumn ? "cols" : "rows";
    return emit({Value{zeros, Vec::kFull, std::nullopt, static_cast<int>(pieces_.size()) - 1}, scalar}, units);
  }

  // A 1-D on-chip buffer (a column vector) read at the column index (gemv's a[k]): transposed on chip into row
  // tiles, the row vector a broadcast along rows reads.
  Value onchip_row(const BufferInfo& vec) {
    BufferInfo row = vec;
    row.var = Any();
    row.name = vec.name + "_row" + std::to_string(first_ + pieces_.size());
    row.shape = {tile_shape().first, vec.shape[0]};
    auto [rows, cols] = tiles(vec, "on-chip vector");
    TileOp transpose{tile_op::kTranspose, stmt_, row, {vec}};
    transpose.fields = {{names::kRows, Any(rows)}, {names::kCols, Any(cols)}};
    pieces_.push_back(transpose);
    units_.push_back({"none", "none", "none", "none", "none"});
    bits_.push_back(0);
    return Value{row, Vec::kRow, std::nullopt, static_cast<int>(pieces_.size()) - 1};
  }

  // A 1-D tensor read whole at the column index of a [block_M, N] store (layer_norm's W[j]): the reader reads its
  // row tiles into a CB of their own before the ops that use it.
  std::optional<Value> tensor_row(const ir::TensorLoad& load, const BufferInfo& tensor) {
    List idx = load.indices();
    bool whole = out_.shape.size() == 2 && tensor.shape.size() == 1 && idx.size() == 1 &&
                 is_index(idx[0], lvars_[1]) && tensor.shape[0] == out_.shape[1];
    if (!whole) return reject(load.any());
    BufferInfo row{Any(), tensor.name + "_row" + std::to_string(first_ + pieces_.size()),
                   {tile_shape().first, tensor.shape[0]}, tensor.dtype, "shared"};
    auto [rows, cols] = tiles(row, "row vector");
    TileOp read{tile_op::kCopyIn, stmt_, row};
    read.tensor = tensor;
    read.pad_rows = true;  // rows 1-31 of a 1-D tensor's tiles
    read.pad_cols = tensor.shape[0] % tile_shape().second != 0;
    read.fields = {{names::kTensor, tensor.var}, {names::kRow, Any(int64_t(0))}, {names::kCol, Any(int64_t(0))},
                   {names::kRows, Any(rows)}, {names::kCols, Any(cols)}, {names::kRowTiles, Any(cols)}};
    pieces_.push_back(read);
    units_.push_back({"none", "none", "none", "none", "none"});
    bits_.push_back(0);
    return Value{row, Vec::kRow, std::nullopt, static_cast<int>(pieces_.size()) - 1};
  }

  // A new op reading `ins` (the first gives the shape of what it makes), with its op-map entries.
  Value emit(const std::vector<Value>& ins, const EltwiseUnits& units, int64_t bits = 0) {
    BufferInfo made = *ins[0].buf;
    made.var = Any();
    made.name = out_.name + "_t" + std::to_string(first_ + pieces_.size());
    made.dtype = made_dtype_.empty() ? out_.dtype : made_dtype_;
    made.scope = "local.fragment";
    TileOp op{tile_op::kEltwise, stmt_, made};
    for (const Value& v : ins) op.ins.push_back(*v.buf);
    op.fields = eltwise_fields(made, units, bits);
    pieces_.push_back(op);
    units_.push_back(units);
    bits_.push_back(bits);
    return Value{made, ins[0].vec, std::nullopt, static_cast<int>(pieces_.size()) - 1};
  }

  // An SFPU function: in the op that made its operand when that op has none yet, else an op of its own.
  Value unary(const eltwise::Op& f, const Value& x) {
    bool last = x.piece >= 0 && x.piece + 1 == static_cast<int>(pieces_.size());
    if (last && pieces_.back().kind == tile_op::kEltwise && units_.back().sfpu == "none") {
      units_.back().sfpu = f.name;
      pieces_.back().fields = eltwise_fields(*x.buf, units_.back(), bits_.back());
      return x;
    }
    return emit({x}, {"none", "none", f.name, "none", "none"});
  }

  std::optional<Value> binary(const Any& expr, const eltwise::Op& op, Value a, Value b) {
    if (a.vec == Vec::kScalar || b.vec == Vec::kScalar) return with_scalar(expr, op, a, b);
    if (a.vec != b.vec && op.unit == Unit::kSfpuBinary && (a.vec == Vec::kFull || b.vec == Vec::kFull)) {
      std::optional<Value> block = broadcast_copy(a.vec == Vec::kFull ? b : a);  // T.max(x[i, j], v[i])
      if (!block) return std::nullopt;
      (a.vec == Vec::kFull ? b : a) = *block;
    }
    if (a.vec != b.vec) {
      Vec vec = a.vec == Vec::kFull ? b.vec : a.vec;
      bool rows = vec == Vec::kRow;
      Unit unit = rows ? Unit::kFpuBcastRows : Unit::kFpuBcastCols;
      std::string what = rows ? "a row vector (v[j])" : "a [block_M] column vector";
      if (a.vec != Vec::kFull && b.vec != Vec::kFull) {
        // v[i] op w[j] (gdn's G[i] - G[j], an outer sum, difference or product): one vector broadcast into a block
        // (a zero fill plus it, exact), then the other combined with that block by its own broadcast. The right
        // one keeps its form where the op map has it (v[i] - w[j] has no row form: w[j] is made the block, and
        // v[i] - W is -(W - v[i]), exact).
        const eltwise::Op* right = op_named(b.vec == Vec::kRow ? Unit::kFpuBcastRows : Unit::kFpuBcastCols, op.name);
        bool keep_b = right != nullptr && op.unit == Unit::kFpuBinary;
        std::optional<Value> block = broadcast_copy(keep_b ? a : b);
        if (!block) return std::nullopt;
        return keep_b ? binary(expr, op, *block, b) : binary(expr, op, a, *block);
      }
      const eltwise::Op* bc = op_named(unit, op.name);
      bool commutes = op.name == std::string("add") || op.name == std::string("mul");
      bool left = a.vec != Vec::kFull;
      // v - x is -(x - v): the broadcast difference, then 0 - it (exact in fp32, +0 where v == x as v - x gives).
      const eltwise::Op* rsub = op_named(Unit::kSfpuScalar, "rsub");
      bool negates = left && op.name == std::string("sub") && rsub != nullptr;
      if (op.unit != Unit::kFpuBinary || bc == nullptr || (left && !commutes && !negates)) {
        return reject(expr, "combines a block and " + what + " by " + op.written + " with the vector " +
                      (left ? "on the left" : "on the right") + ", which has no broadcast form (broadcasts: " +
                      eltwise::written({unit}) + " with the vector as b)");
      }
      if (left) std::swap(a, b);
      EltwiseUnits units{"none", "none", "none", "none", bc->name};
      units.bcast_dim = rows ? "rows" : "cols";
      Value made = emit({a, b}, units);
      if (!negates) return made;
      return emit({made}, {"none", "none", "none", rsub->name, "none"}, fp32_bits(0.0));
    }
    if (op.unit == Unit::kSfpuBinary && a.buf->dtype != b.buf->dtype) {
      return reject(expr, std::string("is ") + op.written + " of values of dtypes " + a.buf->dtype + " and " +
                    b.buf->dtype + ", which needs one dtype (both are copied into DST through one unpacker format); "
                    "T.Cast one of them in a store of its own first");
    }
    bool fpu = op.unit == Unit::kFpuBinary;
    return emit({a, b}, {fpu ? op.name : "none", fpu ? "none" : op.name, "none", "none", "none"});
  }

  // T.max(x, c) / T.min(x, c) (clamp_tile); a value and one element s[0] of a [1] buffer (tile_ops_tree_scalars.cc).
  Value bound(const eltwise::Op& op, const Value& x, double c);
  std::optional<Value> with_scalar(const Any& expr, const eltwise::Op& op, Value a, Value b);

  std::optional<Value> lower(const Any& expr) {
    // DST computes in fp32 and every value the split makes is packed in the store's dtype, so the precision casts
    // TVM puts around a bf16 function (T.Cast("float32", ...)) are the packer's and unpacker's conversions.
    if (auto cast = ir::Cast::from(expr)) return lower(cast->value());
    if (auto c = constant_of(expr)) return Value{std::nullopt, Vec::kFull, c};
    if (int axis = masks::index_axis(lvars_, expr); axis >= 0) return index_leaf(expr, axis);
    if (uniform(expr)) return runtime_fill(expr);
    if (auto load = ir::TensorLoad::from(expr)) return leaf(*load);
    if (auto m = first_match(Unit::kSfpuUnary, expr)) {
      std::optional<Value> x = need_buffer(lower(m->operand), m->operand);
      if (!x) return std::nullopt;
      if (!m->op->scale) return unary(*m->op, *x);
      // A scaled function (log2 = ln / ln 2): the entry of its tile call, then the product with the constant.
      const eltwise::Op* base = nullptr;
      for (const eltwise::Op& op : eltwise::ops()) {
        if (base == nullptr && op.unit == Unit::kSfpuUnary && !op.scale && std::string(op.tile) == m->op->tile) base = &op;
      }
      const eltwise::Op* mul = op_named(Unit::kSfpuScalar, "mul");
      if (base == nullptr || mul == nullptr) return reject(expr);
      return emit({unary(*base, *x)}, {"none", "none", "none", mul->name, "none"}, fp32_bits(*m->op->scale));
    }
    if (auto m = first_match(Unit::kSfpuScalar, expr)) {
      std::optional<Value> x = need_buffer(lower(m->operand), m->operand);
      if (!x) return std::nullopt;
      return emit({*x}, {"none", "none", "none", m->op->name, "none"}, fp32_bits(m->constant));
    }
    if (auto m = first_match(Unit::kSfpuClamp, expr)) {
      std::optional<Value> x = need_buffer(lower(m->operand), m->operand);
      if (!x) return std::nullopt;
      return bound(*m->op, *x, m->constant);
    }
    if (auto div = ir::Div::from(expr)) return quotient(expr, div->a(), div->b());
    if (auto ite = ir::Call::from(expr)) {
      auto callee = ir::Op::from(ite->op());
      if (callee && callee->name() == "prim.if_then_else") return select(expr, ite->args());
    }
    std::pair<Any, Any> operands;
    const eltwise::Op* op = binary_of(expr, &operands);
    if (op == nullptr) return reject(expr);
    if (constant_of(operands.first) || constant_of(operands.second)) return reject(expr, constant_form_refusal());
    std::optional<Value> a = need_buffer(lower(operands.first), operands.first);
    std::optional<Value> b = a ? need_buffer(lower(operands.second), operands.second) : std::nullopt;
    if (!a || !b) return std::nullopt;
    return binary(expr, *op, *a, *b);
  }

  // T.if_then_else(a CMP b, x, c) of a value comparison; of two blocks or element indices (tile_ops_tree_select.cc).
  std::optional<Value> select(const Any& expr, const List& args);
  std::optional<Value> condition(const Any& expr, const Any& cond);
  std::optional<Value> operand(const Any& expr, const Any& v);
  std::optional<Value> select_blocks(const Any& expr, const Value& holds, const Any& then_v, const Any& else_v);

  // a / b of two on-chip values: recip(b), then a times it.
  std::optional<Value> quotient(const Any& expr, const Any& num, const Any& den) {
    const eltwise::Op* recip = op_named(Unit::kSfpuUnary, "recip");
    const eltwise::Op* mul = op_named(Unit::kFpuBinary, "mul");
    if (!recip || !mul) return reject(expr);
    std::optional<Value> a = need_buffer(lower(num), num);
    std::optional<Value> b = a ? need_buffer(lower(den), den) : std::nullopt;
    if (!a || !b) return std::nullopt;
    Value r = unary(*recip, *b);  // v[i] / x[i, j] too: the vector times the block's reciprocal
    return binary(expr, *mul, *a, r);
  }

  BufferInfo out_;
  std::string made_dtype_;  // the dtype of the values a selection's condition makes (the store's when empty)
  Any stmt_;
  size_t first_;
  std::vector<Any> lvars_;
  std::vector<TileOp> pieces_;
  std::vector<EltwiseUnits> units_;
  std::vector<int64_t> bits_;
  std::optional<std::pair<Any, std::string>> bad_;
};

}  // namespace tl::tileops::tree
