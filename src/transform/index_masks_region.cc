// What an index mask (index_masks.h) holds over a rectangle of its block's element indices: the fact the padding
// engine (tile_padding_values.cc) reads where a mask's block meets padding (upstream flash attention's key bound
// `k * block_N + j >= seq_kv` is -inf on exactly the columns a key block hanging over the sequence's end pads).
#include "engine_common.h"
#include "index_masks.h"

namespace tl::masks {

std::optional<bool> over_box(const Form& form, const Any& i_lo, const Any& i_hi, const Any& j_lo, const Any& j_hi) {
  // p * (i // div) + q * (j // div) + r is smallest at the ends its coefficients point away from, and largest at the
  // others (i // div grows with i).
  auto end = [&](int64_t c, const Any& lo, const Any& hi, bool largest) {
    if (c == 0) return Any(int64_t(0));
    Any at = (c > 0) == largest ? fn::sub(hi, Any(int64_t(1))) : lo;
    return fn::mul(Any(c), form.div == 1 ? at : fn::floordiv(at, Any(form.div)));
  };
  Any least = fn::add(fn::add(end(form.p, i_lo, i_hi, false), end(form.q, j_lo, j_hi, false)), form.r);
  Any most = fn::add(fn::add(end(form.p, i_lo, i_hi, true), end(form.q, j_lo, j_hi, true)), form.r);
  static const Any& analyzer = *new Any(call("sym.Analyzer"));  // never destroyed: outlives TVM at exit
  auto proves = [&](const Any& cond) { return truthy(call("sym.AnalyzerCanProve", analyzer, cond, 0)); };
  bool below_top = form.width < 0 || proves(fn::expr(fn::le(most, Any(form.width))));  // a band's upper bound
  if (proves(fn::expr(fn::ge(least, Any(int64_t(0))))) && below_top) return true;
  if (proves(fn::expr(fn::lt(most, Any(int64_t(0)))))) return false;
  if (form.width >= 0 && proves(fn::expr(fn::gt(least, Any(form.width))))) return false;
  return std::nullopt;
}

}  // namespace tl::masks
