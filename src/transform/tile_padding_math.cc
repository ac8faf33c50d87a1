// The math of the op-map entries on constants (tile_ops_util.h: pad_math), which the padding engine
// (tile_padding_values.cc) follows through what padding holds.
#include <algorithm>
#include <cmath>

#include "tile_ops_util.h"

namespace tl::tileops {

std::optional<double> pad_math(const std::string& op, double a, double b) {
  if (op == "add") return a + b;
  if (op == "sub") return a - b;
  if (op == "rsub") return b - a;
  if (op == "mul") return a * b;
  if (op == "div") return a / b;
  if (op == "max") return std::max(a, b);
  if (op == "min") return std::min(a, b);
  return std::nullopt;
}

std::optional<double> pad_math(const std::string& f, double x) {
  if (f == "exp") return std::exp(x);
  if (f == "exp2") return std::exp2(x);
  if (f == "log") return std::log(x);
  if (f == "sqrt") return std::sqrt(x);
  if (f == "rsqrt") return 1.0 / std::sqrt(x);
  if (f == "recip") return 1.0 / x;
  if (f == "relu") return std::max(x, 0.0);
  if (f == "sigmoid") return 1.0 / (1.0 + std::exp(-x));
  if (f == "tanh") return std::tanh(x);
  if (f == "eqz" || f == "nez" || f == "gtz" || f == "gez" || f == "ltz" || f == "lez") {  // 1.0 / 0.0
    bool holds = f == "eqz" ? x == 0 : f == "nez" ? x != 0 : f == "gtz" ? x > 0 : f == "gez" ? x >= 0 : f == "ltz" ? x < 0
                                                                                                      : x <= 0;
    return holds ? 1.0 : 0.0;
  }
  return std::nullopt;
}

}  // namespace tl::tileops
