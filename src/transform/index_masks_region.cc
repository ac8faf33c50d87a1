// What an index mask (index_masks.h) holds over a rectangle of its block's element indices: the fact the padding
// engine (tile_padding_values.cc) reads where a mask's block meets padding (upstream flash attention's key bound
// `k * block_N + j >= seq_kv` is -inf on exactly the columns a key block hanging over the sequence's end pads).
#include "engine_common.h"
#include "index_masks.h"

namespace tl::masks {

std::optional<bool> over_box(const Form& form, const Any& i_lo, const Any& i_hi, const Any& j_lo, const Any& j_hi) {
  // p * i + q * j + r is smallest at the ends its coefficients point away from, and largest at the others.
  auto end = [](int64_t c, const Any& lo, const Any& hi, bool largest) {
    if (c == 0) return Any(int64_t(0));
    return fn::mul(Any(c), (c > 0) == largest ? fn::sub(hi, Any(int64_t(1))) : lo);
  };
  Any least = fn::add(fn::add(end(form.p, i_lo, i_hi, false), end(form.q, j_lo, j_hi, false)), form.r);
  Any most = fn::add(fn::add(end(form.p, i_lo, i_hi, true), end(form.q, j_lo, j_hi, true)), form.r);
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  auto proves = [&](const Any& cond) { return truthy(call("sym.AnalyzerCanProve", analyzer, cond, 0)); };
  if (proves(fn::expr(fn::ge(least, Any(int64_t(0)))))) return true;
  if (proves(fn::expr(fn::lt(most, Any(int64_t(0)))))) return false;
  return std::nullopt;
}

}  // namespace tl::masks
