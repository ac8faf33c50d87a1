// A condition read from a DRAM tensor around gemm K steps (issue 28): TileLang's block-sparse GEMM writes
//
//     for k in T.Pipelined(T.ceildiv(K, block_K)):
//         if BlockMask[by, bx, k]:
//             T.copy(A[...], A_shared); T.copy(B[...], B_shared); T.gemm(A_shared, B_shared, C_local)
//
// The reader and writer must move the same pages whatever the value, and only the compute kernel can read an L1
// value through the kernel API (read_tile_value; a dataflow kernel would dereference an L1 pointer). So the reader
// reads the tensor's tile that holds the value into a flag CB (one tile per step) and the loads unconditionally,
// and the compute kernel reads the value's word and runs the step's tile products only where the condition holds;
// it waits for and frees the operands either way, and acquires and packs the accumulator at the first and last
// steps either way (protocol matmul_block_dst). Chosen over the reader pushing zero tiles in place of a masked
// step's operands: that needs the reader to see the value (an L1 pointer), and the compute kernel would still
// multiply them. The cost: a masked step's operand blocks are read anyway (they keep the core row's multicast of A
// and the core column's of B, which cores with other mask values share), plus one tile of the mask per step (1 KiB
// for bool); the saving is the step's matmul.
#include <algorithm>

#include "tile_ops_util.h"
#include "traversal.h"

namespace tl::tileops {
namespace {

constexpr int64_t kInt32Min = -2147483647 - 1, kInt32Max = 2147483647;

// The range a comparison of the value x with a constant c accepts: lo <= x <= hi (inside) or not (outside).
struct Range {
  int64_t lo, hi;
  bool inside;
};

std::optional<Range> range_of(const Any& cond, const Any& load) {
  if (strip_casts(cond).same_as(load)) return Range{0, 0, false};  // a bool or integer value: x != 0
  auto form = [&](const Any& a, const Any& b, const char* op) -> std::optional<Range> {
    bool left = strip_casts(a).same_as(load);
    if (!left && !strip_casts(b).same_as(load)) return std::nullopt;
    auto c = ir::IntImm::from(strip_casts(left ? b : a));
    if (!c) return std::nullopt;
    int64_t v = c->value();
    std::string o = op;
    if (!left) o = o == "<" ? ">" : o == "<=" ? ">=" : o == ">" ? "<" : o == ">=" ? "<=" : o;  // c < x is x > c
    if (o == "==") return Range{v, v, true};
    if (o == "!=") return Range{v, v, false};
    if (o == "<") return Range{kInt32Min, v - 1, true};
    if (o == "<=") return Range{kInt32Min, v, true};
    if (o == ">") return Range{v + 1, kInt32Max, true};
    return Range{v, kInt32Max, true};  // >=
  };
  if (auto n = ir::EQ::from(cond)) return form(n->a(), n->b(), "==");
  if (auto n = ir::NE::from(cond)) return form(n->a(), n->b(), "!=");
  if (auto n = ir::LT::from(cond)) return form(n->a(), n->b(), "<");
  if (auto n = ir::LE::from(cond)) return form(n->a(), n->b(), "<=");
  if (auto n = ir::GT::from(cond)) return form(n->a(), n->b(), ">");
  if (auto n = ir::GE::from(cond)) return form(n->a(), n->b(), ">=");
  return std::nullopt;
}

std::string reads_buffer(const Any& expr) {
  std::string read;
  walk(expr, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         BufferInfo b = buffer_info(l.source());
         if (read.empty() && !b.index_scalar()) read = b.name;
       })});
  return read;
}

// Where element `indices` of `tensor` lies in its tiled matrix (InferTTLayout: leading dims fold into the rows of
// the padded matrix; a 1-D tensor is row 0 of its tiles).
std::pair<Any, Any> element_at(const BufferInfo& tensor, const ffi::Array<Any>& indices) {
  size_t n = tensor.shape.size();
  if (n == 1) return {Any(int64_t(0)), indices[0]};
  std::vector<int64_t> padded = padded_layout(tensor).padded;
  Any lead(int64_t(0));
  for (size_t d = 0; d + 2 < n; ++d) lead = fn::add(fn::mul(lead, Any(tensor.shape[d])), indices[d]);
  Any row = n > 2 ? fn::add(fn::mul(lead, Any(padded[n - 2])), indices[n - 2]) : indices[n - 2];
  return {row, indices[n - 1]};
}

// Under the condition: loads from DRAM and K steps of gemms (the reader reads the loads anyway).
void require_steps(const std::vector<TileOp>& inner, const std::string& text, const std::string& tensor) {
  bool gemm = false;
  for (const TileOp& op : inner) {
    bool step = op.kind == tile_op::kGemm && !truthy(op.get(names::kClear)) && !truthy(op.get(names::kTransposed));
    if (op.kind != tile_op::kCopyIn && !step) {
      std::string what = op.out ? "the " + op.kind + " op writing '" + op.out->name + "'" : "the " + op.kind + " op";
      fail(text + " reads '" + tensor + "' and holds " + what + "; the tenstorrent backend runs only T.copy "
           "loads from DRAM and the K steps of gemms (not transposed, accumulating) under a condition read from a "
           "tensor: the reader reads the loads anyway and the compute kernel skips the steps' products");
    }
    gemm = gemm || step;
  }
  if (!gemm) fail(text + " reads '" + tensor + "' but holds no gemm K step; the tenstorrent backend runs the "
                  "K steps of gemms under a condition read from a tensor");
}

}  // namespace

