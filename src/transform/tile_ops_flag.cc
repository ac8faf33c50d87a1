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

#include "tile_dataflow.h"
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

// An int8 value is read as its two's complement byte, 0..255: an equality maps a negative constant onto its byte; an
// order test would order the negative values after the positive ones.
Range byte_range(Range range, const std::string& text, const std::string& tensor) {
  if (range.lo != range.hi) {
    fail(text + " orders an int8 value of '" + tensor + "'; the tenstorrent backend reads an int8 value as its "
         "unsigned byte and tests it for equality (==, !=, or the value itself) only");
  }
  range.lo = range.hi = range.lo & 255;
  return range;
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

// Under the condition only loads from DRAM and K steps of gemms (at least one): the gemms test the value themselves
// and the reader reads the loads anyway. Anything else is a whole step, which every kernel branches around.
bool only_steps(const std::vector<TileOp>& inner) {
  bool gemm = false;
  for (const TileOp& op : inner) {
    bool step = op.kind == tile_op::kGemm && !truthy(op.get(names::kClear)) && !truthy(op.get(names::kTransposed));
    if (op.kind != tile_op::kCopyIn && !step) return false;
    gemm = gemm || step;
  }
  return gemm;
}

// The element's byte in its tile (faces of 16x16 in row-major order, each row-major), and the scale of that byte in
// its 32-bit word (1 for a whole word).
std::pair<Any, Any> byte_in_tile(const Any& row, const Any& col, int64_t bytes) {
  auto [th, tw] = tile_shape();
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
  return {byte, scale};
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
  // Reads of one element (nsa's `i_s <= i_t and i_s >= 0`, i_s that value times BS) are the one value.
  auto same = [&](const ir::TensorLoad& l) {
    return call("ffi.StructuralEqual", l.any(), loads[0].any(), false, false).cast<bool>();
  };
  if (!std::all_of(loads.begin(), loads.end(), same)) {
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
  // bool (0/1 bytes) and an int32 (the whole word) read exactly, and so does a byte (its unsigned value: the word
  // is a uint32, and an int8 tensor holds its two's complement bytes, the UInt8 format); uint16/uint32 values would
  // read their top bit as a sign, and a float would need its bits decoded.
  bool byte_value = tensor.dtype == "bool" || tensor.dtype == "int8" || tensor.dtype == "uint8";
  int64_t bytes = byte_value ? 1 : tensor.dtype == "int32" ? 4 : 0;
  if (bytes == 0) {
    fail(text + " reads " + tensor.dtype + " tensor '" + tensor.name + "'; the tenstorrent backend tests bool, "
         "int8, uint8 and int32 values read from DRAM (the compute kernel reads the value's 32-bit word of its tile)");
  }
  // An int32 value in any other condition (combined with index terms: nsa's `i_s <= i_t and i_s >= 0`) is a whole
  // step whose kernels test the condition with the word in place of the value; the K-step form tests a range.
  std::optional<Range> range = range_of(cond.condition(), loads[0].any());
  auto refuse_form = [&] { fail(text + " is not a comparison of the value of '" + tensor.name + "' with an integer "
    "constant (or the bool value itself); the tenstorrent backend tests one such comparison in the compute kernel (any "
    "condition on an int32 value around a whole step)"); };
  if (!range && bytes != 4) refuse_form();
  if (range && tensor.dtype == "int8") *range = byte_range(*range, text, tensor.name);
  std::vector<TileOp> inner, other;
  visit(cond.then_case().any(), inner);
  if (!is_none(cond.else_case())) visit(cond.else_case(), other);
  bool whole = !is_none(cond.else_case()) || !only_steps(inner);
  if (!range && !whole) refuse_form();
  if (!range) range = Range{0, 0, true};  // unused: the whole step tests the condition itself (FlagValue::general)
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
  auto [byte, scale] = byte_in_tile(row, col, bytes);
  FlagValue value{tensor, fn::mul(fn::floordiv(row, Any(th)), Any(th)), fn::mul(fn::floordiv(col, Any(tw)), Any(tw)),
                  fn::floordiv(byte, Any(int64_t(4))), scale, bytes == 4 ? 0 : 256, range->lo, range->hi,
                  range->inside, loads[0].any(), !range_of(cond.condition(), loads[0].any())};
  if (whole) {  // a whole step: every kernel takes the branch
    flag_step(cond, loops, ops, std::move(inner), std::move(other), value);
    return true;
  }
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

// On-chip copies of DRAM data that only conditions read (issue 28). TileLang's block-sparse attention copies its
// query block's row of the block mask into a fragment once and tests one element per key block:
//
//     T.copy(BlockSparseMask[bz, by, bx, :], block_mask)
//     for k in T.Pipelined(loop_range):
//         if block_mask[k] != 0: ...
//
// A condition is evaluated by the kernels that take its branch, and the reader and writer do not see on-chip data;
// the fragment holds the tensor's values unchanged, so the condition reads the tensor's element instead
// (`BlockSparseMask[bz, by, bx, k] != 0`), which the reader reads as data (tile_ops_flag.cc), and the copy goes. Only
// a buffer written by that one T.copy (no other tile op or store writes it) and read only in if conditions is folded.

namespace tl {
namespace {

using tileops::Region;
using tileops::region_of;

struct ConditionCopy {
  Any copy;                // the T.copy statement
  Any buffer;              // the on-chip buffer it writes
  Region source;           // the DRAM region it reads
  std::vector<size_t> at;  // the tensor dims the buffer's dims stand for, in order
};

// The copy's tensor dims that the buffer's dims map to (the region's dims of extent > 1, in order, against the
// buffer's dims of extent > 1), or nullopt when the region is not the buffer's shape with unit dims added.
std::optional<std::vector<size_t>> condition_copy_dims(const Region& src, const std::vector<int64_t>& shape) {
  std::vector<size_t> spanned;
  for (size_t d = 0; d < src.extents.size(); ++d) {
    if (src.extents[d] != 1) spanned.push_back(d);
  }
  std::vector<int64_t> wide;
  for (int64_t e : shape) {
    if (e != 1) wide.push_back(e);
  }
  if (spanned.size() != wide.size()) return std::nullopt;
  for (size_t i = 0; i < wide.size(); ++i) {
    if (src.extents[spanned[i]] != wide[i]) return std::nullopt;
  }
  return spanned;
}

std::vector<ConditionCopy> condition_copies(const Any& body) {
  std::vector<ConditionCopy> found;
  std::vector<Any> copied, written_else;
  walk(body, {ir::visit<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& t) {
                bool copy = std::string(t.op().name()) == "tirx.tile.copy";
                for (size_t a = 0; a < t.args().size(); ++a) {
                  if (!ir::TensorRegion::matches(t.args()[a])) continue;
                  Any buf = ir::TensorRegion(t.args()[a]).source().any();
                  (copy && a == 0 ? copied : written_else).push_back(buf);
                }
                if (!copy) return;
                Region dst = region_of(t.args()[0]), src = region_of(t.args()[1]);
                if (!dst.info.on_chip() || src.info.on_chip() || dst.info.dtype != src.info.dtype) return;
                auto at = condition_copy_dims(src, dst.info.shape);
                if (at) found.push_back({t.any(), ir::TensorRegion(t.args()[0]).source().any(), src, *at});
              }),
              ir::visit<ir::BufferStore>([&](const ir::BufferStore& st) { written_else.push_back(st.buffer().any()); })});
  auto count = [](const std::vector<Any>& v, const Any& b) {
    return std::count_if(v.begin(), v.end(), [&](const Any& x) { return x.same_as(b); });
  };
  // Reads of each candidate in conditions and in all.
  std::vector<ConditionCopy> kept;
  for (const ConditionCopy& c : found) {
    if (count(copied, c.buffer) != 1 || count(written_else, c.buffer) != 0) continue;
    int64_t all = 0, in_conditions = 0;
    walk(body, {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) { all += l.source().same_as(c.buffer); }),
                ir::visit<ir::IfThenElse>([&](const ir::IfThenElse& i) {
                  walk(i.condition(), {ir::visit<ir::TensorLoad>([&](const ir::TensorLoad& l) {
                         in_conditions += l.source().same_as(c.buffer);
                       })});
                })});
    if (all > 0 && all == in_conditions) kept.push_back(c);
  }
  return kept;
}

}  // namespace

