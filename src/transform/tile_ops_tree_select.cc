// The selections of element-wise expression trees (tile_ops_tree.h): T.if_then_else of a value comparison between a
// block and a constant or between two blocks (or element indices).
#include <cfloat>
#include <cmath>
#include <map>

#include "tile_ops_tree.h"

namespace tl::tileops::tree {

// A comparison with -inf or +inf: the difference (a - b) is NaN where `a` is that infinity, so the comparison with
// zero is wrong there (upstream attention sink's check_inf `scores_max[i] == -inf`). It is the same comparison with
// the largest finite value M of `a`'s dtype: a == -inf is a < -M (a + M < 0 keeps the sign, also where it
// rounds), a != -inf is a >= -M; and mirrored for +inf. a >= -inf and a <= +inf are always true, a < -inf and a >
// +inf never: nullopt (refused, naming them). `cmp` is the op-map entry's name, the comparison with zero.
static std::optional<std::pair<std::string, Any>> finite_comparison(std::string cmp, Any a, Any b) {
  auto cb = constant_of(b);
  if (auto ca = constant_of(a); ca && std::isinf(*ca) && !(cb && std::isinf(*cb))) {
    static const std::map<std::string, std::string> mirror{
        {"eqz", "eqz"}, {"nez", "nez"}, {"gtz", "ltz"}, {"ltz", "gtz"}, {"gez", "lez"}, {"lez", "gez"}};
    std::swap(a, b);
    cmp = mirror.at(cmp);
    cb = constant_of(b);
  }
  if (!cb || !std::isinf(*cb)) return std::make_pair(cmp, fn::sub(a, b));
  bool low = *cb < 0;  // -inf: eqz/lez -> ltz; nez/gtz -> gez (+inf: eqz/gez -> gtz; nez/ltz -> lez)
  std::string holds = low ? "lez" : "gez", fails = low ? "gtz" : "ltz";
  std::string to;
  if (cmp == "eqz" || cmp == holds) to = low ? "ltz" : "gtz";
  if (cmp == "nez" || cmp == fails) to = low ? "gez" : "lez";
  if (to.empty()) return std::nullopt;
  std::string dtype = ir::PrimType(ir::Expr(a).ty()).dtype();
  double big = dtype == "float16" ? 65504.0 : dtype == "bfloat16" ? 3.3895313892515355e38
                                                                   : static_cast<double>(FLT_MAX);
  return std::make_pair(to, fn::add(a, Any(low ? big : -big)));
}

// The 1.0 / 0.0 block of a condition: a value comparison (a - b) CMP 0, or a conjunction of two (gdn's
// `G_diff[i, j] <= 0 and i > j`: an element-index comparison is one of element-index blocks) as the product of theirs
// (exact on 1.0 and 0.0).
std::optional<Value> Tree::condition(const Any& expr, const Any& cond) {
  if (auto both = masks::operands(cond, "prim.And")) {
    const eltwise::Op* mul = op_named(Unit::kFpuBinary, "mul");
    std::optional<Value> a = condition(expr, strip_casts(both->first));
    std::optional<Value> b = a ? condition(expr, strip_casts(both->second)) : std::nullopt;
    if (!a || !b || mul == nullptr) return std::nullopt;
    return binary(expr, *mul, *a, *b);
  }
  const eltwise::Op* cmp = nullptr;
  std::pair<Any, Any> sides;
  for (const eltwise::Op& op : eltwise::ops()) {
    if (cmp != nullptr || op.unit != Unit::kSfpuUnary || !op.node || op.value != std::optional<double>(0.0)) continue;
    if (auto ab = op.node(cond)) cmp = &op, sides = *ab;
  }
  if (cmp == nullptr) {
    return reject(expr, "selects by " + format_value(cond) + ", which is not a comparison the op map has (" +
                  eltwise::written({Unit::kSfpuUnary}) + "; a - b is compared as (a - b) with 0)");
  }
  auto zero = constant_of(sides.second);
  Any diff = sides.first;
  if (!zero || *zero != 0.0) {
    auto finite = finite_comparison(cmp->name, sides.first, sides.second);
    if (!finite) {
      return reject(expr, "selects by " + format_value(cond) + ", a comparison with an infinity that holds for "
                    "every value or for none; write the branch it takes");
    }
    diff = finite->second;
    for (const eltwise::Op& op : eltwise::ops()) {
      if (op.unit == Unit::kSfpuUnary && op.node && op.value == std::optional<double>(0.0) && op.name == finite->first) {
        cmp = &op;
      }
    }
  }
  std::optional<Value> d = need_buffer(lower(diff), diff);
  if (!d) return std::nullopt;
  return unary(*cmp, *d);
}

// T.if_then_else(a CMP b, x, c) of a value comparison (index_masks.h takes the conditions of indices only): the
// comparison as (a - b) CMP 0, the difference as the sub entries make it and then the op map's comparison with
// zero (1.0 / 0.0), then where_tile choosing between the block x and the constant c.
std::optional<Value> Tree::select(const Any& expr, const List& args) {
  if (is_integer_dtype(out_.dtype)) made_dtype_ = "float32";  // the comparison of float values, 1.0 / 0.0
  std::optional<Value> cond = condition(expr, strip_casts(args[0]));
  made_dtype_.clear();
  if (!cond) return std::nullopt;
  Value holds = *cond;
  auto then_c = constant_of(args[1]), else_c = constant_of(args[2]);
  if (then_c && else_c) {
    return reject(expr, "selects between two constants; the tenstorrent backend selects between an on-chip block "
                  "and a constant (where_tile with the constant filled into DST) or between two blocks");
  }
  if (!then_c && !else_c) return select_blocks(expr, holds, args[1], args[2]);
  Any branch = then_c ? args[2] : args[1];
  std::optional<Value> x = need_buffer(lower(branch), branch);
  if (!x) return std::nullopt;
  if (x->vec != Vec::kFull || holds.vec != Vec::kFull) {
    return reject(expr, "selects with a [block_M] or row vector; the selection's condition and value must be "
                  "blocks of the store's shape");
  }
  if (out_.dtype != "float32" || x->buf->dtype != out_.dtype) {
    return reject(expr, "selects " + x->buf->dtype + " values into a " + out_.dtype + " store; the tenstorrent "
                  "backend selects float32 values (where_tile on fp32 DST, both operands in one data format)");
  }
  EltwiseUnits units{"none", "none", "none", "none", "none"};
  units.where = then_c ? "else" : "then";
  units.where_value = then_c ? *then_c : *else_c;
  return emit({holds, *x}, units);
}

// A selection operand: an element index (i or j, a block of the index table's tiles) or any value the tree makes.
std::optional<Value> Tree::operand(const Any& expr, const Any& v) {
  int axis = masks::index_axis(lvars_, v);
  if (axis < 0) return need_buffer(lower(v), v);
  if (lvars_.size() != 2 || (out_.dtype != "int32" && out_.dtype != "float32")) {
    return reject(expr, "selects the element index " + format_value(lvars_[axis]) + " as a value into a " +
                  out_.dtype + " store; the tenstorrent backend selects indices of 2-D int32 or float32 stores");
  }
  TileOp copy = index_op(out_, axis, stmt_, out_.name + "_index" + std::to_string(first_ + pieces_.size()));
  pieces_.push_back(copy);
  units_.push_back({"none", "none", "none", "none", "none"});
  bits_.push_back(0);
  return Value{*copy.out, Vec::kFull, std::nullopt, static_cast<int>(pieces_.size()) - 1};
}

// T.if_then_else(cond, x, y) of two blocks (or element indices): where_tile of three DST tiles (op select).
std::optional<Value> Tree::select_blocks(const Any& expr, const Value& holds, const Any& then_v, const Any& else_v) {
  std::optional<Value> x = operand(expr, then_v);
  std::optional<Value> y = x ? operand(expr, else_v) : std::nullopt;
  if (!x || !y) return std::nullopt;
  if (x->vec != Vec::kFull || y->vec != Vec::kFull || holds.vec != Vec::kFull) {
    return reject(expr, "selects with a [block_M] or row vector; the selection's condition and values must be "
                  "blocks of the store's shape");
  }
  for (const Value& v : {*x, *y}) {
    if (v.buf->dtype != out_.dtype || (out_.dtype != "float32" && out_.dtype != "int32")) {
      return reject(expr, "selects " + v.buf->dtype + " '" + v.buf->name + "' into a " + out_.dtype + " store; the "
                    "tenstorrent backend selects between blocks of the store's dtype, float32 or int32 (where_tile "
                    "on 32-bit DST)");
    }
  }
  TileOp op = select_op(out_, stmt_, out_.name + "_t" + std::to_string(first_ + pieces_.size()),
                        {*holds.buf, *x->buf, *y->buf});
  pieces_.push_back(op);
  units_.push_back({"none", "none", "none", "none", "none"});
  bits_.push_back(0);
  return Value{*op.out, Vec::kFull, std::nullopt, static_cast<int>(pieces_.size()) - 1};
}

}  // namespace tl::tileops::tree
