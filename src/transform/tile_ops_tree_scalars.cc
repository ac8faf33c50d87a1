// Element-wise expression trees (tile_ops_tree.h) with constants and scalars: bounds by constants (clamp_tile), and
// a value combined with one element s[0] of a [1] buffer.
#include <cstring>

#include "tile_ops_tree.h"

namespace tl::tileops::tree {

// T.max(x, c) / T.min(x, c): clamp_tile with the other bound infinite. In the op that made x when that op reads one
// input and has no SFPU function yet (sfpu_block applies its scalar op, then the clamp, then the function), with
// the bounds of a clamp it already has combined: max(clamp(x, lo, hi), c) = clamp(x, max(lo, c), max(hi, c)) and
// min(clamp(x, lo, hi), c) = clamp(x, min(lo, c), min(hi, c)), so T.clamp(x, lo, hi) is one call.
Value Tree::bound(const eltwise::Op& op, const Value& x, double c) {
  const float inf = std::numeric_limits<float>::infinity();
  bool is_max = op.name == std::string("max");
  float lo = is_max ? static_cast<float>(c) : -inf, hi = is_max ? inf : static_cast<float>(c);
  bool last = x.piece >= 0 && x.piece + 1 == static_cast<int>(pieces_.size());
  const EltwiseUnits* u = last ? &units_.back() : nullptr;
  bool joins = u != nullptr && pieces_.back().kind == tile_op::kEltwise && u->binary == "none" &&
               u->sfpu_binary == "none" && u->sfpu == "none" && u->bcast == "none" && u->where == "none";
  if (joins && u->clamp != "none") {
    auto as_float = [](int64_t bits) {
      uint32_t word = static_cast<uint32_t>(bits);
      float f = 0;
      std::memcpy(&f, &word, sizeof f);
      return f;
    };
    float old_lo = as_float(u->clamp_lo), old_hi = as_float(u->clamp_hi), k = static_cast<float>(c);
    lo = is_max ? std::max(old_lo, k) : std::min(old_lo, k);
    hi = is_max ? std::max(old_hi, k) : std::min(old_hi, k);
  }
  EltwiseUnits units = joins ? *u : EltwiseUnits{"none", "none", "none", "none", "none"};
  units.clamp = op.name;
  units.clamp_lo = fp32_bits(lo);
  units.clamp_hi = fp32_bits(hi);
  if (!joins) return emit({x}, units);
  units_.back() = units;
  pieces_.back().fields = eltwise_fields(*x.buf, units, bits_.back());
  return x;
}

// A value combined with one element s[0] of a [1] buffer (`x[i, j] * s[0]`): `*_tiles_bcast_scalar`, element
// (0, 0) of the scalar's tile over every tile of the value (a block, or a vector's tiles); two scalars combine as
// one-tile blocks. s - x is -(x - s), as for vectors.
std::optional<Value> Tree::with_scalar(const Any& expr, const eltwise::Op& op, Value a, Value b) {
  if (a.vec == b.vec) {
    Value made = emit({a, b}, {op.unit == Unit::kFpuBinary ? op.name : "none",
                               op.unit == Unit::kFpuBinary ? "none" : op.name, "none", "none", "none"});
    return made;
  }
  if (op.unit == Unit::kSfpuBinary) {  // T.max(x, s[0]): the element broadcast into a block (no SFPU broadcast)
    Value& scalar = a.vec == Vec::kScalar ? a : b;
    const Value& other = a.vec == Vec::kScalar ? b : a;
    if (other.vec != Vec::kFull) {
      return reject(expr, std::string("combines a vector and one element s[0] of a [1] buffer by ") + op.written +
                    ", which has no broadcast form");
    }
    std::optional<Value> block = broadcast_copy(scalar);
    if (!block) return std::nullopt;
    scalar = *block;
    return binary(expr, op, a, b);
  }
  const eltwise::Op* bc = op_named(Unit::kFpuBcastScalar, op.name);
  bool left = a.vec == Vec::kScalar;
  const eltwise::Op* rsub = op_named(Unit::kSfpuScalar, "rsub");
  bool negates = left && op.name == std::string("sub") && rsub != nullptr;
  if (op.unit != Unit::kFpuBinary || bc == nullptr) {
    return reject(expr, std::string("combines a value and one element s[0] of a [1] buffer by ") + op.written + ", which has no "
                  "broadcast form (broadcasts: " + eltwise::written({Unit::kFpuBcastScalar}) + " with the element "
                  "as b)");
  }
  if (left) std::swap(a, b);
  EltwiseUnits units{"none", "none", "none", "none", bc->name};
  units.bcast_dim = "scalar";
  Value made = emit({a, b}, units);
  if (!negates) return made;
  return emit({made}, {"none", "none", "none", rsub->name, "none"}, fp32_bits(0.0));
}

}  // namespace tl::tileops::tree