void set_flag_fields(TileOp& gemm, const BufferInfo* flag, Any word, Any scale, int64_t modulus, int64_t lo,
                     int64_t hi, bool inside) {
  if (flag) gemm.ins.push_back(*flag);
  std::vector<std::pair<std::string, Any>> fields = {
      {names::kFlag, Any(flag != nullptr)}, {names::kFlagWord, word},     {names::kFlagScale, scale},
      {names::kFlagModulus, Any(modulus)},  {names::kFlagLo, Any(lo)},    {names::kFlagHi, Any(hi)},
      {names::kFlagInside, Any(int64_t(inside ? 1 : 0))}};
  for (auto& [key, value] : fields) {
    auto it = std::find_if(gemm.fields.begin(), gemm.fields.end(), [&](const auto& f) { return f.first == key; });
    if (it != gemm.fields.end()) {
      it->second = value;
    } else {
      gemm.fields.emplace_back(key, value);
    }
  }
}

bool flag_branch(const ir::IfThenElse& cond, const std::vector<Any>& loops, std::vector<TileOp>& ops,
                 const std::function<void(const Any&, std::vector<TileOp>&)>& visit) {
  std::vector<ir::TensorLoad> loads;
  walk(cond.condition(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
         if (!buffer_info(l.source()).index_scalar()) loads.push_back(l);
       })});
  if (loads.empty() || buffer_info(loads[0].source()).on_chip()) return false;  // on-chip data: tile_ops.cc refuses
  std::string text = "a condition around tile operations (" + format_value(cond.condition()) + ")";
  BufferInfo tensor = buffer_info(loads[0].source());
  if (loads.size() != 1) {
    fail(text + " reads " + std::to_string(loads.size()) + " values of DRAM tensors; the tenstorrent backend reads "
         "one value per condition (its tile, by the reader, for the compute kernel)");
  }
  for (const Any& index : loads[0].indices()) {
    if (std::string read = reads_buffer(index); !read.empty()) {
      fail(text + " reads '" + tensor.name + "' at an index read from '" + read + "'; the reader computes the index "
           "from constants, block indices, loop variables and index scalars");
    }
  }
  // The compute kernel reads the value as part of a 32-bit word (read_tile_value) and tests it as an int32: a
  // bool (0/1 bytes) and an int32 (the whole word) read exactly; the unsigned formats' top bits would read as a
  // sign, and a float would need its bits decoded.
  int64_t bytes = tensor.dtype == "bool" ? 1 : tensor.dtype == "int32" ? 4 : 0;
  if (bytes == 0) {
    fail(text + " reads " + tensor.dtype + " tensor '" + tensor.name + "'; the tenstorrent backend tests bool and "
         "int32 values read from DRAM (the compute kernel reads the value's 32-bit word of its tile)");
  }
  std::optional<Range> range = range_of(cond.condition(), loads[0].any());
  if (!range) {
    fail(text + " is not a comparison of the value of '" + tensor.name + "' with an integer constant (or the bool "
         "value itself); the tenstorrent backend tests one such comparison in the compute kernel");
  }
  if (!is_none(cond.else_case())) {
    fail(text + " reads '" + tensor.name + "' and has an else branch; the tenstorrent backend runs gemm K steps "
         "under a condition read from a tensor, with no else branch");
  }
  std::vector<TileOp> inner;
  visit(cond.then_case().any(), inner);
  require_steps(inner, text, tensor.name);
  auto [th, tw] = tile_shape();
  auto [row, col] = element_at(tensor, loads[0].indices());
  BufferInfo flag = tensor;
  flag.name = tensor.name + "_flag";
  flag.shape = {th, tw};
  flag.var = Any();
  flag.scope = "shared";
  flag.index = -1;
  TileOp read{tile_op::kCopyIn, cond.any(), flag};
  read.tensor = tensor;
  read.loops = loops;
  read.fields = {{names::kTensor, tensor.var}, {names::kRow, fn::mul(fn::floordiv(row, Any(th)), Any(th))},
                 {names::kCol, fn::mul(fn::floordiv(col, Any(tw)), Any(tw))}, {names::kRows, Any(int64_t(1))},
                 {names::kCols, Any(int64_t(1))}, {names::kRowTiles, Any(padded_layout(tensor).padded.back() / tw)}};
  // The element's place in its tile: faces of 16x16 in row-major order, each row-major.
  Any r = fn::mod(row, Any(th)), c = fn::mod(col, Any(tw));
  Any face = fn::add(fn::mul(fn::floordiv(r, Any(int64_t(16))), Any(int64_t(2))), fn::floordiv(c, Any(int64_t(16))));
  Any at = fn::add(fn::add(fn::mul(face, Any(int64_t(256))), fn::mul(fn::mod(r, Any(int64_t(16))), Any(int64_t(16)))),
                   fn::mod(c, Any(int64_t(16))));
  Any byte = fn::mul(at, Any(bytes));
  Any in_word = fn::mod(byte, Any(int64_t(4)));
  Any scale = bytes == 4 ? Any(int64_t(1))
                         : fn::select(fn::eq(in_word, Any(int64_t(0))), Any(int64_t(1)),
                                      fn::select(fn::eq(in_word, Any(int64_t(1))), Any(int64_t(256)),
                                                 fn::select(fn::eq(in_word, Any(int64_t(2))), Any(int64_t(65536)),
                                                            Any(int64_t(16777216)))));
  ops.push_back(read);
  for (TileOp& op : inner) {
    op.stmt = cond.any();  // the if is replaced by its ops: every kernel runs them (the gemm tests the value)
    if (op.kind == tile_op::kGemm) {
      set_flag_fields(op, &flag, fn::floordiv(byte, Any(int64_t(4))), scale, bytes == 4 ? 0 : 256, range->lo,
                      range->hi, range->inside);
    }
    ops.push_back(std::move(op));
  }
  return true;
}

}  // namespace tl::tileops