Any fold_condition_copies(const Any& func) {
  Any body = ir::PrimFunc(func).body();
  std::vector<ConditionCopy> copies = condition_copies(body);
  if (copies.empty()) return func;
  auto find = [&](const Any& buf) -> const ConditionCopy* {
    for (const ConditionCopy& c : copies) {
      if (c.buffer.same_as(buf)) return &c;
    }
    return nullptr;
  };
  Any result = map(body, {ir::rewrite<ir::TensorLoad>([&](const ir::TensorLoad& load) -> Any {
                            const ConditionCopy* c = find(load.source().any());
                            if (!c) return load.any();
                            // The element: the region's first index in every dim, plus the buffer's index in the
                            // dims it spans (the buffer's unit dims index 0).
                            std::vector<Any> inner;
                            for (const Any& i : load.indices()) inner.push_back(i);
                            std::vector<Any> wide;
                            BufferInfo info = buffer_info(c->buffer);
                            for (size_t d = 0; d < info.shape.size(); ++d) {
                              if (info.shape[d] != 1) wide.push_back(inner[d]);
                            }
                            List indices;
                            for (size_t d = 0; d < c->source.mins.size(); ++d) {
                              auto it = std::find(c->at.begin(), c->at.end(), d);
                              indices.push_back(it == c->at.end() ? c->source.mins[d]
                                                                  : fn::add(c->source.mins[d], wide[it - c->at.begin()]));
                            }
                            return call("tirx.BufferLoad", c->source.info.var, Any(indices), Any(nullptr));
                          }),
                          ir::rewrite<ir::TilePrimitiveCall>([&](const ir::TilePrimitiveCall& t) -> Any {
                            for (const ConditionCopy& c : copies) {
                              if (c.copy.same_as(t.any())) return evaluate(int_imm(0));
                            }
                            return t.any();
                          })},
                  "post");
  return with_body(func, result);
}

}  // namespace tl
