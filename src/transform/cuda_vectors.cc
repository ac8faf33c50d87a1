// How many elements a thread of a CUDA block moves at a time (the hook bind_cuda_threads, cuda_threads.h): the
// widest vector access of at most 16 bytes that every nest of the block divides into and provably keeps aligned.
#include "cuda_threads.h"

#include <algorithm>

namespace tl::cuda {

using cpu::op_add;
using cpu::op_mul;

static int64_t dtype_bytes(const std::string& dtype) {
  std::string digits;
  for (char c : dtype) {
    if (c >= '0' && c <= '9') digits += c;
  }
  return digits.empty() ? 1 : std::max<int64_t>(1, std::stoll(digits) / 8);
}

/*! \brief Whether every global or shared access of the nest starts `width`-aligned when its innermost loop variable
 * is: its flattened offset with that variable at 0 is provably a multiple of `width` (a vector access at a
 * misaligned address faults). */
static bool aligned(const Nest& nest, const Parts& parts, int64_t width) {
  cpu::Analyzer analyzer;
  Any j = nest.loops.back().loop_var();
  bool ok = true;
  auto check = [&](const Any& buffer, const List& indices) {
    if (!is_none(part_of(parts, buffer))) return;  // a partitioned fragment: local, aligned by construction
    std::vector<int64_t> shape = buffer_info(buffer).shape;
    Any offset = int_imm(0);
    for (size_t d = 0; d < indices.size(); ++d) {
      int64_t stride = 1;
      for (size_t e = d + 1; e < shape.size(); ++e) stride *= shape[e];
      offset = op_add(offset, op_mul(indices[d], int_imm(stride)));
    }
    offset = map(offset, {ir::rewrite<ir::Var>([&j](const ir::Var& x) -> Any {
                   return x.same_as(j) ? int_imm(0, cpu::dtype_of(x).c_str()) : x.any();
                 })},
                 "post");
    Any rem = call("prim._OpFloorMod", offset, int_imm(width), Any(nullptr));
    ok = ok && analyzer.can_prove(call("prim._OpEQ", rem, int_imm(0), Any(nullptr)));
  };
  walk(nest.inner, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { check(l.source(), l.indices()); }),
                    ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) { check(st.buffer(), st.indices()); })});
  return ok;
}

/*! \brief Elements a thread takes at a time (one vector access of at most 16 bytes of the widest dtype the block
 * touches): the widest power of two that divides every nest's innermost extent and its elements into whole runs of
 * N threads, with every access aligned (one width for the block, so every nest partitions a fragment alike), else
 * 1. */
int64_t vector_width(const std::vector<Nest>& nests, const Parts& parts, int64_t threads) {
  int64_t widest = 1;
  for (const Nest& n : nests) {
    for (const VarSet* set : {&n.reads, &n.writes}) {
      for (const Any& b : set->items) widest = std::max(widest, dtype_bytes(buffer_info(b).dtype));
    }
  }
  for (int64_t width = std::max<int64_t>(1, 16 / widest); width > 1; width /= 2) {
    bool fits = std::all_of(nests.begin(), nests.end(), [&](const Nest& n) {
      return n.elements % (threads * width) == 0 && const_int(n.loops.back().extent()) % width == 0 &&
             aligned(n, parts, width);
    });
    if (fits) return width;
  }
  return 1;
}

}  // namespace tl::cuda
